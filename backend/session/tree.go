package session

import (
	"context"

	"github.com/uptrace/bun"

	"playchat/backend/store"
)

// writeTree inserts msgs (rows of one new session, all with SessionID set)
// in order, linking each into the session's message tree: parent[i] is the
// index in msgs of message i's parent, -1 for a first message; it must be
// below i, so a parent is always stored (and numbered) before its children.
// A nil parent chains the messages (each under the one before it). The
// session's selected branch ends at msgs[leaf] (leaf < 0: the last
// message). It fills in each row's ID and ParentID and calls after(i, row)
// once row i is stored (for its tags).
func writeTree(ctx context.Context, tx bun.Tx, sessionID string, msgs []store.Message, parent []int, leaf int,
	after func(i int, row *store.Message) error) error {
	for i := range msgs {
		p := i - 1
		if parent != nil {
			p = parent[i]
		}
		if p >= 0 {
			id := msgs[p].ID
			msgs[i].ParentID = &id
		}
		if _, err := tx.NewInsert().Model(&msgs[i]).Exec(ctx); err != nil {
			return err
		}
		if after != nil {
			if err := after(i, &msgs[i]); err != nil {
				return err
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	if leaf < 0 || leaf >= len(msgs) {
		leaf = len(msgs) - 1
	}
	_, err := tx.NewUpdate().Table("sessions").Set("active_leaf_id = ?", msgs[leaf].ID).Where("id = ?", sessionID).Exec(ctx)
	return err
}
