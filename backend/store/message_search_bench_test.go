package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"playchat/internal/benchtext"
)

// BenchmarkMessageSearch100k measures SearchMessages over 100,000 messages
// in 1,000 sessions (built and indexed once, in b.TempDir()): a mix of
// rare and common words, two-word queries, a session filter and date
// ranges, one of them the slow case (a common word in the oldest month).
// It reports the p50 and p95 latency of 200 queries as p50-ms and p95-ms
// (target: p50 ≤ 50 ms). Run it once:
//
//	go test -run '^$' -bench BenchmarkMessageSearch100k -benchtime 1x ./backend/store/
func BenchmarkMessageSearch100k(b *testing.B) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(b.TempDir(), FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	const sessions, perSession = 1000, 100
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var firstSession string
	build := time.Now()
	for s := 0; s < sessions; s++ {
		id := fmt.Sprintf("s%04d", s)
		if firstSession == "" {
			firstSession = id
		}
		err := db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, title) VALUES (?, ?)`, id, "セッション "+id); err != nil {
				return err
			}
			for i := 0; i < perSession; i++ {
				at := start.Add(time.Duration(s*perSession+i) * 7 * time.Minute)
				role := []string{RoleUser, RoleAssistant}[i%2]
				if _, err := tx.ExecContext(ctx, `INSERT INTO messages (session_id, role, content, created_at) VALUES (?, ?, ?, ?)`,
					id, role, benchtext.Message(r), at); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	inserted := time.Since(build)
	n, err := db.IndexPendingMessages(ctx)
	if err != nil || n != sessions*perSession {
		b.Fatalf("indexed %d, %v", n, err)
	}
	b.Logf("built %d messages: insert %v, index %v", n, inserted.Round(time.Millisecond), (time.Since(build) - inserted).Round(time.Millisecond))

	mid := start.Add(time.Duration(sessions*perSession/2) * 7 * time.Minute)
	queries := []MessageSearch{
		{Text: "漱石"},
		{Text: "ﾜｶﾞﾊｲ"},
		{Text: "猫"},
		{Text: "会議の資料"},
		{Text: "ラーメンを作りたい"},
		{Text: "kubernetes deploy"},
		{Text: "天気", SessionID: firstSession},
		{Text: "富士山", From: mid},
		// The slow case: a common word limited to the oldest month walks
		// every newer match first (about 100 ms here).
		{Text: "猫", To: start.AddDate(0, 0, 30)},
		{Text: "serv"},
		{Text: "沖縄 旅行 写真"},
	}
	run := func(q MessageSearch) time.Duration {
		t0 := time.Now()
		hits, err := db.SearchMessages(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(hits) == 0 && q.SessionID == "" {
			b.Fatalf("no hits for %q", q.Text)
		}
		return time.Since(t0)
	}
	for _, q := range queries { // warm the dictionary and the page cache
		run(q)
	}
	const samples = 200
	lat := make([]time.Duration, 0, samples)
	for i := 0; i < samples; i++ {
		lat = append(lat, run(queries[i%len(queries)]))
	}
	for _, q := range queries {
		b.Logf("%-12q %v", q.Text, run(q).Round(10*time.Microsecond))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run(queries[i%len(queries)])
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(lat[samples/2]), "p50-ms")
	b.ReportMetric(ms(lat[samples*95/100]), "p95-ms")
}
