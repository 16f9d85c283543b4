package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
)

// BenchmarkAttachmentTooLongOffer measures what Start takes to refuse a
// message whose document does not fit and work out how much of it does
// (the offer of chat.attachmentTooLong): a text file of about 1 MiB (the
// most an attachment's text may be) for a model with a 128k-token window.
// The window's Send waits for it.
func BenchmarkAttachmentTooLongOffer(b *testing.B) {
	srv := llmtest.NewServer(b)
	c := benchCore(b, srv)
	var sb strings.Builder
	for i := 1; sb.Len() < attach.MaxTextBytes-100; i++ {
		fmt.Fprintf(&sb, "line %d of the log: the request took %d ms and everything was fine\n", i, i%997)
	}
	doc, err := attach.Prepare("server.log", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	req := chat.TurnRequest{Text: "any errors?", Model: "openai/gpt-4o", Attachments: []attach.Prepared{doc}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Chat.Start(context.Background(), req, nil); apperr.CodeOf(err) != apperr.ChatAttachmentTooLong {
			b.Fatalf("Start = %v", err)
		}
	}
}
