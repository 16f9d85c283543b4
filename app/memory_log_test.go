package app

import (
	"context"
	"testing"

	"playchat/backend/store"
)

func TestTheLogListShowsTokensPerCallAndPerSession(t *testing.T) {
	a, _ := newTestApp(t)
	ctx := context.Background()
	db := a.core.DB
	s, _ := db.CreateSession(ctx, "旅行", "")
	for _, l := range []store.APILog{
		{SessionID: s.ID, Model: "openai/x", PromptTokens: 120, CompletionTokens: 30},
		{SessionID: s.ID, Model: "openai/x", PromptTokens: 80, CompletionTokens: 20},
	} {
		if err := db.InsertAPILog(ctx, &l); err != nil {
			t.Fatal(err)
		}
	}
	page, err := (&LogService{a}).List(10, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Entries) != 2 || page.Entries[0].PromptTokens != 80 || page.Entries[0].CompletionTokens != 20 {
		t.Fatalf("entries = %+v", page.Entries)
	}
	want := LogUsage{SessionID: s.ID, Title: "旅行", Calls: 2, PromptTokens: 200, CompletionTokens: 50}
	if len(page.Usage) != 1 || page.Usage[0] != want {
		t.Fatalf("usage = %+v, want %+v", page.Usage, want)
	}
}

func TestTheMemoryStatusOfAQuietSessionIsIdle(t *testing.T) {
	a, _ := newTestApp(t)
	st, err := (&MemoryService{a}).Status("no-such-session")
	if err != nil || st.State != "idle" || st.Failures != 0 || st.NextAttempt != "" {
		t.Fatalf("status = %+v, %v", st, err)
	}
}
