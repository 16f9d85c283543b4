//go:build unix

// (The benchmark reads its CPU time with getrusage.)

package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"playchat/internal/benchtext"
)

// benchWords returns n words of the synthetic history (benchtext's
// vocabulary) as the text, with particles, and as FTS terms.
func benchWords(r *rand.Rand, n int) (text, terms string) {
	var b, t strings.Builder
	for i := 0; i < n; i++ {
		var w string
		switch k := r.IntN(20); {
		case k == 0:
			w = benchtext.Rare[r.IntN(len(benchtext.Rare))]
		case k < 4:
			w = benchtext.Latin[r.IntN(len(benchtext.Latin))]
		default:
			w = benchtext.Common[r.IntN(len(benchtext.Common))]
		}
		b.WriteString(w)
		t.WriteString(w + " ")
		b.WriteString([]string{"は", "が", "を", "の", "に", "で", "と"}[r.IntN(7)])
		if r.IntN(6) == 0 {
			v := benchtext.Verbs[r.IntN(len(benchtext.Verbs))]
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
	sqldb := db.Bun().DB
	for s0 := 0; s0 < sessions; s0 += 100 { // 100 sessions per transaction
		tx, err := sqldb.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		insSession, err1 := tx.PrepareContext(ctx, `INSERT INTO sessions (id, title) VALUES (?, ?)`)
		// Each message follows the previous one of its session (parent_id),
		// as the chat stores them: the fork trigger then looks up one parent
		// instead of every first message.
		insMsg, err2 := tx.PrepareContext(ctx, `INSERT INTO messages (session_id, parent_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)`)
		insFTS, err3 := tx.PrepareContext(ctx, `INSERT INTO message_fts (rowid, terms) VALUES (?, ?)`)
		if err := errors.Join(err1, err2, err3); err != nil {
			b.Fatal(err)
		}
		for s := s0; s < s0+100; s++ {
			id := fmt.Sprintf("s%04d", s)
			if _, err := insSession.ExecContext(ctx, id, "セッション "+id); err != nil {
				b.Fatal(err)
			}
			var parent any // NULL for the first message
			for i := 0; i < perSession; i++ {
				words := 25
				if i%2 == 1 {
					words = 400
				}
				text, terms := benchWords(r, words)
				at := start.Add(time.Duration(s*perSession+i) * 7 * time.Minute)
				res, err := insMsg.ExecContext(ctx, id, parent, []string{RoleUser, RoleAssistant}[i%2], text, at)
				if err != nil {
					b.Fatal(err)
				}
				mid, _ := res.LastInsertId()
				parent = mid
				if _, err := insFTS.ExecContext(ctx, mid, terms); err != nil {
					b.Fatal(err)
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM message_search_pending`); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
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
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

	// The full check: what a start after a crash (or a changed file) pays.
	b.ResetTimer()
	t0, cpu0 := time.Now(), cpuTime()
	for i := 0; i < b.N; i++ {
		if err := Check(ctx, path); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(ms(time.Since(t0))/float64(b.N), "check-ms")
	b.ReportMetric(ms(cpuTime()-cpu0)/float64(b.N), "check-cpu-ms")
	b.ReportMetric(float64(st.Size())/1e6, "MB")

	// A start after a clean close: the marker matches (one CRC read of the
	// file), no quick_check. Then the same start while another process has
	// the database open: no read of the file at all.
	open := func() time.Duration {
		t := time.Now()
		db, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		d := time.Since(t)
		db.Close()
		return d
	}
	if !knownClean(path) {
		b.Fatal("the database is not known clean after its close")
	}
	b.ReportMetric(ms(open()), "open-clean-ms")
	holder, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ms(open()), "open-beside-ms")
	holder.Close()
}

// cpuTime is the CPU time (user + system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
