package app

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/llm/llmtest"
)

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewNRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Files chosen in the picker wait as chips (a thumbnail for an image, a
// reason for a refused one), go with the message that is sent, and show
// in the history afterwards.
func TestChosenFilesAreStagedSentAndShownInTheHistory(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("seen"))
	a, p := newTestApp(t, "OPENAI_BASE_URL="+srv.URL, "DEFAULT_MODEL=openai/fake-model")
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	p.attachments = []string{
		write("shot.png", pngBytes(t, 400, 200)),
		write("readme.md", []byte("# hello\n")),
		write("tool.exe", []byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00binary")),
	}
	svc := &AttachmentService{a}
	staged, err := svc.Choose("Attach")
	if err != nil {
		t.Fatal(err)
	}
	if len(staged) != 3 || staged[0].ID == "" || !strings.HasPrefix(staged[0].Thumbnail, "data:image/png;base64,") ||
		staged[0].Width != 400 || staged[1].Kind != "text" || staged[1].Chars != 8 {
		t.Fatalf("staged %+v", staged)
	}
	if staged[2].ID != "" || staged[2].Error == nil || staged[2].Error.Code != apperr.AttachUnsupported {
		t.Fatalf("the binary was not refused: %+v", staged[2])
	}
	pasted, err := svc.AddData("pasted.png", base64.StdEncoding.EncodeToString(pngBytes(t, 10, 10)))
	if err != nil || pasted.ID == "" {
		t.Fatalf("paste %+v %v", pasted, err)
	}
	if err := svc.Discard([]string{pasted.ID}); err != nil {
		t.Fatal(err)
	}

	chatSvc := &ChatService{a}
	// A discarded file cannot be sent; nothing is stored.
	if _, err := chatSvc.Send(SendRequest{Text: "look", AttachmentIDs: []string{pasted.ID}}); apperr.CodeOf(err) != apperr.AttachNotFound {
		t.Fatalf("send with a discarded file: %v", err)
	}
	start, err := chatSvc.Send(SendRequest{Text: "look", AttachmentIDs: []string{staged[0].ID, staged[1].ID}})
	if err != nil {
		t.Fatal(err)
	}
	if got := start.UserMessage.Attachments; len(got) != 2 || got[0].Name != "shot.png" || got[1].Name != "readme.md" {
		t.Fatalf("user message attachments %+v", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.ChatRequests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	c, _ := a.backend()
	for c.Chat.Answering(start.SessionID) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	// Sent: the staged ids are gone.
	if _, err := a.attachments.get([]string{staged[0].ID}); err == nil {
		t.Error("a sent file still waits")
	}
	ms, err := (&SessionService{a}).Messages(start.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 1 || len(ms[0].Attachments) != 2 || ms[0].Attachments[0].Kind != "image" || ms[0].Attachments[1].Chars != 8 {
		t.Fatalf("history %+v", ms)
	}
	url, err := svc.DataURL(ms[0].Attachments[0].SHA256)
	if err != nil || !strings.HasPrefix(url, "data:image/png;base64,") {
		t.Fatalf("data URL %.40s %v", url, err)
	}
	// A document chip opens its text; an unknown file is a coded error.
	if text, err := svc.Text(ms[0].Attachments[1].SHA256); err != nil || text != "# hello\n" {
		t.Fatalf("document text %q %v", text, err)
	}
	if _, err := svc.Text(strings.Repeat("0", 64)); apperr.CodeOf(err) != apperr.AttachMissing {
		t.Fatalf("text of an unknown file: %v", err)
	}
	if got := svc.TakesImages("openai/gpt-3.5-turbo"); got != "no" {
		t.Errorf("gpt-3.5-turbo takes images: %s", got)
	}
}
