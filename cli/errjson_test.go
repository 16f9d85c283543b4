package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/llm/llmtest"
)

func TestAskJSONErrorsCarryTheEnglishTextAndTheCode(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	r := runCLI(t, append(env, "DEFAULT_MODEL="), "", "ask", "--json", "no model")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	// The CLI words chat.noModel for the terminal (--model, DEFAULT_MODEL, .env).
	want := map[string]any{"type": "error", "code": string(apperr.ChatNoModel),
		"value": "no model is configured: pass --model provider/model (e.g. --model openai/gpt-4o-mini), or set DEFAULT_MODEL in "}
	if v, _ := got["value"].(string); len(got) != len(want) || got["type"] != want["type"] || got["code"] != want["code"] || !strings.HasPrefix(v, want["value"].(string)) {
		t.Errorf("error line %v, want %v", got, want)
	}
	if r.code != 1 {
		t.Errorf("exit %d", r.code)
	}

	notFound := llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`}
	srv.Enqueue(notFound, notFound)
	r = runCLI(t, env, "", "ask", "--json", "hi")
	lines = strings.Split(strings.TrimSpace(r.stdout), "\n")
	got = nil
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &got)
	if got["code"] != string(apperr.LLMProviderStatus) || got["value"] != "provider returned 400: model not found" {
		t.Errorf("a provider's refusal as %v", got)
	}
}

func TestJSONErrorOfAnUncodedErrorHasAnEmptyCode(t *testing.T) {
	l := jsonError(errors.New("disk full"))
	if l.Type != "error" || l.Value != "disk full" || l.Code != "" {
		t.Errorf("%+v", l)
	}
}

func TestAskPrintsTheEnglishTextOfAnErrorEvent(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	srv.Enqueue(llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`},
		llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`})
	r := runCLI(t, env, "", "ask", "hi")
	if !strings.Contains(r.stderr, "playchat: provider returned 400: model not found\n") {
		t.Errorf("stderr = %q", r.stderr)
	}
}

// Issue 22: every failure in --json mode is a JSON error event — also one
// before the turn starts: a message refused (too long on stdin, empty, too
// long for the model) and a bad flag.
func TestAskJSONReportsEveryRefusalAsAnErrorEvent(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	for _, tc := range []struct {
		name  string
		stdin string
		args  []string
		code  apperr.Code
		exit  int
	}{
		{"too long on stdin", strings.Repeat("x", 1<<20+10), []string{"ask", "--json", "-"}, apperr.ChatMessageTooLong, 1},
		{"empty", "", []string{"ask", "--json", "-"}, apperr.ChatEmptyMessage, 1},
		{"too long for the model", "", []string{"ask", "--json", strings.Repeat("長い文章です。", 4000)}, apperr.ChatTooLongForModel, 1},
		{"a bad flag", "", []string{"ask", "--json", "--bogus", "hi"}, "", 2},
	} {
		r := runCLI(t, append(env, "CONTEXT_WINDOW_TOKENS=4000"), tc.stdin, tc.args...)
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		var got map[string]any
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil || got["type"] != "error" {
			t.Errorf("%s: stdout %q is not a JSON error event (%v)", tc.name, r.stdout, err)
			continue
		}
		if got["code"] != string(tc.code) || r.code != tc.exit {
			t.Errorf("%s: event %v, exit %d; want code %q, exit %d", tc.name, got, r.code, tc.code, tc.exit)
		}
	}
}

// TestEveryJSONCommandReportsItsFailureAsAJSONEvent: not only `ask --json`
// (issue 22, item 7) — a usage error, a flag error or a failure of any
// command run with --json is one JSON error line on stdout, with the exit
// code of the plain mode (2 for usage, 1 otherwise), and nothing else on
// stdout.
func TestEveryJSONCommandReportsItsFailureAsAJSONEvent(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	for _, tc := range []struct {
		args  []string
		code  int
		value string
	}{
		{[]string{"kb", "search", "--json", ""}, 2, "kb search needs a QUERY"},
		{[]string{"kb", "search", "--json", "--limit", "0", "x"}, 2, "--limit must be between 1 and 100"},
		{[]string{"sessions", "search", "--json"}, 2, "sessions search needs a QUERY"},
		{[]string{"reminders", "list", "--json", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"sessions", "list", "--json", "--folder", "no such folder"}, 1, "no such folder"},
		{[]string{"knowledge", "list", "--json", "extra"}, 2, ""},
	} {
		r := runCLI(t, env, "", tc.args...)
		var got errorLine
		if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &got); err != nil {
			t.Errorf("%v: stdout %q is not one JSON line: %v (stderr %q)", tc.args, r.stdout, err, r.stderr)
			continue
		}
		if got.Type != "error" || !strings.Contains(got.Value, tc.value) || got.Value == "" {
			t.Errorf("%v: error line %+v, want the value to hold %q", tc.args, got, tc.value)
		}
		if r.code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.args, r.code, tc.code)
		}
	}
	// Without --json the same failure stays a line on stderr.
	r := runCLI(t, env, "", "kb", "search", "")
	if r.stdout != "" || !strings.Contains(r.stderr, "playchat: kb search needs a QUERY") || r.code != 2 {
		t.Errorf("plain mode: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}
