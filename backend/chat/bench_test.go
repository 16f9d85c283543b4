package chat_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/uptrace/bun"

	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/internal/testcorpus"
)

func benchCore(b *testing.B, srv *llmtest.Server) *core.Core {
	b.Helper()
	c, err := core.Open(context.Background(), core.Options{
		DataDir: b.TempDir(), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model",
			// Keep the seeded sessions as they are during the benchmark.
			"MEMORY_SUMMARIZE_THRESHOLD=1000000"},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

// BenchmarkTimeToFirstChunk measures a turn from Start to its first chunk
// event against a fake server whose first byte comes after 300 ms, and, in
// the same run, the server's own time to first byte over raw HTTP. The
// difference is what playchat adds before the reply starts to show.
func BenchmarkTimeToFirstChunk(b *testing.B) {
	const ttfb = 300 * time.Millisecond
	srv := llmtest.NewServer(b, llmtest.WithReply("最初の一文字まで"), llmtest.WithLatency(ttfb, 0))
	c := benchCore(b, srv)
	ctx := context.Background()
	sess, _ := c.DB.CreateSession(ctx, "bench", "openai/fake-model")

	var turnTotal, rawTotal time.Duration
	for i := 0; i < b.N; i++ {
		start := time.Now()
		first := make(chan time.Time, 1)
		em := event.EmitterFunc(func(e event.Event) {
			if e.Type == event.Chunk {
				select {
				case first <- time.Now():
				default:
				}
			}
		})
		t, err := c.Chat.Start(ctx, chat.TurnRequest{SessionID: sess.ID, Text: fmt.Sprint("質問 ", i)}, em)
		if err != nil {
			b.Fatal(err)
		}
		t.Wait()
		turnTotal += (<-first).Sub(start)

		body := `{"model":"x","stream":true,"messages":[{"role":"user","content":"hi"}]}`
		start = time.Now()
		resp, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		buf := make([]byte, 1)
		resp.Body.Read(buf)
		rawTotal += time.Since(start)
		resp.Body.Close()
	}
	b.ReportMetric(float64(turnTotal.Microseconds())/float64(b.N)/1000, "ttfc-ms")
	b.ReportMetric(float64(rawTotal.Microseconds())/float64(b.N)/1000, "server-ttfb-ms")
	b.ReportMetric(float64((turnTotal-rawTotal).Microseconds())/float64(b.N)/1000, "overhead-ms")
	b.ReportMetric(0, "ns/op")
}

// seedLongSession writes a session of total messages (one branch,
// "メッセージ N: …"), the oldest of which are archived into memories (each
// covering an equal share), leaving active messages active.
func seedLongSession(b testing.TB, db *store.DB, total, memories, active int) string {
	b.Helper()
	ctx := context.Background()
	sess, _ := db.CreateSession(ctx, "long", "openai/fake-model")
	err := db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		archived := total - active
		per := archived / max(memories, 1)
		t0 := time.Now().UTC().Add(-time.Duration(total) * time.Minute)
		var memID, prev int64
		for i := 0; i < total; i++ {
			if i < archived && i%per == 0 && int(memID) < memories*1000 {
				mem := store.Memory{SessionID: sess.ID, Summary: strings.Repeat("- 要約された事実 fact\n", 6), MessageCount: per, CreatedAt: t0}
				if _, err := tx.NewInsert().Model(&mem).Exec(ctx); err != nil {
					return err
				}
				memID = mem.ID
			}
			role := store.RoleUser
			if i%2 == 1 {
				role = store.RoleAssistant
			}
			m := store.Message{SessionID: sess.ID, Role: role, Status: store.StatusComplete,
				Content:   fmt.Sprintf("メッセージ %d: %s", i, strings.Repeat("日本語と English の混ざった文。", 8)),
				CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
			if i < archived {
				at := m.CreatedAt
				m.ArchivedAt, m.MemoryID = &at, &memID
			}
			if prev != 0 { // one branch, as the store writes a conversation
				parent := prev
				m.ParentID = &parent
			}
			if _, err := tx.NewInsert().Model(&m).Exec(ctx); err != nil {
				return err
			}
			prev = m.ID
		}
		_, err := tx.NewUpdate().Table("sessions").Set("active_leaf_id = ?", prev).Where("id = ?", sess.ID).Exec(ctx)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return sess.ID
}

// turnKBDocs is how many documents the knowledge base of
// BenchmarkTurnOverhead holds: copies of the corpus (testcorpus.Copies),
// indexed once per run before any turn is timed (about a minute at 45,000
// on a 2-core machine; pass e.g. -chat.kbdocs=2000 for a quick run, 0 for
// none).
var turnKBDocs = flag.Int("chat.kbdocs", 45000, "documents in the knowledge base of BenchmarkTurnOverhead")

// turnDataDir, when set, is the data dir BenchmarkTurnOverhead opens
// instead of a new one: its knowledge base is written and indexed once
// and only checked on later runs, so a profile of the turns is not
// mostly the index (go test -bench TurnOverhead -cpuprofile … -args
// -chat.datadir=/tmp/turnbench).
var turnDataDir = flag.String("chat.datadir", "", "data dir of BenchmarkTurnOverhead, kept between runs")

// turnOverheadCore opens the core BenchmarkTurnOverhead's turns run in,
// with -chat.kbdocs documents indexed in its knowledge base.
func turnOverheadCore(b *testing.B, srv *llmtest.Server) *core.Core {
	b.Helper()
	data := *turnDataDir
	if data == "" {
		data = b.TempDir()
	}
	kbDir := filepath.Join(data, "knowledge_base")
	if _, err := os.Stat(kbDir); *turnKBDocs > 0 && err != nil {
		testcorpus.Copies(b, kbDir, *turnKBDocs)
	}
	c, err := core.Open(context.Background(), core.Options{
		DataDir: data, Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model", "KNOWLEDGE_BASE_DIR=" + kbDir,
			"OLLAMA_API_BASE=http://127.0.0.1:9", "LM_STUDIO_API_BASE=http://127.0.0.1:9/v1",
			// Keep the seeded sessions as they are during the benchmark.
			"MEMORY_SUMMARIZE_THRESHOLD=1000000"},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	start := time.Now()
	rep, err := c.KB.Reconcile(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("knowledge base: indexed %d documents in %v", rep.Indexed, time.Since(start).Round(time.Millisecond))
	// The index's writes leave the log long: folded into the database
	// here, so no turn pays for the checkpoint.
	if _, err := c.DB.Bun().ExecContext(context.Background(), "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkTurnOverhead runs whole turns against a zero-latency fake server
// in a session of 10,000 messages and 200 memories, with -chat.kbdocs
// documents (45,000) in the knowledge base: what it measures is playchat's
// own work per turn (loading history and memories, counting tokens, the
// context layers with the knowledge-base query, building the context, the
// message writes, the api_logs write) plus a loopback HTTP exchange.
// Targets (issue 29): at most 5 ms with 20 active messages, 15 ms with
// 2,000. Two kinds of turn are timed. "previewed": the question was asked
// before with the index unchanged — what a sent draft is, as the context
// meter previewed it a moment before — so the knowledge base's BM25
// ranking is kept (kb's rankCache) and the turn pays for the rest.
// "fresh": every turn asks one of freshQuestions (more than the cache
// holds, in turn), so each ranks thousands of sections again.
// scripts/bench.sh reads the "20-active" and "2000-active" rows of each.
func BenchmarkTurnOverhead(b *testing.B) {
	srv := llmtest.NewServer(b, llmtest.WithReply("ok"), llmtest.WithChunks(1))
	c := turnOverheadCore(b, srv) // one core, its knowledge base indexed once
	sessions := map[int]string{}
	for _, tc := range []struct {
		name   string
		active int
		fresh  bool
	}{
		{"previewed-10k-msgs-200-mems-20-active", 20, false},
		{"previewed-10k-msgs-200-mems-2000-active", 2000, false},
		{"fresh-10k-msgs-200-mems-20-active", 20, true},
		{"fresh-10k-msgs-200-mems-2000-active", 2000, true},
	} {
		b.Run(fmt.Sprintf("%s-%d-docs", tc.name, *turnKBDocs), func(b *testing.B) {
			sid, ok := sessions[tc.active]
			if !ok {
				sid = seedLongSession(b, c.DB, 10000, 200, tc.active)
				sessions[tc.active] = sid
			}
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				text := "次の質問"
				if tc.fresh {
					text = freshQuestions[i%len(freshQuestions)]
				}
				t, err := c.Chat.Start(ctx, chat.TurnRequest{SessionID: sid, Text: text}, event.Discard)
				if err != nil {
					b.Fatal(err)
				}
				if r := t.Wait(); r.Err != nil {
					b.Fatal(r.Err)
				}
				b.StopTimer()
				archiveOldestActive(b, c.DB, sid, 2)
				b.StartTimer()
			}
		})
	}
}

// archiveOldestActive archives the session's n oldest active messages into
// its newest memory, as the memory summariser does once a chat passes its
// threshold: BenchmarkTurnOverhead's turns each add a question and a reply,
// and without it the "20-active" chat held 20 + 2·b.N active messages by
// its last turn (1,220 at -benchtime 600x), so the figure moved with b.N.
func archiveOldestActive(b *testing.B, db *store.DB, sessionID string, n int) {
	b.Helper()
	_, err := db.Bun().ExecContext(context.Background(), `UPDATE messages
		SET archived_at = created_at, memory_id = (SELECT max(id) FROM memories WHERE session_id = ?)
		WHERE id IN (SELECT id FROM messages WHERE session_id = ? AND archived_at IS NULL ORDER BY id LIMIT ?)`,
		sessionID, sessionID, n)
	if err != nil {
		b.Fatal(err)
	}
}

// freshQuestions are the questions of BenchmarkTurnOverhead's "fresh"
// turns: ordinary questions about the corpus's subjects (Vue, Rust), each
// holding words found in hundreds to tens of thousands of its sections.
var freshQuestions = []string{
	"次の質問", "所有権とは何ですか", "借用チェッカーは何を調べますか", "ライフタイムの注釈の書き方",
	"算出プロパティとメソッドの違い", "コンポーネントの props の渡し方", "v-if と v-show の使い分け",
	"トレイトオブジェクトを使う場面", "エラー処理で ? 演算子を使うには", "イテレータとクロージャの関係",
	"スマートポインタの Box とは", "並行処理でスレッドを作る方法", "ウォッチャーはいつ使いますか",
	"テンプレート構文の基本", "リアクティビティの仕組み", "ジェネリクスの型引数", "パターンマッチの書き方",
	"モジュールとクレートの違い", "テストの書き方を教えて", "スロットでコンテンツを渡す",
	"ライフサイクルフックの順番", "列挙型と match 式", "ベクタに要素を追加する", "文字列のスライス",
}

// BenchmarkChunkRelay measures how many chunks a second go from the stream
// to the event sink: each turn streams a reply the fake server sends as
// 5,000 text deltas with no delay, and every Chunk event the sink receives
// is counted (a turn that relays fewer, or other text, fails the run). In
// the same run, between turns, the same stream is read by a bare go-openai
// client and no playchat code: "floor-chunks/s" is the fake server plus
// HTTP plus go-openai's parsing, the most any relay could reach here, and
// "of-floor" the relay's share of it. A turn is timed from Start to its
// end, so its own setup and saving (a few ms) count against the relay.
// ns/op is one turn (the floor reads are not timed).
func BenchmarkChunkRelay(b *testing.B) {
	const n = 5000
	reply := strings.Repeat("あ", n)
	srv := llmtest.NewServer(b, llmtest.WithReply(reply), llmtest.WithChunks(n))
	c := benchCore(b, srv)
	ctx := context.Background()
	oc := openai.NewClientWithConfig(func() openai.ClientConfig {
		cfg := openai.DefaultConfig("bench")
		cfg.BaseURL = srv.URL
		return cfg
	}())
	var text strings.Builder
	turn := func() int {
		chunks := 0
		text.Reset()
		t, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "stream"}, event.EmitterFunc(func(e event.Event) {
			if e.Type == event.Chunk {
				chunks++
				text.WriteString(e.Value.(string))
			}
		}))
		if err != nil {
			b.Fatal(err)
		}
		if r := t.Wait(); r.Err != nil {
			b.Fatal(r.Err)
		}
		if chunks != n || text.String() != reply {
			b.Fatalf("relayed %d chunks (%d bytes), want %d (%d bytes)", chunks, text.Len(), n, len(reply))
		}
		return chunks
	}
	floor := func() int {
		st, err := oc.CreateChatCompletionStream(ctx, openai.ChatCompletionRequest{Model: "fake-model", Stream: true,
			StreamOptions: &openai.StreamOptions{IncludeUsage: true},
			Messages:      []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "stream"}}})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		chunks := 0
		for {
			r, err := st.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			for _, ch := range r.Choices {
				if ch.Delta.Content != "" {
					chunks++
				}
			}
		}
		if chunks != n {
			b.Fatalf("floor read %d chunks, want %d", chunks, n)
		}
		return chunks
	}
	turn() // warm up: the first session, the connection, the tokenizer
	floor()

	var relayed, floorChunks int
	var relayTime, floorTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		relayed += turn()
		relayTime += time.Since(start)

		b.StopTimer()
		start = time.Now()
		floorChunks += floor()
		floorTime += time.Since(start)
		b.StartTimer()
	}
	relayRate := float64(relayed) / relayTime.Seconds()
	floorRate := float64(floorChunks) / floorTime.Seconds()
	b.ReportMetric(relayRate, "chunks/s")
	b.ReportMetric(floorRate, "floor-chunks/s")
	b.ReportMetric(relayRate/floorRate, "of-floor")
}

// BenchmarkPreviewWithA1MiBReply measures the context meter's preview (run
// after every pause in typing) in a session whose last reply is 1 MiB, with
// a real tokenizer (gpt-4o-mini: o200k_base): the reply's ~300,000 tokens
// are counted once, not on every preview (counts.go).
func BenchmarkPreviewWithA1MiBReply(b *testing.B) {
	srv := llmtest.NewServer(b)
	c := benchCore(b, srv)
	ctx := context.Background()
	sess, _ := c.DB.CreateSession(ctx, "long", "openai/gpt-4o-mini")
	unit := "The quick brown fox jumps over the lazy dog. 吾輩は猫である。\n\n"
	reply := strings.Repeat(unit, chat.MaxMessageBytes/len(unit))
	for _, m := range []store.Message{{Role: store.RoleUser, Content: "書いて"}, {Role: store.RoleAssistant, Content: reply}} {
		m.SessionID = sess.ID
		if err := c.DB.InsertMessage(ctx, &m); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Chat.Preview(ctx, chat.PreviewRequest{SessionID: sess.ID, Text: fmt.Sprint("次の質問 ", i)}); err != nil {
			b.Fatal(err)
		}
	}
}
