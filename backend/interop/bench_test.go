package interop

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sashabaranov/go-openai"

	"playchat/backend/core"
	"playchat/backend/llm/llmtest"
	"playchat/internal/testcorpus"
	"playchat/internal/testnet"
)

// benchDocs is how many documents BenchmarkQueryKB indexes: copies of the
// corpus under new names (make bench passes -interop.docs=45000).
var benchDocs = flag.Int("interop.docs", 300, "documents in the knowledge base of BenchmarkQueryKB")

// benchQueries are real questions about the corpus.
var benchQueries = []string{"所有権と借用", "算出プロパティ", "ハッシュマップ", "ライフサイクルフック", "イベント修飾子",
	"ベクタに値を追加する", "v-for のキー", "文字列のスライス", "ウォッチャーの使い方", "参照と借用のルール"}

// BenchmarkQueryKB measures query_kb at -interop.docs documents: directly
// through kb.Search, through the tool layer, through the MCP server (the
// in-memory transport: the protocol's encoding without a pipe; and over
// streamable HTTP on 127.0.0.1 with the token), and a playchat/ alias turn
// through the OpenAI-compatible API (context building with layer 3, against
// a fake model that answers at once). It reports p50 and p95 per query in
// milliseconds.
func BenchmarkQueryKB(b *testing.B) {
	ctx := context.Background()
	data := b.TempDir()
	kbDir := filepath.Join(data, "knowledge_base")
	testcorpus.Copies(b, kbDir, *benchDocs)
	fake := llmtest.NewServer(b, llmtest.WithModels("fake-chat"), llmtest.WithReply("ok"))
	c, err := core.Open(ctx, core.Options{DataDir: data, Environ: []string{"KNOWLEDGE_BASE_DIR=" + kbDir,
		"OPENAI_BASE_URL=" + fake.URL, "DEFAULT_MODEL=openai/fake-chat", "AUTO_TAGS=false",
		"OLLAMA_API_BASE=http://127.0.0.1:9", "LM_STUDIO_API_BASE=http://127.0.0.1:9/v1"},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	rep, err := c.KB.Reconcile(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("indexed %d documents in %v", rep.Indexed, time.Since(start).Round(time.Millisecond))
	s, err := FromCore(c, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := NewMCP(s, MCPOptions{}).Server().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	serving := NewServing(func() *MCP { return NewMCP(s, MCPOptions{}) }, nil)
	defer serving.Close()
	if err := serving.Apply(true, testnet.FreePort(b), "bench-token-0123456789"); err != nil {
		b.Fatal(err)
	}
	hs, err := mcp.NewClient(&mcp.Implementation{Name: "bench-http"}, nil).Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: serving.Status().URL, MaxRetries: -1,
			HTTPClient: BearerClient("bench-token-0123456789")}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer hs.Close()
	api := httptest.NewServer(c.APIServer(core.APIServerOptions{Token: func() string { return "bench-token-0123456789" }}))
	defer api.Close()
	cfg := openai.DefaultConfig("bench-token-0123456789")
	cfg.BaseURL = api.URL + "/v1"
	oc := openai.NewClientWithConfig(cfg)
	call := func(cs *mcp.ClientSession, q string) error {
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "query_kb", Arguments: map[string]any{"query": q, "limit": 10}})
		if err == nil && r.IsError {
			err = fmt.Errorf("%v", r.Content)
		}
		return err
	}
	ways := []struct {
		name string
		run  func(q string) error
	}{
		{"direct", func(q string) error { _, err := c.KB.Search(ctx, q, 10); return err }},
		{"tool", func(q string) error { _, err := s.QueryKB(ctx, QueryKBInput{Query: q, Limit: 10}); return err }},
		{"mcp", func(q string) error { return call(cs, q) }},
		{"mcp-http", func(q string) error { return call(hs, q) }},
		{"api-alias-turn", func(q string) error {
			_, err := oc.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: "playchat/openai/fake-chat",
				Messages: []openai.ChatCompletionMessage{{Role: "user", Content: q}}})
			return err
		}},
	}
	for _, w := range ways {
		b.Run(fmt.Sprintf("%s/docs=%d", w.name, *benchDocs), func(b *testing.B) {
			var lat []time.Duration
			for i := 0; b.Loop(); i++ {
				t0 := time.Now()
				if err := w.run(benchQueries[i%len(benchQueries)]); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
			b.ReportMetric(ms(lat[min(len(lat)-1, len(lat)*95/100)]), "p95-ms")
		})
	}
}
