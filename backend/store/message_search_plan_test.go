package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// referenceSearch is the search before issue 29: every match of the text,
// filtered, sorted by created_at then id, newest first.
func referenceSearch(t *testing.T, db *DB, q MessageSearch, limit int) []int64 {
	t.Helper()
	text, tags, typing := splitTagQuery(q.Text)
	expr, _, err := searchExpr(text)
	if err != nil {
		t.Fatal(err)
	}
	sel := db.bun.NewSelect().TableExpr("message_fts AS f").ColumnExpr("m.id").
		Join("CROSS JOIN messages AS m ON m.id = f.rowid").
		Join("JOIN sessions AS s ON s.id = m.session_id").
		Where("message_fts MATCH ?", expr)
	for i, tag := range tags {
		sel = tagFilter(sel, tag, typing && i == len(tags)-1)
	}
	if q.SessionID != "" {
		sel = sel.Where("m.session_id = ?", q.SessionID)
	}
	if !q.From.IsZero() {
		sel = sel.Where("m.created_at >= ?", q.From.UTC())
	}
	if !q.To.IsZero() {
		sel = sel.Where("m.created_at < ?", q.To.UTC())
	}
	ids := []int64{}
	if err := sel.OrderExpr("m.created_at DESC, m.id DESC").Limit(limit).Scan(context.Background(), &ids); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestSearchPlanGivesTheHitsOfSortingEveryMatch compares SearchMessages with
// the full sort over a history where a tenth of the messages were written
// out of id order (imports, a wrong clock), for rare and common words, a
// session, date ranges and several limits, with the straggler scan both
// large enough and too small (the fallback and the unbounded date range).
func TestSearchPlanGivesTheHitsOfSortingEveryMatch(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	const sessions = 30
	if err := benchLoad(ctx, db, sessions, start); err != nil {
		t.Fatal(err)
	}
	span := time.Duration(sessions*benchPerSession) * 7 * time.Minute
	r := rand.New(rand.NewPCG(3, 4))
	for id := 1; id <= sessions*benchPerSession; id++ {
		if r.IntN(10) != 0 {
			continue
		}
		at := start.Add(time.Duration(r.Int64N(int64(span))))
		if id%50 == 0 {
			at = start.Add(span / 2) // ties on created_at
		}
		if _, err := db.bun.ExecContext(ctx, `UPDATE messages SET created_at = ? WHERE id = ?`, at, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.IndexPendingMessages(ctx); err != nil {
		t.Fatal(err)
	}
	queries := []MessageSearch{
		{Text: "漱石"}, {Text: "猫"}, {Text: "会議の資料"}, {Text: "serv"}, {Text: "kubernetes deploy"},
		{Text: "天気", SessionID: benchSessionID(0)},
		{Text: "猫", SessionID: benchSessionID(sessions / 2)},
		{Text: "猫", From: start.Add(span / 2)},
		{Text: "猫", To: start.AddDate(0, 0, 3)},
		{Text: "写真", From: start.Add(span / 3), To: start.Add(span / 2)},
		{Text: "天気", SessionID: benchSessionID(1), From: start.Add(span / 4)},
		{Text: "猫", To: start.Add(-time.Hour)},
	}
	defer func(scan int) { stragglerScan = scan }(stragglerScan)
	for _, scan := range []int{20000, 200, 10} {
		stragglerScan = scan
		for _, q := range queries {
			for _, limit := range []int{1, 7, 50, 500} {
				q.Limit = limit
				name := fmt.Sprintf("scan %d, %q in %q from %v to %v, limit %d", scan, q.Text, q.SessionID, q.From, q.To, limit)
				want := referenceSearch(t, db, q, limit)
				got := hitIDs(search(t, db, q))
				if !slices.Equal(got, want) {
					t.Fatalf("%s:\n got %v\nwant %v", name, got, want)
				}
			}
		}
	}
}
