package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/session"
)

func TestSessionsImportFromChatGPTAndClaudePrintsTheCounts(t *testing.T) {
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	gpt := filepath.Join("..", "backend", "session", "testdata", "chatgpt_conversations.json")
	r := runCLI(t, env, "", "sessions", "import", "--from", "chatgpt", gpt)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := "imported 2 sessions with 9 messages from chatgpt (4 placeholders for images, attachments and tool traces; skipped 5 system, hidden or empty messages and 1 empty conversations; 2 other branches kept as versions)"
	if strings.TrimSpace(r.stderr) != want {
		t.Errorf("stderr = %q\nwant     %q", r.stderr, want)
	}
	if id := strings.TrimSpace(r.stdout); len(id) != 36 {
		t.Errorf("stdout = %q, want the first session's id", r.stdout)
	}
	claude := filepath.Join("..", "backend", "session", "testdata", "claude_conversations.json")
	// Without --from the format is told apart by the file's content.
	if r := runCLI(t, env, "", "sessions", "import", claude); r.code != 0 || !strings.Contains(r.stderr, "imported 2 sessions with 6 messages from claude") {
		t.Fatalf("import without --from: exit %d, stderr %s", r.code, r.stderr)
	}
	r = runCLI(t, env, "", "sessions", "list", "--json")
	var rows []session.Summary
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for _, row := range rows {
		titles[row.Title] = true
	}
	if len(rows) != 4 || !titles["東京の天気について"] || !titles["Rustの所有権"] {
		t.Errorf("sessions after both imports: %+v", rows)
	}
}

func TestSessionsImportOfABrokenExportStoresNothing(t *testing.T) {
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	file := filepath.Join(t.TempDir(), "conversations.json")
	// A valid conversation, then one whose title is over 200 characters.
	msg := func(title string) string {
		b, _ := json.Marshal(title)
		return `{"title":` + string(b) + `,"create_time":1714550400,"mapping":{"u":{"id":"u","parent":null,"children":[],"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["hi"]}}}}}`
	}
	if err := os.WriteFile(file, []byte("["+msg("t")+","+msg(strings.Repeat("長", 201))+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, env, "", "sessions", "import", "--from", "auto", file)
	if r.code != 1 || !strings.Contains(r.stderr, "conversations[1]: title") {
		t.Fatalf("exit %d, stderr %.300s", r.code, r.stderr)
	}
	if r := runCLI(t, env, "", "sessions", "list", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("a refused import left sessions: %s", r.stdout)
	}
	// --from native insists on a playchat session file.
	r = runCLI(t, env, "", "sessions", "import", "--from", "native", filepath.Join("..", "backend", "session", "testdata", "claude_conversations.json"))
	if r.code != 1 || !strings.Contains(r.stderr, "playchat session file") {
		t.Errorf("a Claude file imported as native: exit %d, stderr %.300s", r.code, r.stderr)
	}
	if r := runCLI(t, env, "", "sessions", "import", "--from", "gemini", file); r.code == 0 || !strings.Contains(r.stderr, "gemini") {
		t.Errorf("an unknown format: exit %d, stderr %.300s", r.code, r.stderr)
	}
}
