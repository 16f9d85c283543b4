package interop

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/jatext"
	"playchat/backend/store"
)

// Limits of the chat and memory searches.
const (
	DefaultChatLimit   = 20
	MaxChatLimit       = 100
	DefaultMemoryLimit = 10
	MaxMemoryLimit     = 50
	// maxMemoriesScanned caps the memories search_memory reads.
	maxMemoriesScanned = 20000
)

// SearchChatsInput is search_chats' input.
type SearchChatsInput struct {
	Query string `json:"query" jsonschema:"words every hit must hold (Japanese is segmented; #tag matches a tag)"`
	Limit int    `json:"limit,omitempty" jsonschema:"most hits, 1-100 (default 20)"`
}

// ChatHit is one message found by SearchChats.
type ChatHit struct {
	SessionID    string    `json:"session_id"`
	SessionTitle string    `json:"session_title"`
	MessageID    int64     `json:"message_id"`
	Role         string    `json:"role" jsonschema:"user, assistant or system"`
	CreatedAt    time.Time `json:"created_at" jsonschema:"when the message was stored, RFC 3339 UTC"`
	Archived     bool      `json:"archived" jsonschema:"true when the message was summarised into a memory"`
	// Excerpt is about 120 characters around the matches, «marked».
	Excerpt string `json:"excerpt" jsonschema:"about 120 characters around the matches, «marked»"`
}

// ChatHits is search_chats' result.
type ChatHits struct {
	Hits []ChatHit `json:"hits" jsonschema:"the most recently stored first"`
}

// SearchChats finds messages of every chat holding every word of the
// query, the most recently stored first (the window's Ctrl+K search).
// Errors: InteropBadArgument for an empty query or a limit outside 1–100.
func (s *Service) SearchChats(ctx context.Context, in SearchChatsInput) (ChatHits, error) {
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return ChatHits{}, badArg("query", "empty")
	}
	if utf8.RuneCountInString(q) > store.MaxSearchQueryRunes {
		return ChatHits{}, badArg("query", "longer than "+itoa(store.MaxSearchQueryRunes)+" characters")
	}
	n, err := limit("limit", in.Limit, DefaultChatLimit, MaxChatLimit)
	if err != nil {
		return ChatHits{}, err
	}
	hits, err := s.o.DB.SearchMessages(ctx, store.MessageSearch{Text: q, Limit: n})
	if errors.Is(err, store.ErrEmptySearch) {
		return ChatHits{Hits: []ChatHit{}}, nil
	}
	if err != nil {
		return ChatHits{}, err
	}
	out := ChatHits{Hits: make([]ChatHit, 0, len(hits))}
	for _, h := range hits {
		out.Hits = append(out.Hits, ChatHit{SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID,
			Role: h.Role, CreatedAt: h.CreatedAt.UTC(), Archived: h.Archived, Excerpt: h.ExcerptText("«", "»")})
	}
	return out, nil
}

// SearchMemoryInput is search_memory's input.
type SearchMemoryInput struct {
	Query     string `json:"query" jsonschema:"what to look for in the long-term memories (summaries of older messages)"`
	SessionID string `json:"session_id,omitempty" jsonschema:"only the memories of this chat; omit for all chats"`
	Limit     int    `json:"limit,omitempty" jsonschema:"most memories, 1-50 (default 10)"`
}

// MemoryHit is one long-term memory found by SearchMemory.
type MemoryHit struct {
	ID           int64     `json:"id"`
	SessionID    string    `json:"session_id"`
	SessionTitle string    `json:"session_title"`
	Summary      string    `json:"summary"`
	Messages     int       `json:"messages" jsonschema:"number of messages it summarises"`
	CreatedAt    time.Time `json:"created_at"`
	// Score is the share, in (0, 1], of the query's words the summary holds.
	Score float64 `json:"score" jsonschema:"share of the query's words the summary holds, 0-1"`
}

// MemoryHits is search_memory's result.
type MemoryHits struct {
	Memories []MemoryHit `json:"memories" jsonschema:"best first, then newest"`
}

// SearchMemory ranks the active long-term memories (of one session, or of
// all) by the share of the query's words their summary holds — whole words
// after the same Japanese-aware analysis as the knowledge base, so "the"
// never matches inside "other". Memories holding none are left out. Errors:
// InteropBadArgument for an empty query, InteropNoSession for an unknown
// session.
func (s *Service) SearchMemory(ctx context.Context, in SearchMemoryInput) (MemoryHits, error) {
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return MemoryHits{}, badArg("query", "empty")
	}
	if utf8.RuneCountInString(q) > MaxQueryRunes {
		return MemoryHits{}, badArg("query", "longer than "+itoa(MaxQueryRunes)+" characters")
	}
	n, err := limit("limit", in.Limit, DefaultMemoryLimit, MaxMemoryLimit)
	if err != nil {
		return MemoryHits{}, err
	}
	sid := strings.TrimSpace(in.SessionID)
	if sid != "" {
		if _, err := s.o.DB.GetSession(ctx, sid); errors.Is(err, store.ErrNotFound) {
			return MemoryHits{}, apperr.New(apperr.InteropNoSession, map[string]any{"session": sid})
		} else if err != nil {
			return MemoryHits{}, err
		}
	}
	terms, err := jatext.QueryTerms(q)
	if err != nil {
		return MemoryHits{}, err
	}
	if len(terms) == 0 {
		return MemoryHits{Memories: []MemoryHit{}}, nil
	}
	rows, err := s.o.DB.RecentMemories(ctx, sid, maxMemoriesScanned)
	if err != nil {
		return MemoryHits{}, err
	}
	out := MemoryHits{Memories: []MemoryHit{}}
	for _, r := range rows {
		seg, err := jatext.Segment(r.Summary)
		if err != nil {
			return MemoryHits{}, err
		}
		words := map[string]bool{}
		for w := range strings.FieldsSeq(seg) {
			words[w] = true
		}
		matched := 0
		for _, t := range terms {
			if words[t.Key] {
				matched++
			}
		}
		if matched == 0 {
			continue
		}
		out.Memories = append(out.Memories, MemoryHit{ID: r.ID, SessionID: r.SessionID, SessionTitle: r.SessionTitle,
			Summary: r.Summary, Messages: r.MessageCount, CreatedAt: r.CreatedAt.UTC(),
			Score: float64(matched) / float64(len(terms))})
	}
	sort.SliceStable(out.Memories, func(i, j int) bool { return out.Memories[i].Score > out.Memories[j].Score })
	if len(out.Memories) > n {
		out.Memories = out.Memories[:n]
	}
	return out, nil
}
