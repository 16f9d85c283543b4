package store

import (
	"context"
	"testing"
)

func TestNoteVersionMigrationGivesExistingPagesVersionOne(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationToolActivity)
	if _, err := old.Bun().ExecContext(ctx, `INSERT INTO note_pages (title, content) VALUES ('メモ', '一行目')`); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	defer db.Close()
	var row struct {
		Content string `bun:"content"`
		Version int64  `bun:"version"`
	}
	if err := db.Bun().NewSelect().Table("note_pages").Column("content", "version").Scan(ctx, &row); err != nil {
		t.Fatal(err)
	}
	if row.Content != "一行目" || row.Version != 1 {
		t.Fatalf("page after migration = %+v, want its content kept and version 1", row)
	}
	// A page created later without naming the column starts at 1 too.
	if _, err := db.Bun().ExecContext(ctx, `INSERT INTO note_pages (title) VALUES ('新規')`); err != nil {
		t.Fatal(err)
	}
	var v int64
	if err := db.Bun().NewSelect().Table("note_pages").Column("version").Where("title = '新規'").Scan(ctx, &v); err != nil || v != 1 {
		t.Fatalf("new page version = %d, %v; want 1", v, err)
	}
}
