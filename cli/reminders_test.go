package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/reminders"
)

// withoutClock drops the reminders clock layer's system message, which
// every request carries (issue 10).
func withoutClock(ms []openai.ChatCompletionMessage) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, 0, len(ms))
	for _, m := range ms {
		if m.Role == "system" && strings.HasPrefix(m.Content, "# Current time\n") {
			continue
		}
		out = append(out, m)
	}
	return out
}

func TestRemindersAddListAndCancel(t *testing.T) {
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	zone := reminders.LocalZone() // what the CLI reads local times in
	// Noon two days ahead, with seconds: never in a DST gap or overlap.
	d := time.Now().In(zone).AddDate(0, 0, 2)
	due := time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 30, 0, zone)
	at := due.Format("2006-01-02T15:04:05")

	r := runCLI(t, env, "", "reminders", "add", "--at", at, "--repeat", "FREQ=DAILY", "燃えるゴミ", "を出す")
	if r.code != 0 || !strings.Contains(r.stdout, "[id 1] "+due.Format("2006-01-02 15:04:05")) ||
		!strings.Contains(r.stdout, "repeats FREQ=DAILY") || !strings.Contains(r.stdout, "燃えるゴミ を出す") {
		t.Fatalf("add: %+v", r)
	}
	r = runCLI(t, env, "", "reminders", "list", "--json")
	var rows []reminderRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || r.code != 0 {
		t.Fatalf("list --json: %+v (%v)", r, err)
	}
	if len(rows) != 1 || rows[0].ID != 1 || !rows[0].DueAt.Equal(due) || rows[0].Zone != zone.String() ||
		rows[0].Repeat != "FREQ=DAILY" || rows[0].State != "pending" || rows[0].Origin != "desktop" {
		t.Fatalf("rows = %+v", rows)
	}
	r = runCLI(t, env, "", "reminders", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "ID") || !strings.Contains(r.stdout, "燃えるゴミ を出す") {
		t.Fatalf("list: %+v", r)
	}

	r = runCLI(t, env, "", "reminders", "cancel", "1")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "cancelled: [id 1]") {
		t.Fatalf("cancel: %+v", r)
	}
	if r = runCLI(t, env, "", "reminders", "list", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Fatalf("list after cancel: %+v", r)
	}
	r = runCLI(t, env, "", "reminders", "list", "--all", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 1 || rows[0].State != "cancelled" || rows[0].CancelledAt == nil {
		t.Fatalf("list --all: %+v (%v)", r, err)
	}
	if r = runCLI(t, env, "", "reminders", "cancel", "1"); r.code != 1 || !strings.Contains(r.stderr, "reminder 1 is cancelled") {
		t.Fatalf("second cancel: %+v", r)
	}
}

func TestRemindersAddRefusesPastAndUnreadableTimes(t *testing.T) {
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	past := time.Now().In(reminders.LocalZone()).Add(-time.Hour).Format("2006-01-02T15:04")
	if r := runCLI(t, env, "", "reminders", "add", "--at", past, "x"); r.code != 1 || !strings.Contains(r.stderr, "is not in the future") {
		t.Errorf("past: %+v", r)
	}
	if r := runCLI(t, env, "", "reminders", "add", "--at", "tomorrow", "x"); r.code != 1 || !strings.Contains(r.stderr, "cannot read the due time") {
		t.Errorf("unreadable: %+v", r)
	}
	if r := runCLI(t, env, "", "reminders", "add", "x"); r.code != 2 {
		t.Errorf("no --at: %+v", r)
	}
	if r := runCLI(t, env, "", "reminders", "cancel", "abc"); r.code != 2 {
		t.Errorf("bad id: %+v", r)
	}
	if r := runCLI(t, env, "", "reminders", "list", "--json"); strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("refused reminders were stored: %+v", r)
	}
}
