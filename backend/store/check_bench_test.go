package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"
)

// benchWords returns n words of the synthetic history (benchText's
// vocabulary) as the text, with particles, and as FTS terms.
func benchWords(r *rand.Rand, n int) (text, terms string) {
	var b, t strings.Builder
	for i := 0; i < n; i++ {
		var w string
		switch k := r.IntN(20); {
		case k == 0:
			w = benchRare[r.IntN(len(benchRare))]
		case k < 4:
			w = benchLatin[r.IntN(len(benchLatin))]
		default:
			w = benchCommon[r.IntN(len(benchCommon))]
		}
		b.WriteString(w)
		t.WriteString(w + " ")
		b.WriteString([]string{"は", "が", "を", "の", "に", "で", "と"}[r.IntN(7)])
		if r.IntN(6) == 0 {
			v := benchVerbs[r.IntN(len(benchVerbs))]
			b.WriteString(v + "。")
			t.WriteString(v + " ")
		}
		if r.IntN(40) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String(), t.String()
}

// BenchmarkOpenCheck100k measures the start-up check (Check: the header,
// the schema version and PRAGMA quick_check) of a database of 100,000
// messages in 1,000 sessions — questions of ~25 words, replies of ~400
// (about 1,300 characters, 3.5 KB of Japanese), every message indexed for
// search — built once in b.TempDir(). The database's size is reported as
// MB, the check's time as check-ms (the page cache is warm: the file was
// just written; a first start after a reboot reads it from disk). Run it
// once:
//
//	go test -run '^$' -bench BenchmarkOpenCheck100k -benchtime 3x ./backend/store/
func BenchmarkOpenCheck100k(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), FileName)
	db, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	const sessions, perSession = 1000, 100
	r := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	build := time.Now()
	for s := 0; s < sessions; s++ {
		id := fmt.Sprintf("s%04d", s)
		err := db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, title) VALUES (?, ?)`, id, "セッション "+id); err != nil {
				return err
			}
			for i := 0; i < perSession; i++ {
				words := 25
				if i%2 == 1 {
					words = 400
				}
				text, terms := benchWords(r, words)
				at := start.Add(time.Duration(s*perSession+i) * 7 * time.Minute)
				res, err := tx.ExecContext(ctx, `INSERT INTO messages (session_id, role, content, created_at) VALUES (?, ?, ?, ?)`,
					id, []string{RoleUser, RoleAssistant}[i%2], text, at)
				if err != nil {
					return err
				}
				mid, _ := res.LastInsertId()
				if _, err := tx.ExecContext(ctx, `INSERT INTO message_fts (rowid, terms) VALUES (?, ?)`, mid, terms); err != nil {
					return err
				}
			}
			_, err := tx.ExecContext(ctx, `DELETE FROM message_search_pending`)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("built %d messages, %d MB, in %v", sessions*perSession, st.Size()>>20, time.Since(build).Round(time.Second))
	b.ResetTimer()
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		if err := Check(ctx, path); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(time.Since(t0).Milliseconds())/float64(b.N), "check-ms")
	b.ReportMetric(float64(st.Size())/1e6, "MB")
	t1 := time.Now()
	db, err = Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	db.Close()
	b.ReportMetric(float64(time.Since(t1).Milliseconds()), "open-ms")
}
