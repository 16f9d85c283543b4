package app

import (
	"context"
	"testing"

	"playchat/backend/store"
)

// The window's message list marks an unanswered question (issue 21): one
// whose reply failed, and the last one when no turn answers it.
func TestMessagesMarkUnansweredQuestions(t *testing.T) {
	a, _ := newTestApp(t)
	ctx := context.Background()
	c := a.core
	sess, err := c.DB.CreateSession(ctx, "t", "openai/x")
	if err != nil {
		t.Fatal(err)
	}
	add := func(role, content, status string) {
		m := store.Message{SessionID: sess.ID, Role: role, Content: content, Status: status}
		if err := c.DB.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	add(store.RoleUser, "fails", store.StatusComplete)
	add(store.RoleAssistant, "", store.StatusError)
	add(store.RoleUser, "works", store.StatusComplete)
	add(store.RoleAssistant, "answer", store.StatusComplete)
	add(store.RoleUser, "never answered", store.StatusComplete)
	ms, err := (&SessionService{a}).Messages(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, m := range ms {
		got = append(got, m.Unanswered)
	}
	want := []bool{true, false, false, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("unanswered marks = %v, want %v", got, want)
		}
	}
}

// Issue 21: a password in a base URL is a secret: Settings shows the URL
// masked, and saving the form with the masked value keeps the password.
func TestSettingsMaskAPasswordInAURLAndKeepItOnSave(t *testing.T) {
	a, _ := newTestApp(t)
	s := &SettingsService{a}
	const url = "http://alice:s3cretPW42@127.0.0.1:8080/v1"
	v, err := s.Save(SettingsUpdate{Values: map[string]string{"OPENAI_BASE_URL": url}})
	if err != nil {
		t.Fatal(err)
	}
	if f := field(v, "OPENAI_BASE_URL"); f.Value != "http://alice:***@127.0.0.1:8080/v1" {
		t.Fatalf("shown as %q", f.Value)
	}
	if _, err := s.Save(SettingsUpdate{Values: map[string]string{"OPENAI_BASE_URL": "http://alice:***@127.0.0.1:8080/v1"}}); err != nil {
		t.Fatal(err)
	}
	if got := a.core.Config().OpenAIBaseURL; got != url {
		t.Fatalf("after saving the masked form: %q, want the password kept", got)
	}
	if _, err := s.Save(SettingsUpdate{Values: map[string]string{"OPENAI_BASE_URL": "http://bob:other@127.0.0.1:8080/v1"}}); err != nil {
		t.Fatal(err)
	}
	if got := a.core.Config().OpenAIBaseURL; got != "http://bob:other@127.0.0.1:8080/v1" {
		t.Fatalf("a new URL was not saved: %q", got)
	}
}

// Issue 22: drafts lived in WebKit's storage, shared by every data dir.
// They are kept in the data dir's database: one app's drafts are not
// another's, they survive a restart, and bad input changes nothing.
func TestDraftsStayWithTheirDataDir(t *testing.T) {
	a, _ := newTestApp(t)
	b, _ := newTestApp(t)
	da, db := &DraftService{a}, &DraftService{b}
	if err := da.Save("messages", `{"":"下書き","s1":"続き"}`); err != nil {
		t.Fatal(err)
	}
	if got, _ := da.Load("messages"); got != `{"":"下書き","s1":"続き"}` {
		t.Fatalf("Load = %q", got)
	}
	if got, _ := db.Load("messages"); got != "" {
		t.Fatalf("another data dir sees %q", got)
	}
	for _, bad := range []string{"not json", `["a"]`} {
		if err := da.Save("messages", bad); err == nil {
			t.Errorf("Save(%q) accepted", bad)
		}
	}
	if err := da.Save("passwords", "{}"); err == nil {
		t.Error("an unknown kind was accepted")
	}
	if got, _ := da.Load("messages"); got != `{"":"下書き","s1":"続き"}` {
		t.Fatalf("a refused save changed the drafts: %q", got)
	}
	if err := da.Save("messages", "{}"); err != nil {
		t.Fatal(err)
	}
	if got, _ := da.Load("messages"); got != "" {
		t.Fatalf("after clearing: %q", got)
	}
}
