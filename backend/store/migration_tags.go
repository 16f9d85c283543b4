package store

// MigrationTags readies message_tags and memory_tags (tables of the first
// schema, filled until now only by session import) for automatic tagging
// (backend/tagging, issue 13): a tag is kept once per message or memory
// (duplicates an import may have stored are dropped, the oldest row
// kept), and an index on tag (case-insensitive for Latin letters) serves the search by tag ("#tag"). The rows
// go with their message or memory through the tables' ON DELETE CASCADE:
// deleting a session, a branch or a memory deletes their tags.
const MigrationTags = "20261201000017_tags"

// stepTags is MigrationTags's statements (registered in steps, migrations.go).
var stepTags = step{MigrationTags, []string{
	`DELETE FROM message_tags WHERE id NOT IN (SELECT MIN(id) FROM message_tags GROUP BY message_id, tag)`,
	`DELETE FROM memory_tags WHERE id NOT IN (SELECT MIN(id) FROM memory_tags GROUP BY memory_id, tag)`,
	`CREATE UNIQUE INDEX ux_message_tags ON message_tags(message_id, tag)`,
	`CREATE UNIQUE INDEX ux_memory_tags ON memory_tags(memory_id, tag)`,
	`CREATE INDEX ix_message_tags_tag ON message_tags(tag COLLATE NOCASE)`,
	`CREATE INDEX ix_memory_tags_tag ON memory_tags(tag COLLATE NOCASE)`,
}}
