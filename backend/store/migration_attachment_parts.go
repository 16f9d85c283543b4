package store

// MigrationAttachmentParts records which part of a document a message sent
// (issue 25): a PDF's page count (attachments.pages) and, per link, the
// pages or characters sent when the user chose to send only the part of a
// document that fits the model (message_attachments.sent_pages,
// sent_chars; 0 = the whole document).
const MigrationAttachmentParts = "20261203000026_attachment_parts"

// stepAttachmentParts is MigrationAttachmentParts's statements (registered in steps, migrations.go).
var stepAttachmentParts = step{MigrationAttachmentParts, []string{
	`ALTER TABLE attachments ADD COLUMN pages INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE message_attachments ADD COLUMN sent_pages INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE message_attachments ADD COLUMN sent_chars INTEGER NOT NULL DEFAULT 0`,
}}
