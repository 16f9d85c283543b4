package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/llm/llmtest"
)

// `ask --assistant` starts the chat from the assistant; --system and
// --temperature go over it and are stored with the chat, so the next
// `ask --session` sends them again.
func TestAskWithAssistantSystemAndTemperature(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := append(testEnv(t, srv), "UI_LANGUAGE=en")
	r := runCLI(t, env, "", "ask", "--assistant", "translate", "--temperature", "0.7", "おはよう")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rec := srv.Requests()[0]
	if len(rec.Messages) < 2 || !strings.Contains(rec.Messages[1].Content, "professional translator") {
		t.Fatalf("the assistant's system prompt was not sent: %+v", rec.Messages)
	}
	if rec.Temperature == nil || *rec.Temperature < 0.69 || *rec.Temperature > 0.71 {
		t.Fatalf("temperature = %v, want 0.7 (the flag over the assistant's 0.2)", rec.Temperature)
	}
	sid := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(r.stderr, "\n", 2)[0], "session:"))

	r = runCLI(t, env, "", "ask", "--session", sid, "--system", "Answer in haiku.", "next")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	rec = srv.Requests()[1]
	if rec.Messages[1].Content != "Answer in haiku." || rec.Temperature == nil {
		t.Fatalf("second turn: system %q temperature %v", rec.Messages[1].Content, rec.Temperature)
	}
	if r := runCLI(t, env, "", "ask", "--temperature", "hot", "x"); r.code != 2 {
		t.Fatalf("--temperature hot: exit %d", r.code)
	}
	if r := runCLI(t, env, "", "ask", "--assistant", "nobody", "x"); r.code != 1 || !strings.Contains(r.stderr, "no assistant") {
		t.Fatalf("unknown assistant: exit %d %s", r.code, r.stderr)
	}
}

func TestAssistantsListExportImport(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := append(testEnv(t, srv), "UI_LANGUAGE=ja")
	r := runCLI(t, env, "", "assistants", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "翻訳") || !strings.Contains(r.stdout, "コードレビュー") {
		t.Fatalf("list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	file := filepath.Join(t.TempDir(), "a.json")
	if r := runCLI(t, env, "", "assistants", "export", "-o", file, "翻訳"); r.code != 0 {
		t.Fatalf("export: %d %s", r.code, r.stderr)
	}
	data, _ := os.ReadFile(file)
	var f struct {
		Format     string           `json:"format"`
		Assistants []map[string]any `json:"assistants"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Format != "playchat-assistants" || len(f.Assistants) != 1 {
		t.Fatalf("export file: %v %s", err, data)
	}
	other := append(testEnv(t, srv), "UI_LANGUAGE=ja")
	if r := runCLI(t, other, "", "assistants", "import", file); r.code != 0 || !strings.Contains(r.stdout, "imported") {
		t.Fatalf("import: %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, other, "", "assistants", "list", "--json")
	var all []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &all); err != nil || len(all) != 4 {
		t.Fatalf("after import: %v, %d assistants", err, len(all))
	}
	if r := runCLI(t, other, "{}", "assistants", "import", "-"); r.code != 1 {
		t.Fatalf("a broken file: exit %d", r.code)
	}
}
