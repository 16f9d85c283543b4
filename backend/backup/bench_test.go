package backup_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/backup"
	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/internal/benchtext"
	"playchat/internal/testcorpus"
)

// The size of BenchmarkBackup's data dir: make bench passes
// -backup.messages=100000 -backup.docs=45000 (the defaults keep a plain
// `go test -bench .` quick).
var (
	benchMessages = flag.Int("backup.messages", 10000, "messages in the database of BenchmarkBackup (100 per chat)")
	benchDocs     = flag.Int("backup.docs", 2000, "documents in the knowledge base of BenchmarkBackup")
)

// maxTurnRatio is how much slower a chat turn may be while a backup runs:
// the median turn during the backup over the median turn without one.
const maxTurnRatio = 1.20

// turnPause is the pause between two turns of a sample, in the place of a
// user reading the reply (far shorter: turns come four times a second); it
// is not part of a turn's time.
const turnPause = 250 * time.Millisecond

// BenchmarkBackup backs up a data dir of -backup.messages messages (100 per
// chat, one branch each, written in one transaction; the search index is left queued, as
// after an import) and a knowledge base of -backup.docs copies of corpus
// documents (files only: the backup archives the folder, not the index),
// while chat turns run through the chat service against the fake OpenAI
// server (zero latency, so a turn's time is playchat's own work: context,
// history, message and log writes).
//
// It reports the backup's wall time (backup-s, seconds), the archive's size
// (archive-MB, MiB), the database's and the knowledge base's sizes (db-MB,
// kb-MB), the median turn without a backup (turn-ms: turns before and
// after it, milliseconds), the median and slowest turn while the backup
// runs (turn-backup-ms, turn-backup-max-ms) and their ratio (turn-ratio).
// It fails when turn-ratio is over maxTurnRatio. Run it once:
//
//	go test -run '^$' -bench BenchmarkBackup -benchtime 1x ./backend/backup/ -args -backup.messages=100000 -backup.docs=45000
func BenchmarkBackup(b *testing.B) {
	ctx := context.Background()
	srv := llmtest.NewServer(b, llmtest.WithReply("ok"), llmtest.WithChunks(1))
	dir := b.TempDir()
	c, err := core.Open(ctx, core.Options{
		DataDir: filepath.Join(dir, "data"), Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model",
			"MEMORY_SUMMARIZE_THRESHOLD=1000000"},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })

	t0 := time.Now()
	fillMessages(b, c.DB, *benchMessages)
	filled := time.Since(t0)
	kbDir := c.Config().KnowledgeBaseDir
	testcorpus.Copies(b, kbDir, *benchDocs)
	b.Logf("data dir: %d messages in %v, %d documents in %v", *benchMessages, filled.Round(time.Millisecond),
		*benchDocs, (time.Since(t0) - filled).Round(time.Millisecond))
	dbSize := fileSize(b, filepath.Join(c.DataDir, store.FileName)) + fileSize(b, filepath.Join(c.DataDir, store.FileName+"-wal"))
	kbSize := treeSize(b, kbDir)

	sess, err := c.DB.CreateSession(ctx, "bench", "openai/fake-model")
	if err != nil {
		b.Fatal(err)
	}
	turn := func(i int) time.Duration {
		start := time.Now()
		t, err := c.Chat.Start(ctx, chat.TurnRequest{SessionID: sess.ID, Text: fmt.Sprint("質問 ", i)}, event.Discard)
		if err != nil {
			b.Fatal(err)
		}
		if r := t.Wait(); r.Err != nil {
			b.Fatal(r.Err)
		}
		return time.Since(start)
	}
	// Turns without a backup: n of them, or until stop is closed.
	sample := func(n int, stop <-chan struct{}) []time.Duration {
		var out []time.Duration
		for i := 0; n == 0 || i < n; i++ {
			out = append(out, turn(i))
			select {
			case <-stop:
				return out
			case <-time.After(turnPause):
			}
		}
		return out
	}
	sample(10, nil) // warm the caches and the connections

	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before := sample(40, nil)
		out := filepath.Join(dir, fmt.Sprintf("backup-%d%s", i, backup.Ext))
		done := make(chan struct{})
		var took time.Duration
		var berr error
		go func() {
			defer close(done)
			start := time.Now()
			_, _, berr = backup.CreateFile(ctx, c.BackupSource("bench"), out, backup.CreateOptions{})
			took = time.Since(start)
		}()
		during := sample(0, done)
		<-done
		if berr != nil {
			b.Fatal(berr)
		}
		after := sample(40, nil)

		base := median(append(before, after...))
		mid := median(during)
		ratio := float64(mid) / float64(base)
		b.ReportMetric(took.Seconds(), "backup-s")
		b.ReportMetric(float64(fileSize(b, out))/(1<<20), "archive-MB")
		b.ReportMetric(float64(dbSize)/(1<<20), "db-MB")
		b.ReportMetric(float64(kbSize)/(1<<20), "kb-MB")
		b.ReportMetric(ms(base), "turn-ms")
		b.ReportMetric(ms(mid), "turn-backup-ms")
		b.ReportMetric(ms(slices.Max(during)), "turn-backup-max-ms")
		b.ReportMetric(ratio, "turn-ratio")
		b.ReportMetric(0, "ns/op")
		b.Logf("backup %v; turns: %d without (median %v), %d during (median %v, max %v)", took.Round(time.Millisecond),
			len(before)+len(after), base, len(during), mid, slices.Max(during))
		if ratio > maxTurnRatio {
			b.Fatalf("a turn during the backup took %.2f× as long as without one (median %v vs %v); the bound is %.2f×",
				ratio, mid, base, maxTurnRatio)
		}
		os.Remove(out)
	}
}

// fillMessages writes n messages, 100 per chat, in one transaction: each
// chat one branch (every message the child of the one before, as the store
// writes a conversation), its last message the active leaf.
func fillMessages(b *testing.B, db *store.DB, n int) {
	b.Helper()
	const perSession = 100
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	err := db.Tx(context.Background(), func(ctx context.Context, tx bun.Tx) error {
		var base int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM messages`).Scan(&base); err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("s%05d", i/perSession)
			var parent any
			if i%perSession == 0 {
				if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, title) VALUES (?, ?)`, id, "セッション "+id); err != nil {
					return err
				}
			} else {
				parent = base + int64(i)
			}
			role := []string{store.RoleUser, store.RoleAssistant}[i%2]
			if _, err := tx.ExecContext(ctx, `INSERT INTO messages (id, session_id, parent_id, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
				base+int64(i)+1, id, parent, role, benchtext.Message(r), start.Add(time.Duration(i)*7*time.Minute)); err != nil {
				return err
			}
			if i%perSession == perSession-1 || i == n-1 {
				if _, err := tx.ExecContext(ctx, `UPDATE sessions SET active_leaf_id = ? WHERE id = ?`, base+int64(i)+1, id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func fileSize(b *testing.B, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

// treeSize is the bytes of the regular files under dir.
func treeSize(b *testing.B, dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
