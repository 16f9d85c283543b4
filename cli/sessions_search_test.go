package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/store"
)

// seedSearch stores two sessions in dir's database: one whose title holds a
// terminal escape and a bidi override, with a Japanese message.
func seedSearch(t *testing.T, dir string) (jaID string, msgID int64) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ja, _ := db.CreateSession(ctx, "猫\x1b[2J\u202eの話", "openai/m")
	en, _ := db.CreateSession(ctx, "other", "openai/m")
	m := store.Message{SessionID: ja.ID, Role: store.RoleAssistant, Content: "吾輩は猫である。\n名前はまだ無い。",
		CreatedAt: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	o := store.Message{SessionID: en.ID, Role: store.RoleUser, Content: "no cats here", CreatedAt: m.CreatedAt}
	if err := db.InsertMessage(ctx, &o); err != nil {
		t.Fatal(err)
	}
	return ja.ID, m.ID
}

func TestSessionsSearchPrintsHitsWithMarkedExcerptsAndEscapedTitles(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	jaID, msgID := seedSearch(t, dir)

	r := runCLI(t, env, "", "sessions", "search", "ﾜｶﾞﾊｲ", "名前")
	if r.code != 0 || !strings.Contains(r.stdout, "no messages match") {
		t.Fatalf("a word not in any message: exit %d, %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, env, "", "sessions", "search", "名前")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout = %q, want one hit (two lines)", r.stdout)
	}
	if !strings.Contains(lines[0], jaID) || !strings.Contains(lines[0], "#"+itoa(msgID)) || !strings.Contains(lines[0], "assistant") {
		t.Errorf("hit line = %q", lines[0])
	}
	if strings.ContainsAny(r.stdout, "\x1b\u202e") || !strings.Contains(lines[0], `猫\u001b[2J\u202eの話`) {
		t.Errorf("title not escaped: %q", lines[0])
	}
	if want := "   吾輩は猫である。 «名前»はまだ無い。"; lines[1] != want {
		t.Errorf("excerpt = %q, want %q", lines[1], want)
	}

	r = runCLI(t, env, "", "sessions", "search", "--json", "--session", jaID, "--from", "2026-11-01", "--to", "2026-11-30", "猫")
	var hits []store.MessageHit
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || r.code != 0 {
		t.Fatalf("json: %v, exit %d, %s", err, r.code, r.stderr)
	}
	if len(hits) != 1 || hits[0].MessageID != msgID || hits[0].SessionTitle != "猫\x1b[2J\u202eの話" || hits[0].ExcerptText("[", "]") != "吾輩は[猫]である。 名前はまだ無い。" {
		t.Fatalf("json hits = %+v", hits)
	}
	r = runCLI(t, env, "", "sessions", "search", "--json", "--to", "2026-11-19", "猫")
	if strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("before the message: %q", r.stdout)
	}
	if r := runCLI(t, env, "", "sessions", "search", "--from", "20th", "猫"); r.code != 2 || !strings.Contains(r.stderr, "YYYY-MM-DD") {
		t.Errorf("bad day: exit %d, %q", r.code, r.stderr)
	}
	if r := runCLI(t, env, "", "sessions", "search"); r.code != 2 {
		t.Errorf("no query: exit %d", r.code)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
