package store

import (
	"context"
	"slices"
	"testing"

	"playchat/backend/jatext"
)

func TestLatinTokensListEveryPossibleTokenBeginningWithALatinLetter(t *testing.T) {
	for _, tc := range []struct {
		term string
		want []string
	}{
		{"server", []string{"server"}},
		{"v-if", []string{"v", "if"}},
		{"node.js", []string{"node", "js"}},
		// é may be a letter (one token) or not: both readings.
		{"servé", []string{"serv", "servé"}},
		{"naïve2", []string{"na", "naïve2", "ve2"}},
		{"日本go", []string{"go"}},
		{"漱石", nil},
	} {
		if got := latinTokens(nil, tc.term); !slices.Equal(got, tc.want) {
			t.Errorf("latinTokens(%q) = %q, want %q", tc.term, got, tc.want)
		}
	}
}

// TestTypedPrefixFindsWhatTheFTS5PrefixQueryFinds compares a query ending
// in a Latin word being typed with the FTS5 prefix query it replaces, over
// words that split into several tokens, accented words and width
// variants, for messages indexed before the terms table existed (filled by
// its migration) and after.
func TestTypedPrefixFindsWhatTheFTS5PrefixQueryFinds(t *testing.T) {
	ctx := context.Background()
	old, path := openAt(t, MigrationMessageCreatedIndex)
	contents := []string{
		"the server is down", "ｓｅｒｖｉｃｅ restarted", "servé chaud", "serv-x broke", "v-if and v-for",
		"naïve approach", "node.js サーバー", "猫の server 写真", "observe it", "SERVER CAPS",
	}
	insert := func(db *DB, session string, texts []string) {
		t.Helper()
		if _, err := db.Bun().ExecContext(ctx, `INSERT OR IGNORE INTO sessions (id, title) VALUES (?, '')`, session); err != nil {
			t.Fatal(err)
		}
		for _, c := range texts {
			if _, err := db.Bun().ExecContext(ctx, `INSERT INTO messages (session_id, role, content) VALUES (?, 'user', ?)`, session, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	insert(old, "before", contents[:5])
	// Indexed as the version before the terms table did.
	var queued []pendingMessage
	if err := old.Bun().NewRaw(`SELECT m.id, m.content FROM messages m JOIN message_search_pending p ON p.message_id = m.id`).Scan(ctx, &queued); err != nil {
		t.Fatal(err)
	}
	for _, m := range queued {
		terms, err := jatext.Segment(m.Content)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.Bun().ExecContext(ctx, `INSERT INTO message_fts (rowid, terms) VALUES (?, ?)`, m.ID, terms); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := old.Bun().ExecContext(ctx, `DELETE FROM message_search_pending`); err != nil {
		t.Fatal(err)
	}
	old.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	insert(db, "after", contents[5:])
	for _, text := range []string{"serv", "se", "server", "servé", "v", "na", "nai", "node", "js", "obs", "写真 serv", "zzz", "サーバー no"} {
		got := hitIDs(search(t, db, MessageSearch{Text: text}))
		want := referenceSearch(t, db, MessageSearch{Text: text}, DefaultSearchLimit)
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %v, want %v (the FTS5 prefix query)", text, got, want)
		}
	}
	if hits := search(t, db, MessageSearch{Text: "serv"}); len(hits) < 5 {
		t.Fatalf("serv found %d messages, want server, service, servé, serv-x and SERVER", len(hits))
	}
}
