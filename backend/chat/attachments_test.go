package chat_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

func prepared(t *testing.T, name string, data []byte) attach.Prepared {
	t.Helper()
	p, err := attach.Prepare(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func widePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 200
	}
	img.Set(0, 0, color.NRGBA{1, 2, 3, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// userParts returns the parts of the last user message of the last chat
// request the fake received.
func userParts(t *testing.T, srv *llmtest.Server) []openai.ChatMessagePart {
	t.Helper()
	reqs := srv.ChatRequests()
	if len(reqs) == 0 {
		t.Fatal("no chat request")
	}
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			return msgs[i].MultiContent
		}
	}
	t.Fatal("no user message")
	return nil
}

func TestAnImageGoesToTheModelAsADownscaledImagePart(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("a grey picture"))
	c := newCore(t, srv)
	img := prepared(t, "screenshot.png", widePNG(t, 3000, 1500))
	rec := &recorder{}
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "what is this?", Attachments: []attach.Prepared{img}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Wait()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	parts := userParts(t, srv)
	if len(parts) != 2 || parts[0].Type != openai.ChatMessagePartTypeText || parts[0].Text != "what is this?" ||
		parts[1].Type != openai.ChatMessagePartTypeImageURL || parts[1].ImageURL == nil {
		t.Fatalf("parts %+v", parts)
	}
	url := parts[1].ImageURL.URL
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(url, prefix) {
		t.Fatalf("url %.60s", url)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, prefix))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width != 2048 || cfg.Height != 1024 {
		t.Fatalf("sent image %dx%d %v, want 2048x1024", cfg.Width, cfg.Height, err)
	}
	// The request body itself carries OpenAI's content-part shape.
	body := string(srv.ChatRequests()[0].Body)
	if !strings.Contains(body, `"type":"image_url"`) || !strings.Contains(body, `"image_url":{"url":"data:image/png;base64,`) {
		t.Fatalf("body lacks the image part: %.300s", body)
	}
	if res.Context.Attachments != chat.ImageTokens(2048, 1024) {
		t.Errorf("attachments in the report: %d, want %d", res.Context.Attachments, chat.ImageTokens(2048, 1024))
	}
	// The api_logs row keeps the part but not the megabytes of base64.
	c.FlushAPILogs()
	logs, _, err := c.DB.ListAPILogs(context.Background(), 10, 0)
	if err != nil || len(logs) == 0 {
		t.Fatalf("logs %v", err)
	}
	full, err := c.DB.GetAPILog(context.Background(), logs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if l := full.RequestJSON; !strings.Contains(l, "data:image/png;base64,…(") || !strings.Contains(l, `"type":"image_url"`) || len(l) > 20000 {
		t.Errorf("api log of %d bytes: %.200s", len(l), l)
	}

	// The next turn sends the image again, from the stored file.
	srv.Reset()
	if _, _, _ = turn(t, c, tr.SessionID, "and now?"); len(srv.ChatRequests()) != 1 {
		t.Fatal("no second request")
	}
	msgs := srv.ChatRequests()[0].Messages
	found := false
	for _, m := range msgs {
		for _, p := range m.MultiContent {
			found = found || (p.ImageURL != nil && strings.HasPrefix(p.ImageURL.URL, prefix))
		}
	}
	if !found {
		t.Error("the history's image was not sent again")
	}
}

func TestATextFileGoesAsADelimitedBlockCountedAsAttachments(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	doc := prepared(t, "main.go", []byte("package main\n\nfunc main() {}\n"))
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "review this", Attachments: []attach.Prepared{doc}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Wait()
	parts := userParts(t, srv)
	want := "<attachment name=\"main.go\" type=\"text/plain\" chars=\"29\">\npackage main\n\nfunc main() {}\n\n</attachment>"
	if len(parts) != 2 || parts[1].Text != want {
		t.Fatalf("parts %#v", parts)
	}
	if res.Context.Attachments == 0 || res.Context.Message == 0 {
		t.Errorf("report: message %d, attachments %d", res.Context.Message, res.Context.Attachments)
	}
	stored, _ := c.DB.FilesOf(context.Background(), []int64{tr.UserMessage.ID})
	if f := stored[tr.UserMessage.ID]; len(f) != 1 || f[0].Name != "main.go" {
		t.Fatalf("stored %+v", f)
	}
}

func TestAnEditedQuestionKeepsItsAttachments(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	doc := prepared(t, "notes.md", []byte("# notes\n"))
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "v1", Attachments: []attach.Prepared{doc}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	srv.Reset()
	et, err := c.Chat.Edit(context.Background(), chat.EditRequest{SessionID: tr.SessionID, MessageID: tr.UserMessage.ID, Text: "v2"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	et.Wait()
	parts := userParts(t, srv)
	if len(parts) != 2 || parts[0].Text != "v2" || !strings.Contains(parts[1].Text, `name="notes.md"`) {
		t.Fatalf("edited request parts %#v", parts)
	}
}

func TestARefusedAttachmentStoresNothing(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	doc := prepared(t, "a.txt", []byte("a"))
	many := make([]attach.Prepared, attach.MaxPerMessage+1)
	for i := range many {
		many[i] = doc
	}
	_, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "typed text", Attachments: many}, &recorder{})
	var e *apperr.Error
	if !errors.As(err, &e) || e.Code != apperr.AttachTooMany {
		t.Fatalf("err %v", err)
	}
	ss, _ := c.DB.ListSessions(context.Background())
	if len(ss) != 0 {
		t.Fatalf("%d sessions stored", len(ss))
	}
	if entries, _ := os.ReadDir(filepath.Join(c.DataDir, store.AttachmentsDir)); len(entries) != 0 {
		t.Fatalf("files written: %v", entries)
	}
	if len(srv.ChatRequests()) != 0 {
		t.Fatal("the model was asked")
	}
}

func TestAMessageOfAttachmentsAloneNeedsNoText(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Attachments: []attach.Prepared{prepared(t, "a.png", widePNG(t, 20, 10))}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if parts := userParts(t, srv); len(parts) != 1 || parts[0].ImageURL == nil {
		t.Fatalf("parts %+v", parts)
	}
}

func TestAnImageWhoseFileIsMissingDoesNotStopTheChat(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	img := prepared(t, "gone.png", widePNG(t, 20, 10))
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "first", Attachments: []attach.Prepared{img}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	if err := os.Remove(filepath.Join(c.DataDir, store.AttachmentsDir, img.SHA256[:2], img.SHA256)); err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	res, _, _ := turn(t, c, tr.SessionID, "second")
	if res.Err != nil {
		t.Fatalf("the turn failed: %v", res.Err)
	}
	found := false
	for _, m := range srv.ChatRequests()[0].Messages {
		for _, p := range m.MultiContent {
			found = found || p.Text == chat.MissingImageText
		}
	}
	if !found {
		t.Error("the missing image was not replaced by its note")
	}
}
