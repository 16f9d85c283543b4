package app

import (
	"path/filepath"
	"testing"
)

func TestTheWindowsImportSniffsAChatGPTExportAndReportsItsCounts(t *testing.T) {
	a, p := newTestApp(t)
	svc := &SessionService{a}
	p.openPath = filepath.Join("..", "backend", "session", "testdata", "chatgpt_conversations.json")
	res, err := svc.ImportFromFile()
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != "chatgpt" || res.Sessions != 2 || res.Messages != 9 || res.Placeholders != 4 ||
		res.Skipped != 5 || res.SkippedConversations != 1 || res.Branches != 2 || res.Session.Title != "東京の天気について" {
		t.Fatalf("result = %+v", res)
	}
	p.openPath = filepath.Join("..", "backend", "session", "testdata", "claude_conversations.json")
	if res, err = svc.ImportFromFile(); err != nil || res.Format != "claude" || res.Sessions != 2 || res.Placeholders != 5 {
		t.Fatalf("claude result = %+v, %v", res, err)
	}
	if ss, _ := svc.List(); len(ss) != 4 {
		t.Errorf("%d sessions after both imports, want 4", len(ss))
	}
}
