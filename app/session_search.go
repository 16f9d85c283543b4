package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"playchat/backend/store"
)

// SearchRequest is a search over every chat's messages (the Ctrl+K dialog).
type SearchRequest struct {
	// Query is what the user typed; every word must occur in a hit (after
	// NFKC and the knowledge base's Japanese analysis).
	Query string `json:"query"`
	// SessionID limits hits to one session ("" = every session).
	SessionID string `json:"sessionId"`
	// From and To limit hits to messages created in [From, To): RFC 3339
	// times ("" = open). The window sends local midnights in UTC.
	From string `json:"from"`
	To   string `json:"to"`
	// Limit is the most hits returned (0 = 50, at most 500).
	Limit int `json:"limit"`
}

// ExcerptPart is a piece of a hit's excerpt: plain text, or a match of the
// query (Match). The window renders parts as text, never as HTML.
type ExcerptPart struct {
	Text  string `json:"text"`
	Match bool   `json:"match"`
}

// SearchHit is one message a search found.
type SearchHit struct {
	SessionID    string `json:"sessionId"`
	SessionTitle string `json:"sessionTitle"`
	MessageID    int64  `json:"messageId"`
	// Role is "user", "assistant" or "system".
	Role string `json:"role"`
	// CreatedAt is when the message was stored (RFC 3339, UTC).
	CreatedAt string `json:"createdAt"`
	// Archived is true when the message was summarised into a memory.
	Archived bool `json:"archived"`
	// Excerpt is about 120 characters around the matches.
	Excerpt []ExcerptPart `json:"excerpt"`
}

// Search finds messages of every session (or of req.SessionID) holding
// every word of req.Query, the most recently stored first. A query without
// a word (empty, punctuation only) finds nothing. Its errors: an unreadable
// From/To, the database's.
func (s *SessionService) Search(req SearchRequest) ([]SearchHit, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	q := store.MessageSearch{Text: req.Query, SessionID: strings.TrimSpace(req.SessionID), Limit: req.Limit}
	if q.From, err = parseSearchTime("from", req.From); err != nil {
		return nil, err
	}
	if q.To, err = parseSearchTime("to", req.To); err != nil {
		return nil, err
	}
	hits, err := c.DB.SearchMessages(context.Background(), q)
	if errors.Is(err, store.ErrEmptySearch) {
		return []SearchHit{}, nil
	}
	if err != nil {
		return nil, err
	}
	return toSearchHits(hits), nil
}

func parseSearchTime(name, v string) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(v))
	if err != nil {
		return time.Time{}, fmt.Errorf("search %s: %q is not an RFC 3339 time", name, v)
	}
	return t.UTC(), nil
}

func toSearchHits(hits []store.MessageHit) []SearchHit {
	out := make([]SearchHit, len(hits))
	for i, h := range hits {
		parts := make([]ExcerptPart, len(h.Excerpt))
		for j, p := range h.Excerpt {
			parts[j] = ExcerptPart{Text: p.Text, Match: p.Match}
		}
		out[i] = SearchHit{
			SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID, Role: h.Role,
			CreatedAt: h.CreatedAt.UTC().Format(time.RFC3339Nano), Archived: h.Archived, Excerpt: parts,
		}
	}
	return out
}

// PrepareSearch indexes the messages stored since the last search (and, the
// first time, loads the Japanese dictionary), so the search the user is
// about to type answers at once. The window calls it when the search opens
// and does not wait for it; a search run meanwhile waits for it instead of
// doing the same work. Its errors are the database's and the dictionary's.
func (s *SessionService) PrepareSearch() error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	_, err = c.DB.IndexPendingMessages(context.Background())
	return err
}
