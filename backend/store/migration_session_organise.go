package store

// MigrationSessionOrganise adds pins, folders and the archive of chats
// (issue 27, organise.go). They live in their own tables, apart from the
// sessions row: folders (name, position) and session_places (one row per
// chat that is pinned, in a folder or archived). Deleting a folder sets
// its chats' folder_id to NULL (they move to the top level, never
// deleted); deleting a chat drops its place.
const MigrationSessionOrganise = "20261202000020_session_organise"

// stepSessionOrganise is MigrationSessionOrganise's statements (registered in steps, migrations.go).
var stepSessionOrganise = step{MigrationSessionOrganise, []string{
	`CREATE TABLE folders (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			name VARCHAR NOT NULL,
			position INTEGER NOT NULL DEFAULT 0,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
	`CREATE TABLE session_places (
			session_id VARCHAR NOT NULL PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
			pinned_at DATETIME,
			folder_id INTEGER REFERENCES folders(id) ON DELETE SET NULL,
			archived_at DATETIME)`,
	`CREATE INDEX session_places_folder ON session_places(folder_id)`,
}}
