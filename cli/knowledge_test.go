package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/knowledge"
	"playchat/backend/llm/llmtest"
	"playchat/backend/websearch/websearchtest"
)

// `ask` with a model that searches leaves an entry; knowledge list, show
// and delete read and remove it (row and Markdown file).
func TestKnowledgeListShowAndDelete(t *testing.T) {
	srv := llmtest.NewServer(t)
	fake := websearchtest.NewServer(t)
	env := append(testEnv(t, srv), "SEARXNG_URL="+fake.URL)
	srv.Enqueue(llmtest.Response{ToolCallChunks: []string{
		`[{"index":0,"id":"c1","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"富士山 標高\"}"}}]`}},
		llmtest.Response{Reply: "# 富士山の標高\n\n## Key points\n- 3776 m [1]\n\n## Sources\n- [1]\n"},
		llmtest.Text("3776 m です。", 2))
	if r := runCLI(t, env, "", "ask", "富士山の高さは？"); r.code != 0 || !strings.Contains(r.stdout, "3776 m です。") {
		t.Fatalf("ask: %+v", r)
	}

	r := runCLI(t, env, "", "knowledge", "list", "--json")
	var es []knowledge.Entry
	if err := json.Unmarshal([]byte(r.stdout), &es); err != nil || r.code != 0 || len(es) != 1 ||
		es[0].Heading != "富士山の標高" || es[0].Query != "富士山 標高" || es[0].Provider != "searxng" {
		t.Fatalf("list --json: %+v, %v", r, err)
	}
	if r = runCLI(t, env, "", "knowledge", "list"); r.code != 0 || !strings.Contains(r.stdout, "富士山の標高") {
		t.Fatalf("list: %+v", r)
	}
	r = runCLI(t, env, "", "knowledge", "show", "1")
	if r.code != 0 || !strings.Contains(r.stdout, "# [1] 富士山の標高") || !strings.Contains(r.stdout, "- 3776 m [1]") ||
		!strings.Contains(r.stdout, "https://example.com/overview?q=") {
		t.Fatalf("show: %+v", r)
	}
	file := filepath.Join(strings.TrimPrefix(env[0], "PLAYCHAT_DATA_DIR="), "knowledge_base", "web_search", "knowledge-1.md")
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("entry file: %v", err)
	}
	if r = runCLI(t, env, "", "knowledge", "delete", "1"); r.code != 0 || !strings.HasPrefix(r.stdout, "deleted: [1]") {
		t.Fatalf("delete: %+v", r)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the file is still there: %v", err)
	}
	if r = runCLI(t, env, "", "knowledge", "show", "1"); r.code != 1 || !strings.Contains(r.stderr, "learned knowledge entry 1 does not exist") {
		t.Errorf("show deleted: %+v", r)
	}
	if r = runCLI(t, env, "", "knowledge", "show", "x"); r.code != 2 {
		t.Errorf("bad id: %+v", r)
	}
}
