package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/llm/llmtest"
	"playchat/backend/session"
)

type run struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, environ []string, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Environ: environ, Logger: slog.New(slog.DiscardHandler)})
	return run{code, out.String(), errb.String()}
}

func testEnv(t *testing.T, srv *llmtest.Server) []string {
	return []string{"PLAYCHAT_DATA_DIR=" + t.TempDir(), "OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake"}
}

type line struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}

func parseLines(t *testing.T, s string) []line {
	t.Helper()
	var ls []line
	for _, raw := range strings.Split(strings.TrimSpace(s), "\n") {
		var l line
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("not a JSON line: %q", raw)
		}
		ls = append(ls, l)
	}
	return ls
}

func TestAskJSONStreamsTheSameEventsAsTheWindow(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("やあ、こんにちは。", 4))
	env := testEnv(t, srv)

	r := runCLI(t, env, "", "ask", "--json", "こんにちは")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	ls := parseLines(t, r.stdout)
	if ls[0].Type != "session_id" || ls[len(ls)-1].Type != "done" {
		t.Fatalf("events = %+v", ls)
	}
	var text strings.Builder
	for _, l := range ls[1 : len(ls)-1] {
		if l.Type != "chunk" {
			t.Fatalf("unexpected event %+v", l)
		}
		text.WriteString(l.Value.(string))
	}
	if text.String() != "やあ、こんにちは。" || len(ls) != 6 {
		t.Fatalf("chunks = %q (%d lines)", text.String(), len(ls))
	}

	// --session continues it: the first exchange goes as history.
	sid := ls[0].Value.(string)
	r = runCLI(t, env, "", "ask", "--session", sid, "続けて")
	if r.code != 0 || !strings.Contains(r.stderr, "session: "+sid) || !strings.HasPrefix(r.stdout, "fake reply") {
		t.Fatalf("plain ask: %+v", r)
	}
	last := withoutClock(srv.ChatRequests()[1].Messages)
	if len(last) != 4 || last[1].Content != "こんにちは" || last[2].Content != "やあ、こんにちは。" {
		t.Fatalf("history not sent: %+v", last)
	}

	// sessions list shows it.
	r = runCLI(t, env, "", "sessions", "list", "--json")
	var rows []session.Summary
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 || rows[0].ID != sid || rows[0].Title != "こんにちは" {
		t.Fatalf("list = %s (%v)", r.stdout, err)
	}
}

func TestAskFailuresExitNonZeroWithTheError(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)

	// A real server answers the retry without tools the same way.
	notFound := llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`}
	srv.Enqueue(notFound, notFound)
	r := runCLI(t, env, "", "ask", "--json", "hi")
	ls := parseLines(t, r.stdout)
	if r.code == 0 || ls[len(ls)-1].Type != "error" || !strings.Contains(ls[len(ls)-1].Value.(string), "model not found") {
		t.Fatalf("400: %+v", r)
	}

	srv.Enqueue(llmtest.Response{Chunks: []string{"一", "二", "三"}, CutAfter: 2})
	r = runCLI(t, env, "", "ask", "切れる")
	if r.code == 0 || !strings.Contains(r.stderr, "playchat:") || r.stdout == "" {
		t.Fatalf("cut: %+v", r)
	}

	r = runCLI(t, append(env, "DEFAULT_MODEL="), "", "ask", "--json", "no model")
	if r.code == 0 || !strings.Contains(r.stdout, `"type":"error"`) {
		t.Fatalf("no model: %+v", r)
	}
	if r := runCLI(t, env, "", "ask", "--bogus"); r.code != 2 {
		t.Fatalf("bad flag exit = %d", r.code)
	}
}

func TestSessionsExportImportRoundTripAndBrokenFiles(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	r := runCLI(t, env, "", "ask", "--json", "エクスポートして")
	sid := parseLines(t, r.stdout)[0].Value.(string)

	file := filepath.Join(t.TempDir(), "s.json")
	if r := runCLI(t, env, "", "sessions", "export", sid, "-o", file); r.code != 0 {
		t.Fatalf("export: %+v", r)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("export file: %v %v", st, err)
	}
	r = runCLI(t, env, "", "sessions", "import", file)
	newID := strings.TrimSpace(r.stdout)
	if r.code != 0 || newID == "" || newID == sid {
		t.Fatalf("import: %+v", r)
	}
	a := runCLI(t, env, "", "sessions", "export", sid).stdout
	b := runCLI(t, env, "", "sessions", "export", newID).stdout
	var da, db map[string]any
	json.Unmarshal([]byte(a), &da)
	json.Unmarshal([]byte(b), &db)
	ma, _ := json.Marshal(da["messages"])
	mb, _ := json.Marshal(db["messages"])
	// Message ids differ; compare contents.
	if len(da["messages"].([]any)) != 2 || !strings.Contains(string(mb), "エクスポートして") || len(ma) == 0 {
		t.Fatalf("round trip differs:\n%s\n%s", ma, mb)
	}

	broken := filepath.Join(t.TempDir(), "broken.json")
	os.WriteFile(broken, []byte(strings.Replace(a, `"role": "user"`, `"role": "robot"`, 1)), 0o600)
	r = runCLI(t, env, "", "sessions", "import", broken)
	if r.code == 0 || !strings.Contains(r.stderr, `role "robot"`) {
		t.Fatalf("broken import: %+v", r)
	}
	var rows []session.Summary
	json.Unmarshal([]byte(runCLI(t, env, "", "sessions", "list", "--json").stdout), &rows)
	if len(rows) != 2 {
		t.Fatalf("sessions after broken import = %d, want 2", len(rows))
	}
}
