package store

// MigrationAssistants adds per-chat settings and assistants (issue 26):
//
//   - sessions.settings: the chat's own settings as JSON (ChatSettings:
//     system prompt, temperature, top-p, max output tokens, layers switched
//     off); "" = every default. The chat's model stays in sessions.model.
//   - sessions.assistant_id / assistant_version: the assistant the chat was
//     started from and the version of it the chat copied (the window offers
//     "apply the assistant's new version" when the assistant's version is
//     newer); NULL / 0 for a chat started without one. Deleting the
//     assistant leaves the chat's copy alone (ON DELETE SET NULL).
//   - assistants: named settings with an emoji icon, a description, pinned
//     note pages (JSON array of ids), a preferred knowledge-base folder, a
//     position in the user's order and a version bumped by every edit.
//     builtin_key names a built-in one ("translate", …) for as long as it
//     exists; the user may edit or delete it.
//   - assistant_seeds: the built-ins already seeded, one row each, so a
//     built-in is created once and a deleted one never comes back.
const MigrationAssistants = "20261202000023_assistants"

// stepAssistants is MigrationAssistants's statements (registered in steps, migrations.go).
var stepAssistants = step{MigrationAssistants, []string{
	`ALTER TABLE sessions ADD COLUMN settings TEXT NOT NULL DEFAULT ''`,
	`CREATE TABLE assistants (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			name VARCHAR NOT NULL,
			icon VARCHAR NOT NULL DEFAULT '',
			description TEXT NOT NULL DEFAULT '',
			settings TEXT NOT NULL DEFAULT '',
			note_page_ids TEXT NOT NULL DEFAULT '',
			kb_domain VARCHAR NOT NULL DEFAULT '',
			position INTEGER NOT NULL DEFAULT 0,
			version INTEGER NOT NULL DEFAULT 1,
			builtin_key VARCHAR NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL,
			updated_at DATETIME NOT NULL)`,
	`CREATE INDEX ix_assistants_position ON assistants(position, id)`,
	`ALTER TABLE sessions ADD COLUMN assistant_id INTEGER REFERENCES assistants(id) ON DELETE SET NULL`,
	`ALTER TABLE sessions ADD COLUMN assistant_version INTEGER NOT NULL DEFAULT 0`,
	`CREATE TABLE assistant_seeds (
			key VARCHAR NOT NULL PRIMARY KEY,
			seeded_at DATETIME NOT NULL)`,
}}
