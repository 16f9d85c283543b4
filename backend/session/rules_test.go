package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

func TestTitleRulesAreTheWindowsForEveryTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  東京の天気  ":                    "東京の天気",
		"a\x1b[31mred\x1b[0m\x07\x00b": "a[31mred[0mb",
		"two\nlines\tand  spaces":      "two lines and spaces",
		"\u202eevil":                   "evil",
		"caf\xffe":                     "cafe",
	} {
		got, err := CleanTitle(in)
		if err != nil || got != want {
			t.Errorf("CleanTitle(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "  ", "\x1b\x07\x00", strings.Repeat("あ", MaxTitleRunes+1)} {
		if _, err := CleanTitle(in); apperr.CodeOf(err) != apperr.SessionTitleLength {
			t.Errorf("CleanTitle(%.20q…) error %v, want code %s", in, err, apperr.SessionTitleLength)
		}
	}
	if _, err := CleanTitle(strings.Repeat("あ", MaxTitleRunes)); err != nil {
		t.Errorf("a title of exactly %d characters: %v", MaxTitleRunes, err)
	}
}

func TestUserMessageRules(t *testing.T) {
	if err := CheckUserMessage(" \n"); !errors.Is(err, ErrEmptyMessage) {
		t.Errorf("blank: %v", err)
	}
	if err := CheckUserMessage(strings.Repeat("x", MaxMessageBytes+1)); apperr.CodeOf(err) != apperr.ChatMessageTooLong {
		t.Errorf("too long: %v", err)
	}
	if err := CheckUserMessage("ok\xff"); apperr.CodeOf(err) != apperr.ChatMessageNotUTF8 {
		t.Errorf("not UTF-8: %v", err)
	}
	if err := CheckUserMessage(strings.Repeat("x", MaxMessageBytes)); err != nil {
		t.Errorf("exactly 1 MiB: %v", err)
	}
}

// docWith returns a valid exported document of a seeded session, changed by edit.
func docWith(t *testing.T, edit func(d *Document)) []byte {
	t.Helper()
	db, id := seeded(t)
	data, err := ExportJSON(context.Background(), db, id)
	if err != nil {
		t.Fatal(err)
	}
	var d Document
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	edit(&d)
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// issue 8: a title with ESC, BEL and NUL and a length of 1 MiB was stored as
// it was. An import meets the rules of the window.
func TestImportAppliesTheWindowsRules(t *testing.T) {
	ctx := context.Background()
	huge := "\x1b]0;owned\x07\x00" + strings.Repeat("A", 1<<20)
	for name, tt := range map[string]struct {
		edit    func(d *Document)
		problem string
	}{
		"1 MiB title with ESC, BEL, NUL": {func(d *Document) { d.Session.Title = huge }, "session.title: a title needs 1 to 200 characters"},
		"user message over 1 MiB": {func(d *Document) {
			d.Messages[0].Content = strings.Repeat("x", MaxMessageBytes+1)
		}, "messages[0] (id 1) (user) is 1048577 bytes, over the 1 MiB limit of one message"},
		"blank user message":      {func(d *Document) { d.Messages[0].Content = "  " }, "messages[0]: the message is empty"},
		"model with an escape":    {func(d *Document) { d.Session.Model = "openai/\x1b[2Jgpt" }, "session.model contains control characters"},
		"tag with a control char": {func(d *Document) { d.Messages[1].Tags = []string{"a\x07"} }, "messages[1] has a tag that contains control characters"},
	} {
		t.Run(name, func(t *testing.T) {
			db, _ := seeded(t)
			before, _ := db.ListSessions(ctx)
			_, err := ImportReader(ctx, db, bytes.NewReader(docWith(t, tt.edit)))
			if !IsValidation(err) || !strings.Contains(err.Error(), tt.problem) {
				t.Fatalf("import error %v, want a validation problem %q", err, tt.problem)
			}
			if after, _ := db.ListSessions(ctx); len(after) != len(before) {
				t.Errorf("a refused import stored a session")
			}
		})
	}

	// A short title with control characters is cleaned like a typed one.
	db, _ := seeded(t)
	res, err := ImportReader(ctx, db, bytes.NewReader(docWith(t, func(d *Document) { d.Session.Title = "\x1b[31m赤\x1b[0m\x07\x00 い" })))
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.GetSession(ctx, res.Session.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "[31m赤[0m い" || strings.ContainsAny(got.Title, "\x1b\x07\x00") {
		t.Errorf("stored title %q, want the control characters removed", got.Title)
	}
	// An untitled session stays importable.
	if _, err := ImportReader(ctx, db, bytes.NewReader(docWith(t, func(d *Document) { d.Session.Title = "" }))); err != nil {
		t.Errorf("untitled session: %v", err)
	}
}
