package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func openTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestDatabaseAtFirstMigrationOpensAndMigratesKeepingData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	old, err := OpenUnmigrated(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.MigrateTo(ctx, MigrationOriginal); err != nil {
		t.Fatal(err)
	}
	// Rows as the original app wrote them, JSON embedding included.
	for _, q := range []string{
		`INSERT INTO sessions (id, title, model) VALUES ('s1', '旧セッション', 'openai/gpt-4o-mini')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('s1', 'user', 'こんにちは')`,
		`INSERT INTO memories (session_id, summary, embedding_json) VALUES ('s1', '要約', '[0.5, -1.25, 3]')`,
	} {
		if _, err := old.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrate from first version: %v", err)
	}
	defer db.Close()
	applied, err := db.AppliedMigrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	newest := ""
	for _, st := range steps { // steps come in file order; migrations run in name order
		newest = max(newest, st.name)
	}
	if len(applied) != len(steps) || applied[len(applied)-1] != newest {
		t.Fatalf("applied = %v, want all %d steps", applied, len(steps))
	}
	msgs, err := db.ActiveMessages(ctx, "s1")
	if err != nil || len(msgs) != 1 || msgs[0].Content != "こんにちは" || msgs[0].Status != StatusComplete {
		t.Fatalf("messages after migration = %+v, %v", msgs, err)
	}
	mems, err := db.ActiveMemories(ctx, "s1")
	if err != nil || len(mems) != 1 {
		t.Fatalf("memories = %+v, %v", mems, err)
	}
	vec, err := DecodeEmbedding(mems[0].Embedding)
	if err != nil || fmt.Sprint(vec) != "[0.5 -1.25 3]" {
		t.Fatalf("embedding converted to %v, %v", vec, err)
	}
	// Opening again is a no-op.
	db.Close()
	db2, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db2.Close()
}

func TestFiftyConcurrentWritersNeverSeeDatabaseLocked(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s, err := db.CreateSession(ctx, "", "m")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50*4)
	for g := 0; g < 50; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 4; i++ {
				// A transaction that reads, then writes: the pattern that
				// fails with deferred transactions.
				m := &Message{SessionID: s.ID, Role: RoleUser, Content: fmt.Sprintf("g%d-%d", g, i)}
				if err := db.InsertMessage(ctx, m); err != nil {
					errs <- err
				}
				if _, err := db.CountActiveMessages(ctx, s.ID); err != nil {
					errs <- err
				}
				if err := db.SaveAppSettings(ctx, map[string]string{fmt.Sprintf("K%d", g): "v"}, nil); err != nil {
					errs <- err
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent write failed: %v", err)
	}
	n, err := db.CountActiveMessages(ctx, s.ID)
	if err != nil || n != 200 {
		t.Fatalf("count = %d, %v; want 200", n, err)
	}
}

func TestArchiveIntoMemoryIsAllOrNothing(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s, _ := db.CreateSession(ctx, "t", "m")
	var ids []int64
	for i := 0; i < 4; i++ {
		m := &Message{SessionID: s.ID, Role: RoleUser, Content: fmt.Sprint(i)}
		if err := db.InsertMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	mem, err := db.ArchiveIntoMemory(ctx, s.ID, ids[:2], "sum")
	if err != nil {
		t.Fatal(err)
	}
	// Overlapping archive: one of the ids is already archived → nothing changes.
	if _, err := db.ArchiveIntoMemory(ctx, s.ID, ids[1:3], "again"); !errors.Is(err, ErrArchiveConflict) {
		t.Fatalf("err = %v, want ErrArchiveConflict", err)
	}
	active, _ := db.ActiveMessages(ctx, s.ID)
	if len(active) != 2 || active[0].ID != ids[2] {
		t.Fatalf("active = %+v", active)
	}
	all, _ := db.SessionMessages(ctx, s.ID)
	if len(all) != 4 || all[0].MemoryID == nil || *all[0].MemoryID != mem.ID || all[0].ArchivedAt == nil {
		t.Fatalf("archived messages must stay in the DB with their memory id: %+v", all)
	}
	mems, _ := db.ActiveMemories(ctx, s.ID)
	if len(mems) != 1 || mems[0].MessageCount != 2 {
		t.Fatalf("memories = %+v", mems)
	}
}

func TestMergeMemoriesKeepsTheMergedRows(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s, _ := db.CreateSession(ctx, "t", "m")
	var memIDs []int64
	for i := 0; i < 3; i++ {
		m := &Message{SessionID: s.ID, Role: RoleUser, Content: "x"}
		db.InsertMessage(ctx, m)
		mem, err := db.ArchiveIntoMemory(ctx, s.ID, []int64{m.ID}, fmt.Sprint("s", i))
		if err != nil {
			t.Fatal(err)
		}
		memIDs = append(memIDs, mem.ID)
	}
	merged, err := db.MergeMemories(ctx, s.ID, memIDs[:2], "merged")
	if err != nil {
		t.Fatal(err)
	}
	if merged.Level != 1 || merged.MessageCount != 2 {
		t.Fatalf("merged = %+v", merged)
	}
	active, _ := db.ActiveMemories(ctx, s.ID)
	if len(active) != 2 || active[0].ID != merged.ID || active[1].ID != memIDs[2] {
		t.Fatalf("active = %+v", active)
	}
	all, _ := db.SessionMemories(ctx, s.ID)
	if len(all) != 4 {
		t.Fatalf("all = %d, want 4 (merged rows kept)", len(all))
	}
	if _, err := db.MergeMemories(ctx, s.ID, memIDs[:2], "twice"); !errors.Is(err, ErrArchiveConflict) {
		t.Fatalf("merging merged memories: err = %v", err)
	}
	// Deleting the merged memory brings its parts back.
	if err := db.DeleteMemory(ctx, merged.ID); err != nil {
		t.Fatal(err)
	}
	active, _ = db.ActiveMemories(ctx, s.ID)
	if len(active) != 3 {
		t.Fatalf("after delete active = %d, want 3", len(active))
	}
}

func TestSettingsPresetsAndSessions(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	if err := db.SaveAppSettings(ctx, map[string]string{"A": "1", "B": "2"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveAppSettings(ctx, map[string]string{"A": "3"}, []string{"B"}); err != nil {
		t.Fatal(err)
	}
	got, _ := db.AppSettings(ctx)
	if len(got) != 1 || got["A"] != "3" {
		t.Fatalf("settings = %v", got)
	}
	if _, err := db.CreatePreset(ctx, " ", "x"); err == nil {
		t.Fatal("blank label accepted")
	}
	p, err := db.CreatePreset(ctx, "mini", "openai/gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	if p, err = db.UpdatePreset(ctx, p.ID, "Mini", "openai/gpt-4.1-mini"); err != nil || p.Label != "Mini" {
		t.Fatalf("update = %+v %v", p, err)
	}
	if err := db.DeletePreset(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete missing = %v", err)
	}

	a, _ := db.CreateSession(ctx, "", "m")
	b, _ := db.CreateSession(ctx, "", "m")
	db.InsertMessage(ctx, &Message{SessionID: a.ID, Role: RoleUser, Content: "later"})
	list, _ := db.ListSessions(ctx)
	if len(list) != 2 || list[0].ID != a.ID {
		t.Fatalf("most recent first: %+v (b=%s)", list, b.ID)
	}
	if ok, _ := db.SetSessionTitleIfEmpty(ctx, a.ID, "auto"); !ok {
		t.Fatal("auto title not set")
	}
	db.RenameSession(ctx, b.ID, "mine")
	if list, _ := db.ListSessions(ctx); list[0].ID != a.ID {
		t.Fatal("renaming a session moved it to the top")
	}
	if ok, _ := db.SetSessionTitleIfEmpty(ctx, b.ID, "auto"); ok {
		t.Fatal("auto title overwrote a user title")
	}
	if err := db.DeleteSession(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CountActiveMessages(ctx, a.ID); n != 0 {
		t.Fatal("messages of a deleted session remain")
	}
	if _, err := db.GetSession(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get deleted = %v", err)
	}
}

func TestEmbeddingRoundTrip(t *testing.T) {
	v := []float32{0, 1.5, -2.25, 3e-7}
	got, err := DecodeEmbedding(EncodeEmbedding(v))
	if err != nil || fmt.Sprint(got) != fmt.Sprint(v) {
		t.Fatalf("round trip = %v, %v", got, err)
	}
	if _, err := DecodeEmbedding([]byte{1, 2, 3}); err == nil {
		t.Fatal("odd-length blob accepted")
	}
}

func TestTheDatabaseFileIsOwnerOnly(t *testing.T) {
	db := openTest(t)
	for _, p := range []string{db.Path(), db.Path() + "-wal"} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, st.Mode().Perm())
		}
	}
}

func TestAPILogUsageSumsTokensPerSession(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s, _ := db.CreateSession(ctx, "旅行", "")
	for _, l := range []APILog{
		{SessionID: s.ID, Model: "m", PromptTokens: 100, CompletionTokens: 10},
		{Model: "m", PromptTokens: 7},
		{SessionID: s.ID, Model: "m", PromptTokens: 200, CompletionTokens: 20},
	} {
		if err := db.InsertAPILog(ctx, &l); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.APILogUsage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []SessionUsage{
		{SessionID: s.ID, Title: "旅行", Calls: 2, PromptTokens: 300, CompletionTokens: 30},
		{SessionID: "", Calls: 1, PromptTokens: 7},
	}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("usage = %+v, want %+v", got, want)
	}
}
