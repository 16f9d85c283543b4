package store

// MigrationAttachments adds attachments (issue 25, attachments.go):
//
//   - attachments: one row per stored file, named by the SHA-256 of its
//     bytes (the file is attachments/<sha[:2]>/<sha> beside the database):
//     its kind (image, text), media type, stored size, an image's pixel
//     size and a document's text.
//   - message_attachments: which message carries which file, under which
//     name, in which position. Deleting a message (or its session) deletes
//     its links; a file no link refers to is removed by SweepAttachments.
//     A file still linked cannot be deleted (the foreign key refuses).
const MigrationAttachments = "20261202000025_attachments"

// stepAttachments is MigrationAttachments's statements (registered in steps, migrations.go).
var stepAttachments = step{MigrationAttachments, []string{
	`CREATE TABLE attachments (
			sha256 VARCHAR PRIMARY KEY,
			kind VARCHAR NOT NULL,
			mime VARCHAR NOT NULL,
			size INTEGER NOT NULL,
			width INTEGER NOT NULL DEFAULT 0,
			height INTEGER NOT NULL DEFAULT 0,
			text TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL)`,
	`CREATE TABLE message_attachments (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
			sha256 VARCHAR NOT NULL REFERENCES attachments(sha256),
			name VARCHAR NOT NULL,
			original_size INTEGER NOT NULL DEFAULT 0,
			position INTEGER NOT NULL DEFAULT 0)`,
	`CREATE INDEX ix_message_attachments_message ON message_attachments(message_id, position)`,
	`CREATE INDEX ix_message_attachments_sha ON message_attachments(sha256)`,
}}
