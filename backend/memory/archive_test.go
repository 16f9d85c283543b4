package memory

import (
	"context"
	"testing"
)

// The archive hook hears of every memory written, with the summarised
// messages; a hook that panics never fails the summary (issue 23's mirror
// into learned documents must not cost a memory).
func TestTheArchiveHookHearsOfEachMemoryAndCannotFailIt(t *testing.T) {
	db, _, s, sid := setup(t, 4)
	ctx := context.Background()
	var got []Archived
	s.SetOnArchive(func(_ context.Context, a Archived) { got = append(got, a) })
	addMessages(t, db, sid, 4)
	if done, err := s.MaybeSummarize(ctx, sid, "openai/x"); !done || err != nil {
		t.Fatalf("summary: %v %v", done, err)
	}
	if len(got) != 1 || got[0].SessionID != sid || got[0].MemoryID == 0 || got[0].Summary == "" || len(got[0].MessageIDs) != 2 {
		t.Fatalf("the hook heard %+v", got)
	}
	mems, _ := db.ActiveMemories(ctx, sid)
	if len(mems) != 1 || mems[0].ID != got[0].MemoryID || mems[0].Summary != got[0].Summary {
		t.Fatalf("stored %+v, heard %+v", mems, got[0])
	}

	s.SetOnArchive(func(context.Context, Archived) { panic("mirror broke") })
	addMessages(t, db, sid, 4)
	if done, err := s.MaybeSummarize(ctx, sid, "openai/x"); !done || err != nil {
		t.Fatalf("a panicking hook failed the summary: %v %v", done, err)
	}
	if mems, _ := db.ActiveMemories(ctx, sid); len(mems) != 2 {
		t.Fatalf("%d memories after the second summary, want 2", len(mems))
	}
}
