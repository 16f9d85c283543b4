package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// Issue 21: 50 parallel `playchat ask` on an empty data dir — 49 failed
// with "migrate: … duplicate column name: status" and their messages were
// never stored. Twenty processes of this binary run `ask` at once on a
// data dir that does not exist yet; all succeed and every question and
// reply is stored.
func TestTwentyAsksAtOnceOnAnEmptyDataDir(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("stored reply"))
	dir := filepath.Join(t.TempDir(), "data")
	const n = 20
	outs := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$", "--", "ask", fmt.Sprintf("question %d", i))
			cmd.Env = append(os.Environ(), cliArgsEnv+"=1", "PLAYCHAT_DATA_DIR="+dir,
				"OPENAI_BASE_URL="+srv.URL, "DEFAULT_MODEL=openai/fake")
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("ask %d: %v: %s", i, errs[i], outs[i])
		}
	}
	db, err := store.Open(context.Background(), filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var users, replies int
	if err := db.Bun().NewRaw(`SELECT count(*) FROM messages WHERE role = 'user'`).Scan(context.Background(), &users); err != nil {
		t.Fatal(err)
	}
	if err := db.Bun().NewRaw(`SELECT count(*) FROM messages WHERE role = 'assistant' AND status = 'complete' AND content = 'stored reply'`).
		Scan(context.Background(), &replies); err != nil {
		t.Fatal(err)
	}
	if users != n || replies != n {
		t.Errorf("stored %d questions and %d replies, want %d of each", users, replies, n)
	}
}
