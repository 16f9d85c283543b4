package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/backend/llm/llmtest"
	"playchat/backend/mcpclient"
)

// cliMCPEnv makes the test binary, started again, run a one-tool MCP
// server over stdio (TestMain).
const cliMCPEnv = "CLI_TEST_MCP"

func runFakeMCP() {
	s := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
	type in struct {
		City string `json:"city"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "weather.today", Description: "today's weather"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.City + ": 晴れ"}}}, nil, nil
		})
	_ = s.Run(context.Background(), &mcp.StdioTransport{})
}

func TestToolsImportListAndAskUseTheUsersMCPServers(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	exe, _ := os.Executable()
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"weather": map[string]any{"command": exe, "args": []string{"-test.run=^$"}, "env": map[string]string{cliMCPEnv: "1", "API_KEY": "sk-hidden"}},
	}})
	file := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	os.WriteFile(file, cfg, 0o600)
	if r := runCLI(t, env, "", "tools", "import", file); r.code != 0 || r.stdout != "added weather\n" {
		t.Fatalf("import: %+v", r)
	}
	r := runCLI(t, env, "", "tools", "list", "--json")
	var sts []mcpclient.Status
	if err := json.Unmarshal([]byte(r.stdout), &sts); err != nil || r.code != 0 || len(sts) != 1 ||
		sts[0].State != "ready" || len(sts[0].Tools) != 1 || sts[0].Tools[0].Name != "weather.today" {
		t.Fatalf("list: %+v (%v)", r, err)
	}
	if strings.Contains(r.stdout, "sk-hidden") {
		t.Fatal("the secret was printed")
	}
	model := sts[0].Tools[0].ModelName
	if r := runCLI(t, env, "", "tools", "list"); r.code != 0 || !strings.Contains(r.stdout, "ready, 1 tools") || !strings.Contains(r.stdout, model) {
		t.Fatalf("list text: %+v", r)
	}
	srv.Enqueue(llmtest.Response{ToolCallChunks: []string{
		`[{"index":0,"id":"c1","type":"function","function":{"name":"` + model + `","arguments":"{\"city\":\"東京\"}"}}]`}},
		llmtest.Text("東京は晴れ。", 1))
	if r := runCLI(t, env, "", "ask", "天気は？"); r.code != 0 || !strings.Contains(r.stdout, "東京は晴れ。") {
		t.Fatalf("ask: %+v", r)
	}
	reqs := srv.ChatRequests()
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Content != "東京: 晴れ" {
		t.Fatalf("tool result = %+v", last)
	}
}

func TestToolsImportRefusesBrokenEntriesAndChangesNothing(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	file := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(file, []byte(`{"servers":{"ok":{"type":"stdio","command":"node"},"bad":{"type":"stdio"}}}`), 0o600)
	r := runCLI(t, env, "", "tools", "import", file)
	if r.code != 1 || !strings.Contains(r.stderr, "refused bad: a stdio server needs a command") {
		t.Fatalf("import: %+v", r)
	}
	if r := runCLI(t, env, "", "tools", "list", "--no-start", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("list after refused import: %+v", r)
	}
	if r := runCLI(t, env, "", "tools", "import", "--skip-refused", file); r.code != 0 || r.stdout != "added ok\n" {
		t.Fatalf("skip refused: %+v", r)
	}
}
