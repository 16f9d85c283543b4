package store

import (
	"context"
	"testing"
	"time"
)

func TestSummaryBackoffIsSavedReplacedClearedAndGoesWithItsSession(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	s, _ := db.CreateSession(ctx, "t", "")
	if _, ok, err := db.GetSummaryBackoff(ctx, s.ID); ok || err != nil {
		t.Fatalf("a fresh session has a backoff: %v %v", ok, err)
	}
	next := time.Date(2026, 11, 30, 12, 1, 0, 0, time.UTC)
	for n := 1; n <= 2; n++ {
		if err := db.SaveSummaryBackoff(ctx, SummaryBackoff{SessionID: s.ID, Failures: n, LastError: "too long", NextAttemptAt: next}); err != nil {
			t.Fatal(err)
		}
	}
	b, ok, err := db.GetSummaryBackoff(ctx, s.ID)
	if !ok || err != nil || b.Failures != 2 || b.LastError != "too long" || !b.NextAttemptAt.Equal(next) {
		t.Fatalf("backoff = %+v, %v, %v", b, ok, err)
	}
	if err := db.ClearSummaryBackoff(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.GetSummaryBackoff(ctx, s.ID); ok {
		t.Fatal("cleared backoff still there")
	}
	// Deleting the session deletes its row; saving for a gone session is no error.
	db.SaveSummaryBackoff(ctx, SummaryBackoff{SessionID: s.ID, Failures: 1, NextAttemptAt: next})
	if err := db.DeleteSession(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.GetSummaryBackoff(ctx, s.ID); ok {
		t.Fatal("the backoff outlived its session")
	}
	if err := db.SaveSummaryBackoff(ctx, SummaryBackoff{SessionID: "gone", Failures: 1, NextAttemptAt: next}); err != nil {
		t.Fatalf("saving for a deleted session: %v", err)
	}
}
