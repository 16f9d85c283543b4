package chat_test

import (
	"context"
	"testing"

	"playchat/backend/attach"
	"playchat/backend/chat"
)

// The context meter counts the files waiting in the message box (issue
// 25): a preview with a staged document reports its tokens as the
// attachments part, the same as the turn that sends it; one too long for
// the model leaves the report the draft's own — never "too long", so Send
// stays enabled and brings the offer to send the part that fits.
func TestThePreviewCountsTheFilesWaitingInTheMessageBox(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	doc := prepared(t, "main.go", []byte("package main\n\nfunc main() { println(\"こんにちは\") }\n"))
	bare, err := c.Chat.Preview(ctx, chat.PreviewRequest{Text: "review this"})
	if err != nil {
		t.Fatal(err)
	}
	if bare.Attachments != 0 {
		t.Fatalf("attachments without files: %d", bare.Attachments)
	}
	with, err := c.Chat.Preview(ctx, chat.PreviewRequest{Text: "review this"}, doc)
	if err != nil {
		t.Fatal(err)
	}
	if with.Attachments == 0 || with.Message != bare.Message {
		t.Fatalf("with the file: attachments %d, message %d (without: %d)", with.Attachments, with.Message, bare.Message)
	}
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "review this", Attachments: []attach.Prepared{doc}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Context.Attachments != with.Attachments {
		t.Errorf("the turn's attachments %d, the preview said %d", res.Context.Attachments, with.Attachments)
	}

	long, err := c.Chat.Preview(ctx, chat.PreviewRequest{Text: "What does the report say?"}, longPDF(t, 40))
	if err != nil {
		t.Fatal(err)
	}
	if long.TooLong || long.Attachments != 0 || long.Message == 0 {
		t.Errorf("a document that does not fit: tooLong %v, attachments %d, message %d", long.TooLong, long.Attachments, long.Message)
	}
}
