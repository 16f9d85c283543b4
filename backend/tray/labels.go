package tray

import (
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/reminders"
)

// labels are the tray's words in one language.
type labels struct {
	Open, NewChat, Pause, Quit, NoReminders string
	// PausedUntil has one %s: the local time the pause ends ("15:04").
	PausedUntil string
	// Tooltip is the icon's tooltip; TooltipUnseen has one %d: reminders
	// delivered while the window was hidden.
	Tooltip, TooltipUnseen string
	Today                  string
}

var labelsEN = labels{
	Open:          "Open playchat",
	NewChat:       "New chat",
	Pause:         "Pause notifications for 1 hour",
	PausedUntil:   "Notifications paused until %s (click to resume)",
	Quit:          "Quit",
	NoReminders:   "No upcoming reminders",
	Tooltip:       "playchat",
	TooltipUnseen: "playchat: %d new reminder(s)",
	Today:         "Today",
}

var labelsJA = labels{
	Open:          "playchat を開く",
	NewChat:       "新しいチャット",
	Pause:         "通知を 1 時間止める",
	PausedUntil:   "通知を %s まで停止中（クリックで再開）",
	Quit:          "終了",
	NoReminders:   "予定のリマインドはありません",
	Tooltip:       "playchat",
	TooltipUnseen: "playchat: 新しいリマインド %d 件",
	Today:         "今日",
}

// labelsFor returns the labels of lang ("ja" → Japanese, anything else →
// English).
func labelsFor(lang string) labels {
	if lang == "ja" {
		return labelsJA
	}
	return labelsEN
}

// maxReminderRunes caps a reminder's text in the menu, in characters.
const maxReminderRunes = 40

// reminderLabel words an upcoming reminder for the menu: its local due
// time ("Today 09:00" today, else "12/24 09:00") and its text cut to
// maxReminderRunes characters on one line.
func reminderLabel(r reminders.Reminder, now time.Time, loc *time.Location, l labels) string {
	due := r.DueAt.In(loc)
	n := now.In(loc)
	when := due.Format("1/2 15:04")
	if due.Year() == n.Year() && due.YearDay() == n.YearDay() {
		when = l.Today + " " + due.Format("15:04")
	}
	text := strings.Join(strings.Fields(r.Content), " ")
	if utf8.RuneCountInString(text) > maxReminderRunes {
		text = string([]rune(text)[:maxReminderRunes-1]) + "…"
	}
	return when + "  " + text
}

// unseen counts the reminders delivered (or that failed) at or after since: the
// ones the person has not seen in the window because it was hidden. A zero
// since (the window is shown) counts none.
func unseen(rs []reminders.Reminder, since time.Time) int {
	if since.IsZero() {
		return 0
	}
	n := 0
	for _, r := range rs {
		shown := r.NotifiedAt != nil && !r.NotifiedAt.Before(since)
		failed := r.State == reminders.StateFailed && r.UpdatedAt != nil && !r.UpdatedAt.Before(since)
		if shown || failed {
			n++
		}
	}
	return n
}
