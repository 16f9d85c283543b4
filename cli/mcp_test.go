package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"playchat/internal/testcorpus"
)

// corpusDir is the real Japanese Markdown corpus (testcorpus.Dir).
func corpusDir(t *testing.T) string { return testcorpus.Dir(t) }

// mcpHome makes a bare home whose data dir (found from HOME alone) holds a
// knowledge base of real Japanese documents in the folder "vue".
func mcpHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	kbDir := filepath.Join(home, ".local", "share", "playchat", "knowledge_base", "vue")
	if err := os.MkdirAll(kbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(corpusDir(t), "vue-docs-ja", "src", "guide", "essentials", "*.md"))
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(kbDir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// mcpProcess is `playchat mcp ARGS` as this test binary re-executed (TestMain)
// with only HOME set, in a working directory that is not the data dir.
func mcpProcess(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^$", "--", "mcp"}, args...)...)
	cmd.Env = []string{"HOME=" + home, cliArgsEnv + "=1"}
	cmd.Dir = t.TempDir()
	cmd.Stderr = os.Stderr
	return cmd
}

func callJSON(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil && !r.IsError {
		b, _ := json.Marshal(r.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %s: %v", name, b, err)
		}
	}
	return r
}

type kbHits struct {
	Hits []struct{ Domain, Path, Title string } `json:"hits"`
}

func TestMCPOverStdioFromABareEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	home := mcpHome(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)

	// Read-only: the writing tools are not offered, and calling one fails.
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: mcpProcess(t, home)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "playchat" {
		t.Errorf("server name %q", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name == "append_learning" || tl.Name == "write_note" || tl.Name == "list_notes" {
			t.Errorf("read-only server offers %s", tl.Name)
		}
	}
	var hits kbHits
	callJSON(t, cs, "query_kb", map[string]any{"query": "算出プロパティ", "limit": 3}, &hits)
	if len(hits.Hits) == 0 || hits.Hits[0].Domain != "vue" || hits.Hits[0].Path != "computed.md" {
		t.Fatalf("query_kb: %+v", hits)
	}
	var doc struct{ Title, Content string }
	if r := callJSON(t, cs, "read_document", map[string]any{"domain": hits.Hits[0].Domain, "path": hits.Hits[0].Path}, &doc); r.IsError ||
		doc.Title != hits.Hits[0].Title || !strings.Contains(doc.Content, "算出プロパティ") {
		t.Fatalf("read_document on the hit: %+v", doc)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "append_learning", Arguments: map[string]any{
		"domain": "vue", "content": "x", "source_type": "test", "confidence": 1}}); err == nil {
		t.Error("append_learning worked without --allow-write")
	}
	cs.Close()

	// --allow-write: append_learning, then query_kb finds it.
	cs, err = client.Connect(ctx, &mcp.CommandTransport{Command: mcpProcess(t, home, "--allow-write")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var l struct{ ID, Domain, Path string }
	if r := callJSON(t, cs, "append_learning", map[string]any{"domain": "vue", "title": "学び",
		"content": "コンポーネントの名前にはカモノハシ記法を使う。", "source_type": "conversation", "confidence": 0.7,
		"derived_from": []string{"vue/component-basics.md"}}, &l); r.IsError {
		t.Fatalf("append_learning: %+v", r.Content)
	}
	callJSON(t, cs, "query_kb", map[string]any{"query": "カモノハシ記法"}, &hits)
	if len(hits.Hits) == 0 || hits.Hits[0].Domain != l.Domain || hits.Hits[0].Path != l.Path {
		t.Fatalf("query_kb after append_learning: %+v, want %+v", hits, l)
	}
	r := callJSON(t, cs, "read_document", map[string]any{"domain": "vue", "path": "../../../../.bashrc"}, nil)
	if !r.IsError || !strings.HasPrefix(r.Content[0].(*mcp.TextContent).Text, "[interop.badPath]") {
		t.Errorf("a path attack: %+v", r.Content)
	}
}

func TestMCPOverHTTPStandalone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	home := mcpHome(t)
	cmd := mcpProcess(t, home, "--http", "127.0.0.1:0")
	cmd.Env = append(cmd.Env, MCPTokenEnv+"=tok-123")
	cmd.Stderr = nil
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	url := ""
	for sc.Scan() {
		if _, u, ok := strings.Cut(sc.Text(), "listening on "); ok {
			url = u
			break
		}
	}
	if url == "" {
		t.Fatal("no listening line on stderr")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d", resp.StatusCode)
	}
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: &http.Client{Transport: bearer("tok-123")}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var hits kbHits
	callJSON(t, cs, "query_kb", map[string]any{"query": "ウォッチャー"}, &hits)
	if len(hits.Hits) == 0 || hits.Hits[0].Domain != "vue" {
		t.Errorf("query_kb over HTTP: %+v", hits)
	}
}

func TestMCPRefusesANonLoopbackAddress(t *testing.T) {
	var out, errb strings.Builder
	code := Run(context.Background(), []string{"mcp", "--http", "0.0.0.0:8765"}, Env{Stdout: &out, Stderr: &errb,
		Environ: []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}})
	if code != 2 || !strings.Contains(errb.String(), "127.0.0.1") || out.Len() != 0 {
		t.Errorf("exit %d, stderr %q, stdout %q", code, errb.String(), out.String())
	}
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
