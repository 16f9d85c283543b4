package store

// MigrationMessageForkTrigger rewrites the trigger of MigrationSessionForked
// (same condition, same effect) so that SQLite looks a new message's
// siblings up by parent (ix_messages_parent) instead of reading every
// message of its session: the old form cost each insert a walk of its
// session, 10,000 rows in a long chat (issue 29: a million-message import
// took minutes). A session's first message still looks in its session, by
// ix_messages_session (a parent index walk there would read the first
// message of every session).
const MigrationMessageForkTrigger = "20261203000031_message_fork_trigger"

// stepMessageForkTrigger is MigrationMessageForkTrigger's statements (registered in steps, migrations.go).
var stepMessageForkTrigger = step{MigrationMessageForkTrigger, []string{
	`DROP TRIGGER IF EXISTS messages_fork`,
	`CREATE TRIGGER messages_fork AFTER INSERT ON messages
			WHEN (new.parent_id IS NOT NULL AND EXISTS (SELECT 1 FROM messages m
					WHERE m.parent_id = new.parent_id AND +m.session_id = new.session_id AND m.id <> new.id))
				OR (new.parent_id IS NULL AND EXISTS (SELECT 1 FROM messages m
					WHERE m.session_id = new.session_id AND +m.parent_id IS NULL AND m.id <> new.id))
			BEGIN
				UPDATE sessions SET forked = 1 WHERE id = new.session_id AND forked = 0;
			END`,
}}
