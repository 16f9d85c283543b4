package store

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// schemaOf lists a database's schema: every table, index, trigger and view
// with its SQL, and each table's columns (name, type, not-null, default,
// primary key) — what a database migrated from an older version must share
// with one migrated from nothing.
func schemaOf(t *testing.T, db *DB) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	rows, err := db.Bun().QueryContext(ctx, `SELECT type, name, tbl_name, COALESCE(sql, '') FROM sqlite_master
		WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, tbl, text string
		if err := rows.Scan(&typ, &name, &tbl, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ+" "+name+" on "+tbl+": "+strings.Join(strings.Fields(text), " "))
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, tbl := range tables {
		cols, err := db.Bun().QueryContext(ctx, `SELECT name, type, "notnull", COALESCE(dflt_value, ''), pk FROM pragma_table_info(?)`, tbl)
		if err != nil {
			t.Fatal(err)
		}
		for cols.Next() {
			var name, typ, dflt string
			var notNull, pk int
			if err := cols.Scan(&name, &typ, &notNull, &dflt, &pk); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("column %s.%s %s notnull=%d default=%q pk=%d", tbl, name, typ, notNull, dflt, pk))
		}
		cols.Close()
	}
	return out
}

// A database left at every earlier version — each step in turn, with a
// chat written as that version could — opens with Open, migrates to the
// latest, keeps its chat, passes integrity_check and ends with exactly the
// schema of a database migrated from nothing (issue 28: no step may only
// work from the one before it, or leave a column or index behind).
func TestADatabaseAtEveryEarlierVersionMigratesToTheLatestSchema(t *testing.T) {
	ctx := context.Background()
	fresh, err := Open(ctx, filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	want := schemaOf(t, fresh)
	fresh.Close()

	ordered, err := orderedSteps("")
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range ordered[:len(ordered)-1] {
		t.Run(at.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			old, err := OpenUnmigrated(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := old.MigrateTo(ctx, at.name); err != nil {
				t.Fatal(err)
			}
			// A chat as every version wrote it (the original schema's columns).
			for _, q := range []string{
				`INSERT INTO sessions (id, title, model) VALUES ('s-old', '前の版のチャット', 'openai/gpt-4o-mini')`,
				`INSERT INTO messages (session_id, role, content) VALUES ('s-old', 'user', '覚えていますか')`,
				`INSERT INTO messages (session_id, role, content) VALUES ('s-old', 'assistant', 'はい、覚えています')`,
			} {
				if _, err := old.Bun().ExecContext(ctx, q); err != nil {
					t.Fatalf("%s at %s: %v", q, at.name, err)
				}
			}
			old.Close()

			db, err := Open(ctx, path)
			if err != nil {
				t.Fatalf("open a database at %s: %v", at.name, err)
			}
			defer db.Close()
			applied, err := db.AppliedMigrations(ctx)
			if err != nil || len(applied) != len(ordered) {
				t.Fatalf("applied = %d steps (%v), want all %d", len(applied), err, len(ordered))
			}
			var check string
			if err := db.Bun().QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
				t.Fatalf("integrity_check = %q, %v", check, err)
			}
			var title string
			var n int
			if err := db.Bun().QueryRowContext(ctx, `SELECT title, (SELECT count(*) FROM messages WHERE session_id = 's-old')
				FROM sessions WHERE id = 's-old'`).Scan(&title, &n); err != nil || title != "前の版のチャット" || n != 2 {
				t.Fatalf("the old chat after migrating: %q with %d messages (%v)", title, n, err)
			}
			got := schemaOf(t, db)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("schema migrated from %s differs from a fresh one:\n%s", at.name, diffLines(want, got))
			}
		})
	}
}

// diffLines lists the lines only in want (-) or only in got (+).
func diffLines(want, got []string) string {
	in := func(ss []string) map[string]bool {
		m := map[string]bool{}
		for _, s := range ss {
			m[s] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var b strings.Builder
	for _, s := range want {
		if !g[s] {
			b.WriteString("- " + s + "\n")
		}
	}
	for _, s := range got {
		if !w[s] {
			b.WriteString("+ " + s + "\n")
		}
	}
	return b.String()
}
