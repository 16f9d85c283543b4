package store

// MigrationDrafts keeps what the window has not sent or saved yet — the
// message box of each chat, unsaved note edits — in the data dir's
// database (issue 22: they lived in WebKit's storage, shared by every data
// dir, so one data dir's drafts showed up in another).
const MigrationDrafts = "20261201000022_drafts"

// stepDrafts is MigrationDrafts's statements (registered in steps, migrations.go).
var stepDrafts = step{MigrationDrafts, []string{
	`CREATE TABLE drafts (
			kind VARCHAR NOT NULL PRIMARY KEY,
			data TEXT NOT NULL,
			updated_at DATETIME NOT NULL)`,
}}
