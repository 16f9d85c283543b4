package store

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/uptrace/bun"
	"golang.org/x/text/unicode/norm"
)

// Tags of messages and memories (MigrationTags): short words the tagger
// (backend/tagging) stores after a turn, shown under each message and found
// by a search for "#tag".

// AddMessageTags stores tags on the message; a tag it already has is
// skipped. Its errors are the database's (a missing message fails the
// foreign key).
func (d *DB) AddMessageTags(ctx context.Context, messageID int64, tags []string) error {
	if len(tags) == 0 {
		return nil
	}
	rows := make([]MessageTag, len(tags))
	for i, t := range tags {
		rows[i] = MessageTag{MessageID: messageID, Tag: t, CreatedAt: now()}
	}
	_, err := d.bun.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

// AddMemoryTags stores tags on the memory; a tag it already has is
// skipped. Its errors are the database's.
func (d *DB) AddMemoryTags(ctx context.Context, memoryID int64, tags []string) error {
	if len(tags) == 0 {
		return nil
	}
	rows := make([]MemoryTag, len(tags))
	for i, t := range tags {
		rows[i] = MemoryTag{MemoryID: memoryID, Tag: t, CreatedAt: now()}
	}
	_, err := d.bun.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

// UntaggedMessages returns up to limit user and assistant messages with
// text and without a tag, newest first (the tagger's backlog at start).
// Replies that failed with nothing written are left out, and so are
// replies still streaming (tagged once they are finished).
func (d *DB) UntaggedMessages(ctx context.Context, limit int) ([]Message, error) {
	var ms []Message
	err := d.bun.NewSelect().Model(&ms).
		Where("role IN (?)", bun.In([]string{RoleUser, RoleAssistant})).
		Where("trim(content) <> ''").Where("status <> ?", StatusStreaming).
		Where("NOT EXISTS (SELECT 1 FROM message_tags t WHERE t.message_id = message.id)").
		OrderExpr("id DESC").Limit(limit).Scan(ctx)
	return ms, err
}

// UntaggedMemories returns up to limit memories of the session ("" = of
// every session) without a tag, newest first.
func (d *DB) UntaggedMemories(ctx context.Context, sessionID string, limit int) ([]Memory, error) {
	var ms []Memory
	q := d.bun.NewSelect().Model(&ms).
		Where("NOT EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_id = memory.id)")
	if sessionID != "" {
		q = q.Where("session_id = ?", sessionID)
	}
	err := q.OrderExpr("id DESC").Limit(limit).Scan(ctx)
	return ms, err
}

// RecentMessages returns the newest limit user and assistant messages of
// the sessions sessionIDs that have text and are not still streaming,
// newest first (the word pool's seed); none for no session.
func (d *DB) RecentMessages(ctx context.Context, limit int, sessionIDs []string) ([]Message, error) {
	var ms []Message
	if len(sessionIDs) == 0 {
		return ms, nil
	}
	err := d.bun.NewSelect().Model(&ms).
		Where("session_id IN (?)", bun.In(sessionIDs)).
		Where("role IN (?)", bun.In([]string{RoleUser, RoleAssistant})).
		Where("trim(content) <> ''").Where("status <> ?", StatusStreaming).
		OrderExpr("id DESC").Limit(limit).Scan(ctx)
	return ms, err
}

// TaggedMessage is a message with its tags (RecentTaggedMessages).
type TaggedMessage struct {
	MessageID int64
	SessionID string
	Content   string
	CreatedAt time.Time
	// Tags in the order they were stored.
	Tags []string
}

// RecentTaggedMessages returns the newest limit messages of the sessions
// sessionIDs that have tags, newest first, with their tags (the tips'
// choice of a topic); none for no session.
func (d *DB) RecentTaggedMessages(ctx context.Context, limit int, sessionIDs []string) ([]TaggedMessage, error) {
	var ms []Message
	if len(sessionIDs) == 0 {
		return nil, nil
	}
	err := d.bun.NewSelect().Model(&ms).
		Where("message.session_id IN (?)", bun.In(sessionIDs)).
		Where("EXISTS (SELECT 1 FROM message_tags t WHERE t.message_id = message.id)").
		OrderExpr("id DESC").Limit(limit).Scan(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	tags, err := d.MessageTags(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]TaggedMessage, len(ms))
	for i, m := range ms {
		out[i] = TaggedMessage{MessageID: m.ID, SessionID: m.SessionID, Content: m.Content, CreatedAt: m.CreatedAt, Tags: tags[m.ID]}
	}
	return out, nil
}

// splitTagQuery takes the tag words out of a search: every
// whitespace-separated word that starts with '#' (or the full-width '＃')
// is a tag the hits must carry (compared case-insensitively for Latin
// letters); the rest is the text to look for. "#" alone is dropped.
// typing is true when the query ends in a tag still being typed (no space
// after it): that tag matches as a prefix ("#京" finds 京都), as a last
// Latin word does.
func splitTagQuery(text string) (rest string, tags []string, typing bool) {
	var words []string
	for _, w := range strings.Fields(text) {
		n := norm.NFKC.String(w)
		if strings.HasPrefix(n, "#") {
			if t := strings.TrimLeft(n, "#"); t != "" {
				tags = append(tags, t)
				typing = true
			}
			continue
		}
		words = append(words, w)
		typing = false
	}
	if len(tags) == 0 {
		return text, nil, false
	}
	typing = typing && strings.TrimRightFunc(text, unicode.IsSpace) == text
	rest = strings.Join(words, " ")
	if len(words) > 0 && strings.TrimRightFunc(text, unicode.IsSpace) != text {
		rest += " " // the last word is complete: no prefix match
	}
	return rest, tags, typing
}

// tagFilter is the condition "the message carries tag" (the prefix tag
// being typed when prefix): a range over the case-insensitive tag index.
func tagFilter(sel *bun.SelectQuery, tag string, prefix bool) *bun.SelectQuery {
	if !prefix {
		return sel.Where("m.id IN (SELECT message_id FROM message_tags WHERE tag = ? COLLATE NOCASE)", tag)
	}
	return sel.Where("m.id IN (SELECT message_id FROM message_tags WHERE tag >= ? COLLATE NOCASE AND tag < ? COLLATE NOCASE)",
		tag, tag+"\U0010FFFF")
}
