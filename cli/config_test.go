package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/llm/llmtest"
)

// issue 8: OPENAI_BASE_URL=localhost:41813 (no scheme) used to be dropped
// with a warning in the log, and the prompt and key went to api.openai.com.
// The CLI stops with a message naming the key, the value and where it was
// set; nothing is sent.
func TestInvalidSettingStopsTheCommandWithAClearMessage(t *testing.T) {
	srv := llmtest.NewServer(t)
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir, "DEFAULT_MODEL=openai/fake", "OPENAI_API_KEY=sk-test-SECRET-0123456789",
		"OPENAI_BASE_URL=localhost:41813"}
	r := runCLI(t, env, "", "ask", "hello")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and nothing", r.code, r.stdout)
	}
	for _, want := range []string{"invalid configuration", "OPENAI_BASE_URL", `"localhost:41813"`, "from the environment", "http://"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "SECRET") {
		t.Errorf("stderr shows the API key:\n%s", r.stderr)
	}

	// The same from .env, for every command that opens the data dir.
	dir2 := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir2, ".env"), []byte("OLLAMA_API_BASE=localhost:11434\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env2 := []string{"PLAYCHAT_DATA_DIR=" + dir2, "OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake"}
	for _, args := range [][]string{{"ask", "hi"}, {"sessions", "list"}, {"kb", "status"}} {
		r := runCLI(t, env2, "", args...)
		if r.code != 1 || !strings.Contains(r.stderr, "OLLAMA_API_BASE") || !strings.Contains(r.stderr, filepath.Join(dir2, ".env")) {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming OLLAMA_API_BASE and the .env file", args, r.code, r.stderr)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached a server with an invalid setting", n)
	}
}

// issue 8 fault 11: the CLI has no model picker; its no-model error says
// what a terminal user can do.
func TestNoModelErrorNamesTheCLIWays(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := append(testEnv(t, srv), "DEFAULT_MODEL=")
	r := runCLI(t, env, "", "ask", "hello")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	for _, want := range []string{"--model", "DEFAULT_MODEL", ".env"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	if strings.Contains(r.stderr, "picker") {
		t.Errorf("stderr %q talks about the window's model picker", r.stderr)
	}
	r = runCLI(t, env, "", "ask", "--json", "hello")
	ls := parseLines(t, r.stdout)
	last := ls[len(ls)-1]
	if last.Type != "error" || !strings.Contains(last.Value.(string), "--model") || !strings.Contains(r.stdout, `"code":"chat.noModel"`) {
		t.Errorf("--json: %s; want an error line with the CLI wording and code chat.noModel", r.stdout)
	}
}
