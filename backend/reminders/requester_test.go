package reminders

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/tools"
)

// runToolAs runs a reminder tool as the Discord user q (nil = the window).
func runToolAs(t *testing.T, svc *Service, q *tools.Requester, name, args string) (string, error) {
	t.Helper()
	for _, tl := range Tools(svc) {
		if tl.Name == name {
			res, err := tl.Run(context.Background(), tools.Call{SessionID: "s-discord", Args: json.RawMessage(args), Requester: q})
			return res.Content, err
		}
	}
	t.Fatalf("no tool %s", name)
	return "", nil
}

var (
	hana = &tools.Requester{Origin: "discord", ChannelID: "chan-1", UserID: "111", UserName: "hana"}
	ken  = &tools.Requester{Origin: "discord", ChannelID: "chan-1", UserID: "222", UserName: "ken"}
)

func TestCreateReminderFromDiscordStoresTheRequestersChannelAndUser(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	if _, err := runToolAs(t, svc, hana, CreateReminderTool, `{"content":"お茶","due":"2026-12-01T09:00:03"}`); err != nil {
		t.Fatal(err)
	}
	rs, err := svc.List(context.Background(), ListOptions{})
	if err != nil || len(rs) != 1 {
		t.Fatalf("list = %v, %v", rs, err)
	}
	r := rs[0]
	if r.Origin != OriginDiscord || r.ChannelID != "chan-1" || r.UserID != "111" || r.UserName != "hana" ||
		r.SessionID != "s-discord" || r.State != StatePending || !r.DueAt.Equal(utc("2026-12-01T00:00:03Z")) {
		t.Errorf("stored %+v", r)
	}
}

func TestDiscordRemindersAreValidatedLikeTheDesktops(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z") // 09:00 JST
	cases := map[string]apperr.Code{
		`{"content":"x","due":"2026-12-01T08:59:59"}`: apperr.ReminderDuePast,
		`{"content":"x","due":"2027-12-02T09:00"}`:    apperr.ReminderDueTooFar,
		`{"content":"x","due":"あした"}`:                 apperr.ReminderDueUnparsable,
	}
	for args, code := range cases {
		_, derr := runToolAs(t, svc, hana, CreateReminderTool, args)
		_, werr := runToolAs(t, svc, nil, CreateReminderTool, args)
		if apperr.CodeOf(derr) != code || derr == nil || werr == nil || derr.Error() != werr.Error() {
			t.Errorf("%s: discord %v, desktop %v, want both %s with the same text", args, derr, werr, code)
		}
	}
	if rs, _ := svc.List(context.Background(), ListOptions{All: true}); len(rs) != 0 {
		t.Errorf("refused reminders were stored: %v", rs)
	}
}

func TestDiscordUsersListAndCancelOnlyTheirOwnReminders(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	mustRun := func(q *tools.Requester, name, args string) string {
		t.Helper()
		out, err := runToolAs(t, svc, q, name, args)
		if err != nil {
			t.Fatalf("%s %s: %v", name, args, err)
		}
		return out
	}
	mustRun(hana, CreateReminderTool, `{"content":"hana の薬","due":"2026-12-01T10:00"}`)    // id 1
	mustRun(ken, CreateReminderTool, `{"content":"ken の会議","due":"2026-12-01T11:00"}`)     // id 2
	mustRun(nil, CreateReminderTool, `{"content":"desktop の洗濯","due":"2026-12-01T12:00"}`) // id 3

	out := mustRun(hana, ListRemindersTool, `{}`)
	if !strings.Contains(out, "hana の薬") || strings.Contains(out, "ken の会議") || strings.Contains(out, "desktop の洗濯") {
		t.Errorf("hana's list = %q", out)
	}
	if out := mustRun(&tools.Requester{Origin: "discord", UserID: "333"}, ListRemindersTool, `{}`); out != "No pending reminders." {
		t.Errorf("a user with no reminders sees %q", out)
	}
	if out := mustRun(&tools.Requester{Origin: "discord"}, ListRemindersTool, `{}`); out != "No pending reminders." {
		t.Errorf("a requester without a user id sees %q", out)
	}
	// The window sees all three.
	if out := mustRun(nil, ListRemindersTool, `{}`); !strings.HasPrefix(out, "3 pending reminders") {
		t.Errorf("desktop list = %q", out)
	}

	// ken cancelling hana's reminder gets the answer of a missing id.
	_, other := runToolAs(t, svc, ken, CancelReminderTool, `{"id":1}`)
	_, missing := runToolAs(t, svc, ken, CancelReminderTool, `{"id":99}`)
	if apperr.CodeOf(other) != apperr.ReminderNotFound || apperr.CodeOf(missing) != apperr.ReminderNotFound ||
		strings.ReplaceAll(missing.Error(), "99", "1") != other.Error() {
		t.Errorf("cancel of another's id: %v; of a missing id: %v", other, missing)
	}
	// Nor can he cancel a desktop reminder.
	if _, err := runToolAs(t, svc, ken, CancelReminderTool, `{"id":3}`); apperr.CodeOf(err) != apperr.ReminderNotFound {
		t.Errorf("ken cancelling a desktop reminder: %v", err)
	}
	if r, _ := svc.Get(context.Background(), 1); r.State != StatePending {
		t.Errorf("hana's reminder after ken's cancel = %s", r.State)
	}
	if out := mustRun(hana, CancelReminderTool, `{"id":1}`); !strings.Contains(out, "hana の薬") {
		t.Errorf("hana's cancel = %q", out)
	}
	// The window cancels anyone's.
	if out := mustRun(nil, CancelReminderTool, `{"id":2}`); !strings.Contains(out, "ken の会議") {
		t.Errorf("desktop cancel = %q", out)
	}
}
