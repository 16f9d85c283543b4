package store

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// Applying the migrations (issue 21). Several processes may open one
// database at the same moment — two `playchat ask` on a fresh data dir, the
// window started from the menu while a terminal command runs — so each step
// is checked and applied in one immediate transaction: the first process
// to take SQLite's write lock applies it and records it in bun_migrations
// before committing; the others wait on the busy timeout, find it recorded
// and go on. (Open also holds the data dir's start-up lock around all of
// it; the transactions keep a caller of MigrateTo without that lock safe.)
//
// The record is bun/migrate's table, so databases migrated by earlier
// versions (which used bun's migrator) read the same. Each statement is
// also made idempotent where that is cheap: a column, table, index or
// trigger that already exists is not created again, so a step that an
// earlier version applied but failed to record (bun recorded a step after
// its transaction) runs to the end instead of failing for good.

// migrationsTable is bun/migrate's record of applied steps.
const migrationsTable = "bun_migrations"

// orderedSteps returns the steps sorted by name, up to and including upTo
// ("" = all).
func orderedSteps(upTo string) ([]step, error) {
	ordered := append([]step(nil), steps...)
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].name < ordered[j].name })
	if upTo == "" {
		return ordered, nil
	}
	for i, s := range ordered {
		if s.name == upTo {
			return ordered[:i+1], nil
		}
	}
	return nil, fmt.Errorf("unknown migration %q", upTo)
}

// LatestMigration is the name of the newest migration this binary knows: a
// database that records a step it does not know was written by a newer
// version (Check refuses it).
func LatestMigration() string {
	ordered, _ := orderedSteps("")
	return ordered[len(ordered)-1].name
}

// knownMigration reports whether name is a step of this binary.
func knownMigration(name string) bool {
	for _, s := range steps {
		if s.name == name {
			return true
		}
	}
	return false
}

// Migrate applies every pending migration.
func (d *DB) Migrate(ctx context.Context) error { return d.MigrateTo(ctx, "") }

// MigrateTo applies pending migrations up to and including name ("" = all).
// It returns an error naming the failed step; steps already applied stay.
// Concurrent callers, in this process or others, apply each step once.
func (d *DB) MigrateTo(ctx context.Context, name string) error {
	ordered, err := orderedSteps(name)
	if err != nil {
		return err
	}
	// CREATE TABLE IF NOT EXISTS: safe to run by many at once.
	if err := migrate.NewMigrator(d.bun, migrate.NewMigrations()).Init(ctx); err != nil {
		return fmt.Errorf("init migrations: %w", err)
	}
	var group int64
	for _, s := range ordered {
		if err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
			n, err := tx.NewSelect().TableExpr(migrationsTable).Where("name = ?", s.name).Count(ctx)
			if err != nil || n > 0 {
				return err // applied (by this process earlier, or another one)
			}
			if group == 0 {
				if err := tx.NewSelect().TableExpr(migrationsTable).ColumnExpr("COALESCE(MAX(group_id), 0) + 1").
					Scan(ctx, &group); err != nil {
					return err
				}
			}
			for _, stmt := range s.stmts {
				if done, err := alreadyDone(ctx, tx, stmt); err != nil {
					return err
				} else if done {
					continue
				}
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return err
				}
			}
			if post := postSteps[s.name]; post != nil {
				if err := post(ctx, tx); err != nil {
					return err
				}
			}
			_, err = tx.NewInsert().Model(&migrate.Migration{Name: s.name, GroupID: group, MigratedAt: time.Now().UTC()}).
				ModelTableExpr(migrationsTable).Exec(ctx)
			return err
		}); err != nil {
			return fmt.Errorf("migrate: migration %s: %w", s.name, err)
		}
	}
	return nil
}

// AppliedMigrations lists the names of applied migrations, oldest first.
func (d *DB) AppliedMigrations(ctx context.Context) ([]string, error) {
	if err := migrate.NewMigrator(d.bun, migrate.NewMigrations()).Init(ctx); err != nil {
		return nil, err
	}
	var names []string
	if err := d.bun.NewSelect().TableExpr(migrationsTable).Column("name").Order("name").Scan(ctx, &names); err != nil {
		return nil, err
	}
	return names, nil
}

var (
	addColumnRe  = regexp.MustCompile(`(?is)^\s*ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+(\w+)`)
	dropColumnRe = regexp.MustCompile(`(?is)^\s*ALTER\s+TABLE\s+(\w+)\s+DROP\s+COLUMN\s+(\w+)`)
	createRe     = regexp.MustCompile(`(?is)^\s*CREATE\s+(?:UNIQUE\s+|VIRTUAL\s+)?(TABLE|INDEX|TRIGGER)\s+(\w+)`)
)

// alreadyDone reports whether stmt's effect is already in the schema: an
// ADD COLUMN whose column exists, a DROP COLUMN whose column is gone, a
// CREATE of a table, index or trigger that exists. Other statements (data
// changes) always run; the steps write them so that a second run is
// harmless.
func alreadyDone(ctx context.Context, tx bun.Tx, stmt string) (bool, error) {
	if m := addColumnRe.FindStringSubmatch(stmt); m != nil {
		return hasColumn(ctx, tx, m[1], m[2])
	}
	if m := dropColumnRe.FindStringSubmatch(stmt); m != nil {
		has, err := hasColumn(ctx, tx, m[1], m[2])
		return !has, err
	}
	if m := createRe.FindStringSubmatch(stmt); m != nil {
		n, err := tx.NewSelect().TableExpr("sqlite_master").Where("name = ?", m[2]).Count(ctx)
		return n > 0, err
	}
	return false, nil
}

// hasColumn reports whether table has column.
func hasColumn(ctx context.Context, db bun.IDB, table, column string) (bool, error) {
	var n int
	err := db.NewRaw("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, column).Scan(ctx, &n)
	if err != nil {
		return false, err
	}
	return n > 0, nil
}

// errUnknownMigration is wrapped by newerSchema's cause.
var errUnknownMigration = errors.New("the database records a migration this version does not know")
