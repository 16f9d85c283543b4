package kb

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/layer"
	"playchat/backend/llm/llmtest"
)

// countingEmbedder records every Embed call.
type countingEmbedder struct {
	inner Embedder
	mu    sync.Mutex
	calls int
	// inputs by model
	inputs map[string][]string
}

func (c *countingEmbedder) Embed(ctx context.Context, model string, in []string) ([][]float32, error) {
	c.mu.Lock()
	c.calls++
	if c.inputs == nil {
		c.inputs = map[string][]string{}
	}
	c.inputs[model] = append(c.inputs[model], in...)
	c.mu.Unlock()
	return c.inner.Embed(ctx, model, in)
}

func (c *countingEmbedder) counts() (calls int, inputs map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	inputs = map[string]int{}
	for m, in := range c.inputs {
		inputs[m] = len(in)
	}
	return c.calls, inputs
}

// longDoc has sections enough to be split into several chunks.
func longDoc(marker string) string {
	var b strings.Builder
	b.WriteString("# 長い文書\n\n")
	for i := range 6 {
		b.WriteString("\n## 節" + string(rune('A'+i)) + "\n\n")
		b.WriteString(strings.Repeat("これは十分に長い段落の本文です。", 30))
		if i == 3 {
			b.WriteString(marker)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (f *fixture) chunkModels(t *testing.T) map[string]int {
	t.Helper()
	rows, err := f.db.Bun().Query(`SELECT embedding_model, embedding_dim, count(*) FROM local_knowledge_chunks GROUP BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var m string
		var dim, n int
		if err := rows.Scan(&m, &dim, &n); err != nil {
			t.Fatal(err)
		}
		if m != "" && dim != 256 {
			t.Errorf("model %s stored with dim %d, want 256", m, dim)
		}
		out[m] += n
	}
	return out
}

func TestEmbeddingsAreBatchedAndRedoneOnlyForChangedTextOrModel(t *testing.T) {
	client, _ := fakeEmbedder(t)
	emb := &countingEmbedder{inner: client}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "long.md"), longDoc("初版の記述。"))
	writeFile(t, filepath.Join(dir, "short.md"), "# 短い\n\n短い文書です。\n")
	f := newFixture(t, dir, withEmbedder(emb, fakeModel))
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := f.svc.EmbedPending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	chunks := f.chunkModels(t)[fakeModel]
	if n != chunks || chunks < 3 {
		t.Fatalf("embedded %d sections, index holds %d embedded (want ≥ 3, all)", n, chunks)
	}
	calls, _ := emb.counts()
	if calls != 1 {
		t.Errorf("%d sections took %d requests, want 1 batch", n, calls)
	}
	var docEmb int
	f.db.Bun().QueryRow(`SELECT count(*) FROM local_knowledge_docs WHERE embedding IS NOT NULL AND embedding_model = ? AND embedding_dim = 256`, fakeModel).Scan(&docEmb)
	if docEmb != 2 {
		t.Errorf("%d documents carry a document-level embedding, want 2", docEmb)
	}

	// A restart: the reconcile reads nothing and embeds nothing.
	f2 := &fixture{db: f.db, dir: dir, set: f.set}
	var err2 error
	f2.svc, err2 = New(Options{DB: f.db, Settings: f.set.get, Embedder: emb})
	if err2 != nil {
		t.Fatal(err2)
	}
	defer f2.svc.Close()
	rep, err := f2.svc.Reconcile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unchanged != 2 || rep.Indexed+rep.Touched != 0 {
		t.Errorf("restart reconcile = %+v, want 2 unchanged and nothing read", rep)
	}
	if n, _ := f2.svc.EmbedPending(ctx); n != 0 {
		t.Errorf("restart embedded %d sections, want 0", n)
	}
	if c, _ := emb.counts(); c != calls {
		t.Errorf("embedder called %d more times after a restart with nothing changed", c-calls)
	}

	// An edit to one section re-embeds that section only.
	writeFile(t, filepath.Join(dir, "long.md"), longDoc("改訂版の記述。"))
	if _, err := f2.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if n, _ := f2.svc.EmbedPending(ctx); n != 1 {
		t.Errorf("editing one section re-embedded %d sections, want 1", n)
	}
	_, before := emb.counts()

	// Another model re-embeds everything, under the new name.
	f.set.update(func(s *Settings) { s.EmbeddingModel = "openai/other-embed" })
	if n, _ := f2.svc.EmbedPending(ctx); n != chunks {
		t.Errorf("model change re-embedded %d sections, want all %d", n, chunks)
	}
	_, after := emb.counts()
	if after["openai/other-embed"] != chunks || after[fakeModel] != before[fakeModel] {
		t.Errorf("inputs by model before %v after %v", before, after)
	}
	if got := f.chunkModels(t); got["openai/other-embed"] != chunks {
		t.Errorf("sections by model = %v, want all %d on the new model", got, chunks)
	}
}

// failingEmbedder is an embedding API that is down.
type failingEmbedder struct{}

func (failingEmbedder) Embed(context.Context, string, []string) ([][]float32, error) {
	return nil, errors.New("connection refused")
}

func TestWithoutWorkingEmbeddingsRetrievalIsLexical(t *testing.T) {
	for name, opt := range map[string]fixtureOpt{
		"no model":    func(*Options, *Settings) {},
		"api is down": withEmbedder(failingEmbedder{}, fakeModel),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, "", opt)
			writeFile(t, filepath.Join(f.dir, "wifi.md"), "# 家のネットワーク\n\nWi-Fiのパスワードはルーターの裏に貼ってある。\n")
			writeFile(t, filepath.Join(f.dir, "other.md"), "# 買い物\n\n牛乳と卵を買う。\n")
			ctx := context.Background()
			if err := f.svc.Start(ctx); err != nil {
				t.Fatal(err)
			}
			eventually(t, 10*time.Second, "indexed", func() bool { return f.docCount(t) == 2 })
			if err := f.svc.WaitIdle(ctx); err != nil {
				t.Fatal(err)
			}
			if got := f.searchPaths(t, "ルーターのパスワードはどこ？", 3); len(got) == 0 || got[0] != "wifi.md" {
				t.Errorf("search = %v, want wifi.md first", got)
			}
			blocks, err := f.svc.Layer().Build(ctx, layer.Query{LatestUser: "Wi-Fiのパスワードを忘れた", Model: "ollama/llama3.1"})
			if err != nil || len(blocks) != 1 || !strings.Contains(blocks[0].Text, "ルーターの裏") {
				t.Errorf("layer = %+v, %v; want the wifi document", blocks, err)
			}
			if name == "api is down" {
				// The failed attempt is reported (the embedding loop runs
				// beside indexing, so wait for its verdict).
				eventually(t, 10*time.Second, "the embedding error in the status", func() bool {
					st, _ := f.svc.Status(ctx)
					return st.EmbeddingError != ""
				})
			} else if st, _ := f.svc.Status(ctx); st.EmbeddingError != "" {
				t.Errorf("status embedding error = %q with no model", st.EmbeddingError)
			}
		})
	}
}

func TestEmbeddingsFindADocumentWithNoWordInCommon(t *testing.T) {
	// An embedder that knows ネコ and キャット mean the same.
	client, _ := fakeEmbedder(t, llmtest.WithEmbedFunc(func(_, in string) []float32 {
		v := make([]float32, 256)
		if strings.Contains(in, "ネコ") || strings.Contains(in, "キャット") {
			v[0] = 1
		} else {
			v[1] = 1
		}
		return v
	}))
	f := newFixture(t, "", withEmbedder(client, fakeModel))
	writeFile(t, filepath.Join(f.dir, "pets.md"), "# ペット\n\nうちのネコは魚が好き。\n")
	writeFile(t, filepath.Join(f.dir, "car.md"), "# 車\n\nタイヤ交換の記録。\n")
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.EmbedPending(ctx); err != nil {
		t.Fatal(err)
	}
	text, err := f.svc.layerText(ctx, "キャットフードのおすすめは？", "openai/gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "Source: pets.md") || strings.Contains(text, "car.md") {
		t.Errorf("layer text = %q, want pets.md only (cosine 1 ≥ MinScore, no shared word)", text)
	}
	hits, _ := f.svc.Search(ctx, "キャット", 5)
	if len(hits) == 0 || hits[0].Path != "pets.md" || hits[0].Cosine < 0.99 {
		t.Errorf("hits = %+v, want pets.md with cosine 1", hits)
	}
}

// TestCorpusRetrievalWithTheFakeEmbedder prints hit@3 with embeddings from
// the fake server (hashed bag of characters, dim 256) fused with BM25.
func TestCorpusRetrievalWithTheFakeEmbedder(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes and embeds the corpus")
	}
	client, _ := fakeEmbedder(t)
	f, _ := indexCorpus(t, []lexicon{kagomeLexicon}, withEmbedder(client, fakeModel))
	if _, err := f.svc.EmbedPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, minScore := range []float64{0.5, 0.75} {
		f.set.update(func(s *Settings) { s.MinScore = minScore })
		s := scoreQuestions(t, f)
		t.Logf("kagome BM25 + fake embeddings (RRF), MinScore %.2f: %s", minScore, s)
		for _, m := range s.misses {
			t.Logf("    miss: %s", m)
		}
		if s.hit3 < 0.85 {
			t.Errorf("hit@3 with embeddings, MinScore %.2f = %.3f, want ≥ 0.85", minScore, s.hit3)
		}
	}
	f.set.update(func(s *Settings) { s.MinScore = 0.75 })
	hits := 0
	for _, q := range corpusQuestions {
		for _, d := range layerDocs(t, f, q.Q) {
			if contains(q.Answers, d) {
				hits++
				break
			}
		}
	}
	t.Logf("layer 3 with embeddings put an answering document in the context for %d/%d questions", hits, len(corpusQuestions))
	if float64(hits) < 0.9*float64(len(corpusQuestions)) {
		t.Errorf("layer hit rate %d/%d with embeddings, want ≥ 90%%", hits, len(corpusQuestions))
	}
	rep := evalRelevance(t, f)
	t.Logf("relevance evaluation, hybrid (fake embeddings, MinScore 0.75): %v", rep)
	for _, a := range rep.attached {
		t.Log("false attach: " + a)
	}
}
