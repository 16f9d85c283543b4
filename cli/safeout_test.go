package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/store"
)

func TestSafeWriterEscapesTerminalControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain 日本語\n\tindent":       "plain 日本語\n\tindent",
		"\x1b]0;owned\x07title\x00": `\u001b]0;owned\u0007title\u0000`,
		"crlf\r\nline\rover":        `crlf` + "\n" + `line\u000dover`,
		"c1 \u009b2J del \x7f":      `c1 \u009b2J del \u007f`,
		"bidi \u202egnp.exe":        `bidi \u202egnp.exe`,
		"bad \xff byte":             `bad \xff byte`,
	} {
		var b bytes.Buffer
		w := newSafeWriter(&b)
		if _, err := w.Write([]byte(in)); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		if b.String() != want {
			t.Errorf("%q → %q, want %q", in, b.String(), want)
		}
	}
	// A rune or a CRLF cut between two writes passes whole.
	var b bytes.Buffer
	w := newSafeWriter(&b)
	for _, part := range [][]byte{[]byte("あ")[:2], append([]byte("あ")[2:], '\r'), []byte("\nい")} {
		w.Write(part)
	}
	w.Flush()
	if b.String() != "あ\nい" {
		t.Errorf("split writes gave %q", b.String())
	}
	// JSON through it stays JSON with the same value.
	val := "t\u0085\u202e\x7f"
	raw, _ := json.Marshal(map[string]string{"title": val})
	b.Reset()
	w = newSafeWriter(&b)
	w.Write(raw)
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["title"] != val {
		t.Errorf("JSON through safeWriter: %s → %v, %v", b.String(), back, err)
	}
}

// issue 8: a title holding terminal escapes (stored before import checked
// titles, or by any other way) is listed without them.
func TestSessionsListNeverPrintsControlCharacters(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateSession(ctx, "\x1b]0;owned\x07\x1b[2J\x00evil\ntitle", "openai/\x1b[31mgpt"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	for _, args := range [][]string{{"sessions", "list"}, {"sessions", "list", "--json"}} {
		r := runCLI(t, env, "", args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", args, r.code, r.stderr)
		}
		if strings.IndexFunc(r.stdout, func(r rune) bool { return r != '\n' && r != ' ' && hiddenRune(r) }) >= 0 {
			t.Errorf("%v printed control characters: %q", args, r.stdout)
		}
		if !strings.Contains(r.stdout, "evil") {
			t.Errorf("%v: the title is missing: %q", args, r.stdout)
		}
	}
	r := runCLI(t, env, "", "sessions", "list")
	if lines := strings.Split(strings.TrimSpace(r.stdout), "\n"); len(lines) != 2 {
		t.Errorf("a title with a newline took %d lines:\n%s", len(lines)-1, r.stdout)
	}
}

// The file: a 1 MiB title with ESC, BEL and NUL is refused by
// `sessions import` as the window would refuse it, and nothing is stored.
func TestSessionsImportRefusesWhatTheWindowRefuses(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	doc := map[string]any{
		"format": "playchat-session", "version": 1, "exportedAt": "2026-01-01T00:00:00Z",
		"session":  map[string]any{"id": "x", "title": "\x1b]0;owned\x07\x00" + strings.Repeat("A", 1<<20), "model": "openai/gpt-4o-mini", "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
		"memories": []any{},
		"messages": []any{map[string]any{"id": 1, "role": "user", "content": "hi", "status": "complete", "createdAt": "2026-01-01T00:00:00Z"}},
	}
	data, _ := json.Marshal(doc)
	file := filepath.Join(t.TempDir(), "evil.json")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, env, "", "sessions", "import", file)
	if r.code != 1 || !strings.Contains(r.stderr, "session.title") || strings.ContainsAny(r.stderr, "\x1b\x07\x00") {
		t.Fatalf("import: exit %d, stderr %.300q", r.code, r.stderr)
	}
	if r := runCLI(t, env, "", "sessions", "list", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("a refused import left sessions: %s", r.stdout)
	}
}
