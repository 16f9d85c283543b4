package app

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/llm/llmtest"
)

// Remove on an unanswered question gives its files back (issue 25): the
// question's attachments are staged again, the question can be removed,
// and the files go with the next message unchanged — nothing the user
// attached is lost to a failed reply.
func TestTheFilesOfAnUnansweredQuestionComeBackToTheMessageBox(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	srv := llmtest.NewServer(t, llmtest.WithReply("seen"), llmtest.WithDefault(func(llmtest.RecordedRequest) llmtest.Response {
		if fail.Load() {
			return llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"bad request"}}`}
		}
		return llmtest.Response{Chunks: []string{"seen"}}
	}))
	a, p := newTestApp(t, "OPENAI_BASE_URL="+srv.URL, "DEFAULT_MODEL=openai/fake-model")
	dir := t.TempDir()
	for name, b := range map[string][]byte{"shot.png": pngBytes(t, 300, 100), "notes.md": []byte("# 議事録\n\n次回は月曜。\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p.attachments = []string{filepath.Join(dir, "shot.png"), filepath.Join(dir, "notes.md")}
	svc := &AttachmentService{a}
	staged, err := svc.Choose("Attach")
	if err != nil || len(staged) != 2 {
		t.Fatalf("staged %+v %v", staged, err)
	}
	chatSvc := &ChatService{a}
	c, _ := a.backend()
	wait := func(sid string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for c.Chat.Answering(sid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
	}
	start, err := chatSvc.Send(SendRequest{Text: "この2つを見て", AttachmentIDs: []string{staged[0].ID, staged[1].ID}})
	if err != nil {
		t.Fatal(err)
	}
	wait(start.SessionID)
	ms, err := (&SessionService{a}).Messages(start.SessionID)
	if err != nil || len(ms) == 0 || !ms[0].Unanswered || len(ms[0].Attachments) != 2 {
		t.Fatalf("after the failed reply: %+v %v", ms, err)
	}
	question := ms[0]

	// Not a user message of this session: refused, nothing staged.
	if _, err := svc.Restage("another-session", question.ID); apperr.CodeOf(err) != apperr.ChatNotUserMessage {
		t.Errorf("restage from another session: %v", err)
	}
	if len(ms) > 1 {
		if _, err := svc.Restage(start.SessionID, ms[1].ID); apperr.CodeOf(err) != apperr.ChatNotUserMessage {
			t.Errorf("restage of the reply: %v", err)
		}
	}

	back, err := svc.Restage(start.SessionID, question.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[0].ID == "" || back[0].Name != "shot.png" || back[0].Kind != "image" || back[0].Width != 300 ||
		back[0].Thumbnail == "" || back[1].Name != "notes.md" || back[1].Chars != question.Attachments[1].Chars {
		t.Fatalf("restaged %+v", back)
	}
	if _, err := chatSvc.RemoveUnanswered(start.SessionID, question.ID); err != nil {
		t.Fatal(err)
	}
	// The files wait in memory, not in the store: sending them again
	// stores the same bytes.
	fail.Store(false)
	again, err := chatSvc.Send(SendRequest{SessionID: start.SessionID, Text: "もう一度", AttachmentIDs: []string{back[0].ID, back[1].ID}})
	if err != nil {
		t.Fatal(err)
	}
	wait(start.SessionID)
	got := again.UserMessage.Attachments
	if len(got) != 2 || got[0].SHA256 != question.Attachments[0].SHA256 || got[1].SHA256 != question.Attachments[1].SHA256 {
		t.Fatalf("sent again %+v, want the files of %+v", got, question.Attachments)
	}
}
