package store

// MigrationStreamingReplies adds messages.stream_owner (the owner id of a
// reply that is still streaming; "" otherwise) and a partial index of the
// streaming rows, so the start-up sweep reads only those.
const MigrationStreamingReplies = "20261202000018_streaming_replies"

// stepStreamingReplies is MigrationStreamingReplies's statements (registered in steps, migrations.go).
var stepStreamingReplies = step{MigrationStreamingReplies, []string{
	`ALTER TABLE messages ADD COLUMN stream_owner VARCHAR NOT NULL DEFAULT ''`,
	`CREATE INDEX ix_messages_streaming ON messages(stream_owner) WHERE status = 'streaming'`,
}}
