package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/attach/attachtest"
	"playchat/backend/llm/llmtest"
)

// stagedPDF stages a real PDF of n pages of about 150 tokens each; page
// special holds the word "zeppelin".
func stagedPDF(t *testing.T, a *App, n, special int) StagedAttachment {
	t.Helper()
	pages := make([]attachtest.Page, n)
	for i := range pages {
		var b strings.Builder
		for s := 0; s < 12; s++ {
			fmt.Fprintf(&b, "Section %d sentence %d tells how the money of the year was spent. ", i+1, s+1)
		}
		if i+1 == special {
			b.WriteString("The zeppelin hangar took most of it.")
		}
		pages[i] = attachtest.Page{Latin: b.String()}
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, attachtest.PDF(pages...), 0o600); err != nil {
		t.Fatal(err)
	}
	staged, err := (&AttachmentService{a}).AddFiles([]string{path})
	if err != nil || len(staged) != 1 || staged[0].ID == "" {
		t.Fatalf("staged %+v %v", staged, err)
	}
	return staged[0]
}

func waitTurn(t *testing.T, a *App, srv *llmtest.Server, requests int, sessionID string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for srv.RequestCount(llmtest.PathChat) < requests && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	c, _ := a.backend()
	for c.Chat.Answering(sessionID) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if srv.RequestCount(llmtest.PathChat) < requests {
		t.Fatalf("%d chat requests, want %d", srv.RequestCount(llmtest.PathChat), requests)
	}
}

// The window's answers to "this document is too long": Send refuses with
// the offer and keeps the file waiting; Send again with FitAttachments
// sends pages 1..N; or AddToKnowledge puts the document in the knowledge
// base and a message sent without it gets its relevant page from layer 3.
func TestTheTooLongOfferSendsThePartThatFitsOrAddsTheFileToTheKnowledgeBase(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	a, _ := newTestApp(t, "OPENAI_BASE_URL="+srv.URL, "DEFAULT_MODEL=openai/fake-model",
		"CONTEXT_WINDOW_TOKENS=6000", "MAX_OUTPUT_TOKENS=500", "AUTO_TAGS=false")
	chatSvc, attSvc := &ChatService{a}, &AttachmentService{a}

	doc := stagedPDF(t, a, 40, 33)
	req := SendRequest{TurnID: "t1", Text: "What does the report say about the zeppelin?", AttachmentIDs: []string{doc.ID}}
	_, err := chatSvc.Send(req)
	in := apperr.InfoOf(err)
	if in.Code != apperr.ChatAttachmentTooLong || in.Params["pages"] != 40 {
		t.Fatalf("Send = %v %+v", err, in.Params)
	}
	fit := in.Params["fitPages"].(int)
	if _, err := a.attachments.get([]string{doc.ID}); err != nil {
		t.Fatal("the refused file no longer waits to be sent")
	}
	if n := srv.RequestCount(llmtest.PathChat); n != 0 {
		t.Fatalf("%d requests for a refused message", n)
	}

	// Send pages 1..N.
	req.FitAttachments = true
	start, err := chatSvc.Send(req)
	if err != nil {
		t.Fatal(err)
	}
	waitTurn(t, a, srv, 1, start.SessionID)
	sent := srv.ChatRequests()[0]
	body := ""
	for _, m := range sent.Messages {
		for _, p := range m.MultiContent {
			body += p.Text
		}
	}
	if !strings.Contains(body, fmt.Sprintf(`part="pages 1-%d of 40"`, fit)) || strings.Contains(body, fmt.Sprintf("[page %d]", fit+1)) {
		t.Fatalf("the request does not hold exactly pages 1-%d:\n%.300s", fit, body)
	}
	hist, err := (&SessionService{a}).Messages(start.SessionID)
	if err != nil || len(hist) == 0 || len(hist[0].Attachments) != 1 {
		t.Fatalf("history %+v %v", hist, err)
	}
	if got := hist[0].Attachments[0]; got.Pages != 40 || got.SentPages != fit || got.SentChars != 0 {
		t.Fatalf("the history does not say which part went: %+v", got)
	}

	// Or: into the knowledge base, and the question again without the file.
	doc2 := stagedPDF(t, a, 40, 33)
	if _, err := chatSvc.Send(SendRequest{TurnID: "t2", Text: req.Text, AttachmentIDs: []string{doc2.ID}}); apperr.CodeOf(err) != apperr.ChatAttachmentTooLong {
		t.Fatalf("second Send = %v", err)
	}
	rel, err := attSvc.AddToKnowledge(doc2.ID)
	if err != nil || rel != "report.md" {
		t.Fatalf("AddToKnowledge = %q, %v", rel, err)
	}
	if _, err := a.attachments.get([]string{doc2.ID}); err == nil {
		t.Error("the file added to the knowledge base still waits to be sent")
	}
	c, _ := a.backend()
	if b, err := os.ReadFile(filepath.Join(c.KB.Root(), "report.md")); err != nil || !strings.Contains(string(b), "## Page 33\n\nSection 33 sentence 1 ") {
		t.Fatalf("the knowledge base document: %v\n%.200s", err, b)
	}
	start, err = chatSvc.Send(SendRequest{TurnID: "t3", Text: req.Text})
	if err != nil {
		t.Fatal(err)
	}
	waitTurn(t, a, srv, 2, start.SessionID)
	last := srv.ChatRequests()[1]
	system := ""
	for _, m := range last.Messages {
		if m.Role == "system" {
			system += m.Content
		}
	}
	if !strings.Contains(system, "zeppelin hangar") || !strings.Contains(system, "report.md") {
		t.Fatalf("layer 3 did not bring the document's page:\n%.2000s", system)
	}
}
