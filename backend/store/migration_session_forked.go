package store

import "context"

// MigrationSessionForked marks the sessions whose messages branch
// (sessions.forked): a message with a sibling — the same parent, or a
// second first message — exists. A trigger keeps the mark when a sibling
// is inserted (regenerate, edit and resend, an import of branches); it is
// never cleared. Reading a session that has never forked needs no walk of
// the parent chain (branchIDs): its one branch is all its messages, so
// the turn's history and memories cost what they cost before messages
// formed a tree (issue 9: turn overhead unchanged).
const MigrationSessionForked = "20261201000014_session_forked"

func init() {
	steps = append(steps, step{MigrationSessionForked, []string{
		`ALTER TABLE sessions ADD COLUMN forked BOOLEAN NOT NULL DEFAULT 0`,
		`UPDATE sessions SET forked = 1 WHERE id IN (
			SELECT session_id FROM messages GROUP BY session_id, parent_id HAVING count(*) > 1)`,
		`CREATE TRIGGER messages_fork AFTER INSERT ON messages
			WHEN EXISTS (SELECT 1 FROM messages m WHERE m.parent_id IS new.parent_id
				AND m.session_id = new.session_id AND m.id <> new.id)
			BEGIN
				UPDATE sessions SET forked = 1 WHERE id = new.session_id AND forked = 0;
			END`,
	}})
}

// sessionForked reports whether reading the session's selected branch needs
// the walk of the parent chain (branchIDs): the session has branched
// (MigrationSessionForked), or its active leaf is not its newest message (a
// regenerate answers an earlier question before its reply exists). When it
// is false, the selected branch is all of the session's messages. An
// unknown session counts as forked, so callers take the general path and
// find nothing.
func (d *DB) sessionForked(ctx context.Context, sessionID string) (bool, error) {
	var forked []bool
	err := d.bun.NewSelect().Table("sessions").
		ColumnExpr(`forked OR (active_leaf_id IS NOT NULL AND active_leaf_id IS NOT
			(SELECT MAX(m.id) FROM messages m WHERE m.session_id = sessions.id))`).
		Where("id = ?", sessionID).Scan(ctx, &forked)
	if err != nil {
		return false, err
	}
	return len(forked) == 0 || forked[0], nil
}
