package store

// MigrationMessageCreatedIndex indexes messages by when they were written
// (issue 29, message_search_plan.go): a search takes its newest matches by
// id from the full-text index and uses this index to find, within a few
// thousand entries, any older-id message written later (an import) that
// belongs among them, and to turn a date range into bounds on ids, instead
// of sorting every match by date.
const MigrationMessageCreatedIndex = "20261203000030_message_created_index"

// stepMessageCreatedIndex is MigrationMessageCreatedIndex's statements (registered in steps, migrations.go).
var stepMessageCreatedIndex = step{MigrationMessageCreatedIndex, []string{
	`CREATE INDEX ix_messages_created ON messages(created_at)`,
}}
