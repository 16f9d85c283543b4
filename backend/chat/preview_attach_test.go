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
// the model is counted in full and marked as not fitting
// (AttachmentsTooLong) — never "too long", so Send stays enabled and
// brings the offer to send the part that fits. (A new-user try found the
// meter reading the draft alone, "nothing left out", with a 300-page PDF
// staged.)
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
	if long.TooLong || !long.AttachmentsTooLong || long.Attachments <= long.Input || long.Used <= long.Input || long.Message == 0 {
		t.Errorf("a document that does not fit: tooLong %v, attachmentsTooLong %v, attachments %d, used %d of %d, message %d",
			long.TooLong, long.AttachmentsTooLong, long.Attachments, long.Used, long.Input, long.Message)
	}
	// A staged image beside it still counts as sent with the draft.
	both, err := c.Chat.Preview(ctx, chat.PreviewRequest{Text: "What does the report say?"}, longPDF(t, 40), prepared(t, "p.png", widePNG(t, 64, 64)))
	if err != nil {
		t.Fatal(err)
	}
	if !both.AttachmentsTooLong || both.Attachments <= long.Attachments {
		t.Errorf("with an image too: attachmentsTooLong %v, attachments %d (the PDF alone %d)", both.AttachmentsTooLong, both.Attachments, long.Attachments)
	}
	if with.AttachmentsTooLong {
		t.Error("a file that fits is marked as not fitting")
	}
}
