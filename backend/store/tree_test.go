package store

import (
	"context"
	"errors"
	"slices"
	"testing"
)

func TestMessageTreeMigrationTurnsEachOldSessionIntoOneBranch(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationReminders)
	// Two sessions whose messages interleave by id, and an empty one.
	for _, q := range []string{
		`INSERT INTO sessions (id, title) VALUES ('a', 'A'), ('b', 'B'), ('empty', 'E')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('a', 'user', 'a1')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('b', 'user', 'b1')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('a', 'assistant', 'a2')`,
		`INSERT INTO messages (session_id, role, content, archived_at) VALUES ('b', 'assistant', 'b2', CURRENT_TIMESTAMP)`,
		`INSERT INTO messages (session_id, role, content) VALUES ('a', 'user', 'a3')`,
		`INSERT INTO messages (session_id, role, content) VALUES ('b', 'user', 'b3')`,
	} {
		if _, err := old.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	defer db.Close()
	for sid, want := range map[string][]string{"a": {"a1", "a2", "a3"}, "b": {"b1", "b2", "b3"}} {
		ms, err := db.BranchMessages(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if got := treeContents(ms); !slices.Equal(got, want) {
			t.Fatalf("branch of %s = %v, want %v", sid, got, want)
		}
		if ms[0].ParentID != nil {
			t.Fatalf("first message of %s has parent %d, want none", sid, *ms[0].ParentID)
		}
		for i := 1; i < len(ms); i++ {
			if ms[i].ParentID == nil || *ms[i].ParentID != ms[i-1].ID {
				t.Fatalf("%s: message %d's parent = %v, want the previous message %d", sid, ms[i].ID, ms[i].ParentID, ms[i-1].ID)
			}
		}
		if leaf, _ := db.ActiveLeaf(ctx, sid); leaf != ms[len(ms)-1].ID {
			t.Fatalf("active leaf of %s = %d, want its last message %d", sid, leaf, ms[len(ms)-1].ID)
		}
		sibs, err := db.SiblingIDs(ctx, sid, ms)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if len(sibs[m.ID]) != 1 {
				t.Fatalf("%s: message %d has siblings %v after migration, want none", sid, m.ID, sibs[m.ID])
			}
		}
	}
	if active, _ := db.ActiveMessages(ctx, "b"); !slices.Equal(treeContents(active), []string{"b1", "b3"}) {
		t.Fatalf("active messages of b = %v, want the archived one left out", treeContents(active))
	}
	if ms, _ := db.BranchMessages(ctx, "empty"); len(ms) != 0 {
		t.Fatalf("empty session has %d messages", len(ms))
	}
	// A new message continues the migrated branch.
	m := Message{SessionID: "a", Role: RoleAssistant, Content: "a4"}
	if err := db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if ms, _ := db.BranchMessages(ctx, "a"); !slices.Equal(treeContents(ms), []string{"a1", "a2", "a3", "a4"}) {
		t.Fatalf("branch after a new message = %v", treeContents(ms))
	}
}

func TestSiblingBranchesAreKeptAndSwitchable(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, err := db.CreateSession(ctx, "", "")
	if err != nil {
		t.Fatal(err)
	}
	add := func(role, text string) Message {
		m := Message{SessionID: s.ID, Role: role, Content: text}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	q1 := add(RoleUser, "q1")
	add(RoleAssistant, "r1")
	q2 := add(RoleUser, "q2")
	add(RoleAssistant, "r2")

	// Edit q2: a sibling under q1's reply, selected at once.
	q2b := Message{SessionID: s.ID, Role: RoleUser, Content: "q2 edited"}
	if err := db.InsertBranch(ctx, &q2b, q2.ParentID); err != nil {
		t.Fatal(err)
	}
	r2b := add(RoleAssistant, "r2b")
	ms, _ := db.BranchMessages(ctx, s.ID)
	if !slices.Equal(treeContents(ms), []string{"q1", "r1", "q2 edited", "r2b"}) {
		t.Fatalf("branch after edit = %v", treeContents(ms))
	}
	sibs, err := db.SiblingIDs(ctx, s.ID, ms)
	if err != nil {
		t.Fatal(err)
	}
	if got := sibs[q2b.ID]; len(got) != 2 || got[0] != q2.ID || got[1] != q2b.ID {
		t.Fatalf("siblings of the edited question = %v, want [%d %d]", got, q2.ID, q2b.ID)
	}
	if len(sibs[q1.ID]) != 1 {
		t.Fatalf("first question has siblings %v", sibs[q1.ID])
	}

	// Switch back to the first version: its newest leaf is r2.
	leaf, err := db.SelectBranch(ctx, s.ID, q2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := db.BranchMessages(ctx, s.ID); !slices.Equal(treeContents(ms), []string{"q1", "r1", "q2", "r2"}) || leaf != ms[3].ID {
		t.Fatalf("branch after switching = %v (leaf %d)", treeContents(ms), leaf)
	}
	if active, _ := db.ActiveMessages(ctx, s.ID); len(active) != 4 {
		t.Fatalf("active messages = %v, want the 4 of the selected branch only", treeContents(active))
	}
	// A reply stored under the other branch's question does not take the
	// window there.
	late := Message{SessionID: s.ID, Role: RoleAssistant, Content: "late", ParentID: &q2b.ID}
	if err := db.InsertMessage(ctx, &late); err != nil {
		t.Fatal(err)
	}
	if ms, _ := db.BranchMessages(ctx, s.ID); ms[len(ms)-1].Content != "r2" {
		t.Fatalf("branch after a reply elsewhere = %v", treeContents(ms))
	}
	// Switching to the edited question lands on its newest leaf.
	if leaf, _ := db.SelectBranch(ctx, s.ID, q2b.ID); leaf != late.ID || leaf == r2b.ID {
		t.Fatalf("newest leaf under the edit = %d, want %d", leaf, late.ID)
	}
	// A question's reply regenerated: select the question, the new reply
	// extends the branch from it.
	if err := db.SelectMessage(ctx, s.ID, q1.ID); err != nil {
		t.Fatal(err)
	}
	add(RoleAssistant, "r1b")
	if ms, _ := db.BranchMessages(ctx, s.ID); !slices.Equal(treeContents(ms), []string{"q1", "r1b"}) {
		t.Fatalf("branch after a regenerated reply = %v", treeContents(ms))
	}

	other, _ := db.CreateSession(ctx, "", "")
	if _, err := db.SelectBranch(ctx, other.ID, q1.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("selecting another session's message: %v, want ErrNotFound", err)
	}
	bad := Message{SessionID: other.ID, Role: RoleUser, Content: "x"}
	if err := db.InsertBranch(ctx, &bad, &q1.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("branching under another session's message: %v, want ErrNotFound", err)
	}
}

func treeContents(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Content
	}
	return out
}

func TestMemoriesOfAnotherBranchAreLeftOutOfTheSelectedOne(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "")
	add := func(text string) Message {
		m := Message{SessionID: s.ID, Role: RoleUser, Content: text}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	shared := add("shared")
	a := add("A only")
	// Branch B forks under the shared message before anything is summarised.
	b := Message{SessionID: s.ID, Role: RoleUser, Content: "B only"}
	if err := db.InsertBranch(ctx, &b, &shared.ID); err != nil {
		t.Fatal(err)
	}
	add("B more")
	memShared, err := db.ArchiveIntoMemory(ctx, s.ID, []int64{shared.ID}, "about the shared start")
	if err != nil {
		t.Fatal(err)
	}
	memB, err := db.ArchiveIntoMemory(ctx, s.ID, []int64{b.ID}, "about B")
	if err != nil {
		t.Fatal(err)
	}
	// A memory with no message left (an import's) belongs to every branch.
	if _, err := db.Bun().ExecContext(ctx, `INSERT INTO memories (session_id, summary, level) VALUES (?, 'orphan', 0)`, s.ID); err != nil {
		t.Fatal(err)
	}
	summaries := func() []string {
		ms, err := db.ActiveMemories(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Summary)
		}
		slices.Sort(out) // the raw insert's time has another precision
		return out
	}
	if got := summaries(); !slices.Equal(got, []string{"about B", "about the shared start", "orphan"}) {
		t.Fatalf("memories on branch B = %v", got)
	}
	if _, err := db.SelectBranch(ctx, s.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	if got := summaries(); !slices.Equal(got, []string{"about the shared start", "orphan"}) {
		t.Fatalf("memories on branch A = %v, want B's summary left out", got)
	}
	// Merged, B's summary goes with the shared one to both branches.
	if _, err := db.MergeMemories(ctx, s.ID, []int64{memShared.ID, memB.ID}, "merged"); err != nil {
		t.Fatal(err)
	}
	if got := summaries(); !slices.Equal(got, []string{"merged", "orphan"}) {
		t.Fatalf("memories on branch A after a merge = %v", got)
	}
}

// HistoryBefore is the path above a message in its own branch, whichever
// branch is selected, without archived messages: what a new version of
// that message is sent after.
func TestHistoryBeforeIsThePathAboveAMessage(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	s, _ := db.CreateSession(ctx, "", "m")
	add := func(role, text string, parent *int64) Message {
		t.Helper()
		m := Message{SessionID: s.ID, Role: role, Content: text}
		if err := db.InsertBranch(ctx, &m, parent); err != nil {
			t.Fatal(err)
		}
		return m
	}
	q1 := add(RoleUser, "q1", nil)
	a1 := add(RoleAssistant, "a1", &q1.ID)
	q2 := add(RoleUser, "q2", &a1.ID)
	add(RoleAssistant, "a2", &q2.ID)
	q2b := add(RoleUser, "q2 again", &a1.ID) // another version of q2, now selected
	add(RoleAssistant, "a2b", &q2b.ID)
	contents := func(ms []Message) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Content)
		}
		return out
	}
	for _, id := range []int64{q2.ID, q2b.ID} {
		got, err := db.HistoryBefore(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if c := contents(got); len(c) != 2 || c[0] != "q1" || c[1] != "a1" {
			t.Fatalf("HistoryBefore(%d) = %v, want [q1 a1]", id, c)
		}
	}
	if got, err := db.HistoryBefore(ctx, q1.ID); err != nil || len(got) != 0 {
		t.Fatalf("HistoryBefore(the first message) = %v, %v", contents(got), err)
	}
}
