package store

// MigrationSessionForked marks the sessions whose messages branch
// (sessions.forked): a message with a sibling — the same parent, or a
// second first message — exists. A trigger keeps the mark when a sibling
// is inserted (regenerate, edit and resend, an import of branches); it is
// never cleared. Reading a session that has never forked needs no walk of
// the parent chain (branchIDs): its one branch is all its messages, so
// the turn's history and memories cost what they cost before messages
// formed a tree (issue 9: turn overhead unchanged).
const MigrationSessionForked = "20261201000014_session_forked"

// stepSessionForked is MigrationSessionForked's statements (registered in steps, migrations.go).
var stepSessionForked = step{MigrationSessionForked, []string{
	`ALTER TABLE sessions ADD COLUMN forked BOOLEAN NOT NULL DEFAULT 0`,
	`UPDATE sessions SET forked = 1 WHERE id IN (
			SELECT session_id FROM messages GROUP BY session_id, parent_id HAVING count(*) > 1)`,
	`CREATE TRIGGER messages_fork AFTER INSERT ON messages
			WHEN EXISTS (SELECT 1 FROM messages m WHERE m.parent_id IS new.parent_id
				AND m.session_id = new.session_id AND m.id <> new.id)
			BEGIN
				UPDATE sessions SET forked = 1 WHERE id = new.session_id AND forked = 0;
			END`,
}}
