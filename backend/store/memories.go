package store

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
)

// ErrArchiveConflict is returned when messages to archive are no longer all
// active (another summary took some of them first); nothing is changed.
var ErrArchiveConflict = fmt.Errorf("messages already archived")

// ArchiveIntoMemory stores summary as a new level-0 memory of the session and
// archives the given messages into it (archived_at, memory_id), in one
// transaction. Every id must be an active message of the session, else
// nothing changes and the error wraps ErrArchiveConflict.
func (d *DB) ArchiveIntoMemory(ctx context.Context, sessionID string, messageIDs []int64, summary string) (Memory, error) {
	if len(messageIDs) == 0 {
		return Memory{}, fmt.Errorf("archive: no messages")
	}
	t := now()
	mem := Memory{SessionID: sessionID, Summary: summary, MessageCount: len(messageIDs), CreatedAt: t}
	err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(&mem).Exec(ctx); err != nil {
			return err
		}
		res, err := tx.NewUpdate().Table("messages").Set("archived_at = ?", t).Set("memory_id = ?", mem.ID).
			Where("session_id = ? AND archived_at IS NULL AND id IN (?)", sessionID, bun.In(messageIDs)).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); int(n) != len(messageIDs) {
			return fmt.Errorf("archive %d messages, %d still active: %w", len(messageIDs), n, ErrArchiveConflict)
		}
		return nil
	})
	if err != nil {
		return Memory{}, err
	}
	return mem, nil
}

// MergeMemories summarises older memories again: it stores summary as a new
// memory one level above the highest merged one and points the merged rows at
// it (they are kept), in one transaction. Every id must be an unmerged memory
// of the session, else nothing changes and the error wraps ErrArchiveConflict.
func (d *DB) MergeMemories(ctx context.Context, sessionID string, ids []int64, summary string) (Memory, error) {
	if len(ids) < 2 {
		return Memory{}, fmt.Errorf("merge: need at least two memories")
	}
	var mem Memory
	err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		var olds []Memory
		if err := tx.NewSelect().Model(&olds).Where("session_id = ? AND merged_into IS NULL AND id IN (?)", sessionID, bun.In(ids)).
			Order("id").Scan(ctx); err != nil {
			return err
		}
		if len(olds) != len(ids) {
			return fmt.Errorf("merge %d memories, %d still unmerged: %w", len(ids), len(olds), ErrArchiveConflict)
		}
		count, level := 0, 0
		for _, o := range olds {
			count += o.MessageCount
			level = max(level, o.Level)
		}
		// The merged memory takes the creation time of the oldest one, so
		// memories stay in chronological order.
		mem = Memory{SessionID: sessionID, Summary: summary, MessageCount: count, Level: level + 1, CreatedAt: olds[0].CreatedAt}
		if _, err := tx.NewInsert().Model(&mem).Exec(ctx); err != nil {
			return err
		}
		_, err := tx.NewUpdate().Table("memories").Set("merged_into = ?", mem.ID).Where("id IN (?)", bun.In(ids)).Exec(ctx)
		return err
	})
	return mem, err
}

// ActiveMemories returns the session's memories that were not merged into a
// newer one, oldest first: long-term memory (context layer 4). Of a session
// whose messages branch (tree.go) only the memories of the selected branch
// count: those summarising (themselves or through the memories merged into
// them) a message on it, and those whose messages are gone; a summary of
// another branch's messages is left out.
func (d *DB) ActiveMemories(ctx context.Context, sessionID string) ([]Memory, error) {
	forked, err := d.sessionForked(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	var ms []Memory
	if !forked { // one branch: every unmerged memory is on it
		err = d.bun.NewSelect().Model(&ms).Where("session_id = ? AND merged_into IS NULL", sessionID).
			Order("created_at ASC", "id ASC").Scan(ctx)
		return ms, err
	}
	err = d.bun.NewSelect().Model(&ms).
		With("covers", d.bun.NewRaw(memoryCovers, sessionID)).
		Where("session_id = ? AND merged_into IS NULL", sessionID).
		WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("id IN (SELECT c.root FROM covers c WHERE c.id IN (SELECT x.memory_id FROM messages x "+
				"WHERE x.memory_id IS NOT NULL AND x.id IN ("+branchIDs+")))", sessionID).
				WhereOr("id NOT IN (SELECT c.root FROM covers c WHERE c.id IN (SELECT x.memory_id FROM messages x "+
					"WHERE x.session_id = ? AND x.archived_at IS NOT NULL AND x.memory_id IS NOT NULL))", sessionID)
		}).
		Order("created_at ASC", "id ASC").Scan(ctx)
	return ms, err
}

// memoryCovers pairs each unmerged memory of a session (root) with itself
// and every memory merged into it, directly or not (id).
const memoryCovers = `WITH RECURSIVE covers(root, id) AS (
		SELECT id, id FROM memories WHERE session_id = ? AND merged_into IS NULL
		UNION
		SELECT covers.root, m.id FROM memories m JOIN covers ON m.merged_into = covers.id
	) SELECT root, id FROM covers`

// SessionMemories returns every memory of the session, merged ones included.
func (d *DB) SessionMemories(ctx context.Context, sessionID string) ([]Memory, error) {
	var ms []Memory
	err := d.bun.NewSelect().Model(&ms).Where("session_id = ?", sessionID).Order("id ASC").Scan(ctx)
	return ms, err
}

// TitledMemory is a memory with its session's title.
type TitledMemory struct {
	Memory
	// SessionTitle is the title of the session the memory belongs to.
	SessionTitle string `bun:"title"`
}

// RecentMemories returns up to limit unmerged memories, newest first, each
// with its session's title: of one session when sessionID is not "", else
// of every session (the MCP server's search_memory reads them; limit > 0).
func (d *DB) RecentMemories(ctx context.Context, sessionID string, limit int) ([]TitledMemory, error) {
	var rows []TitledMemory
	sel := d.bun.NewSelect().TableExpr("memories AS m").
		ColumnExpr("m.id, m.session_id, m.summary, m.message_count, m.created_at, s.title").
		Join("JOIN sessions AS s ON s.id = m.session_id").
		Where("m.merged_into IS NULL").OrderExpr("m.created_at DESC, m.id DESC").Limit(limit)
	if sessionID != "" {
		sel = sel.Where("m.session_id = ?", sessionID)
	}
	err := sel.Scan(ctx, &rows)
	return rows, err
}

// DeleteMemory deletes one memory. Its messages stay archived (the user asked
// to forget the summary, not to bring the old messages back); memories merged
// into it become active again so nothing is silently lost.
func (d *DB) DeleteMemory(ctx context.Context, id int64) error {
	return d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewUpdate().Table("memories").Set("merged_into = NULL").Where("merged_into = ?", id).Exec(ctx); err != nil {
			return err
		}
		res, err := tx.NewDelete().Table("memories").Where("id = ?", id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("memory %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// MemoryTags returns the tags of the given memories, keyed by memory id.
func (d *DB) MemoryTags(ctx context.Context, ids []int64) (map[int64][]string, error) {
	out := map[int64][]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var tags []MemoryTag
	if err := d.bun.NewSelect().Model(&tags).Where("memory_id IN (?)", bun.In(ids)).Order("id").Scan(ctx); err != nil {
		return nil, err
	}
	for _, t := range tags {
		out[t.MemoryID] = append(out[t.MemoryID], t.Tag)
	}
	return out, nil
}
