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

// A regenerate with a smaller model, and an edit sent to one, meet the
// same rule as a send (issue 25): a document that no longer fits is never
// cut silently. The turn is refused with the offer and nothing changes (no
// request, no new version, the question's links as they were); sent again
// with FitAttachments, the request holds pages 1..N as the offer named, and
// a new version of the question (regenerate, as an edit) records that part:
// the first version keeps the whole document its reply got, and a later
// regenerate with a model that takes the whole document sends all of it (a
// new-user try saw the first reply's chip claim the part, and gpt-4o get
// pages 1..N).
func TestARegenerateOrEditWithASmallerModelOffersThePartThatFits(t *testing.T) {
	srv := echoServer(t)
	c := newCore(t, srv, "DEFAULT_MODEL=openai/gpt-4o", "MAX_OUTPUT_TOKENS=500")
	ctx := context.Background()
	doc := longPDF(t, 80) // about 12,000 tokens: fits gpt-4o's 128k, not gpt-4's 8k
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "Summarise the report", Attachments: []attach.Prepared{doc}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(docPart(userParts(t, srv)), "[page 80]") {
		t.Fatal("gpt-4o did not get the whole document")
	}
	requests := srv.RequestCount(llmtest.PathChat)
	before, _ := c.DB.SessionMessages(ctx, tr.SessionID)
	question := before[0].ID

	_, err = c.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: tr.SessionID, Model: "openai/gpt-4"}, &recorder{})
	in := apperr.InfoOf(err)
	fit, _ := in.Params["fitPages"].(int)
	if in.Code != apperr.ChatAttachmentTooLong || in.Params["pages"] != 80 || fit < 2 || fit >= 80 {
		t.Fatalf("Regenerate with gpt-4 = %v %+v, want the offer", err, in.Params)
	}
	_, err = c.Chat.Edit(ctx, chat.EditRequest{SessionID: tr.SessionID, MessageID: question, Text: "Summarise it briefly", Model: "openai/gpt-4"}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatAttachmentTooLong {
		t.Fatalf("Edit with gpt-4 = %v, want the offer", err)
	}
	if n := srv.RequestCount(llmtest.PathChat); n != requests {
		t.Fatalf("a refused regenerate or edit made %d requests", n-requests)
	}
	after, _ := c.DB.SessionMessages(ctx, tr.SessionID)
	if len(after) != len(before) {
		t.Fatalf("a refused regenerate or edit stored messages: %d → %d", len(before), len(after))
	}
	files, _ := c.DB.FilesOf(ctx, []int64{question})
	if f := files[question]; len(f) != 1 || f[0].SentPages != 0 {
		t.Fatalf("a refused regenerate changed the question's file: %+v", f)
	}
	if sess, _ := c.DB.GetSession(ctx, tr.SessionID); sess.Model != "openai/gpt-4o" {
		t.Fatalf("a refused regenerate or edit made %q the chat's model", sess.Model)
	}

	// Regenerate, sending the part that fits.
	tr2, err := c.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: tr.SessionID, Model: "openai/gpt-4", FitAttachments: true}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr2.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	block := docPart(userParts(t, srv))
	if !strings.Contains(block, fmt.Sprintf(`part="pages 1-%d of 80"`, fit)) || strings.Contains(block, fmt.Sprintf("[page %d]", fit+1)) {
		t.Fatalf("the regenerate did not send pages 1-%d only:\n%.300s", fit, block)
	}
	files, _ = c.DB.FilesOf(ctx, []int64{question, tr2.UserMessage.ID})
	if f := files[question]; len(f) != 1 || f[0].SentPages != 0 {
		t.Fatalf("the first version of the question changed: %+v", f)
	}
	if f := files[tr2.UserMessage.ID]; tr2.UserMessage.ID == question || len(f) != 1 || f[0].SentPages != fit || f[0].SHA256 != doc.SHA256 {
		t.Fatalf("the regenerate's version of the question (%d, first %d): %+v", tr2.UserMessage.ID, question, f)
	}
	// Again with gpt-4o: the whole document goes.
	tr4, err := c.Chat.Regenerate(ctx, chat.RegenerateRequest{SessionID: tr.SessionID, Model: "openai/gpt-4o"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr4.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if block := docPart(userParts(t, srv)); !strings.Contains(block, "[page 80]") || strings.Contains(block, `part="`) {
		t.Fatalf("gpt-4o got a part after the part regenerate:\n%.300s", block)
	}

	// Edit, sending the part that fits: the new version records it.
	tr3, err := c.Chat.Edit(ctx, chat.EditRequest{SessionID: tr.SessionID, MessageID: question, Text: "Summarise it briefly",
		Model: "openai/gpt-4", FitAttachments: true}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr3.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if !strings.Contains(docPart(userParts(t, srv)), fmt.Sprintf(`part="pages 1-%d of 80"`, fit)) {
		t.Fatal("the edit did not send the part that fits")
	}
	files, _ = c.DB.FilesOf(ctx, []int64{tr3.UserMessage.ID})
	if f := files[tr3.UserMessage.ID]; len(f) != 1 || f[0].SentPages != fit || f[0].SHA256 != doc.SHA256 {
		t.Fatalf("the new version's file %+v", f)
	}
}
