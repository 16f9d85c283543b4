package session

import (
	"time"

	"playchat/backend/store"
)

// Summary is one session as a list shows it: the single row shape shared by
// the window (the app binds it directly; Wails generates session.Summary in
// frontend/wailsjs/go/models.ts), the "session" part of an export Document,
// and `playchat sessions list --json`. Times are UTC and encode as RFC 3339
// strings (hence ts_type, so the generated TypeScript says string).
type Summary struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Model     string    `json:"model"`
	CreatedAt time.Time `json:"createdAt" ts_type:"string"`
	UpdatedAt time.Time `json:"updatedAt" ts_type:"string"`
}

// SummaryOf is the summary of a stored session, its times in UTC.
func SummaryOf(s store.Session) Summary {
	return Summary{ID: s.ID, Title: s.Title, Model: s.Model, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
}
