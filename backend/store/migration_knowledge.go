package store

// MigrationKnowledge gives learned knowledge (issue 11, backend/knowledge)
// what the original's knowledge_entries lacked: the entry's heading (layer 1
// lists it), the normalised query it answers (reuse within
// KNOWLEDGE_REUSE_DAYS), the model that summarised it, the search provider,
// the Markdown file under knowledge_base/web_search/ with its content hash,
// and when its results were fetched and the entry last changed; sources keep
// their order. Existing rows get their query as heading and a lower-cased
// query as the normalised one. A reply keeps the pages its turn cited
// (messages.sources, a JSON array of {title, url}; "" when none), so its
// source chips survive a reload and an export.
const MigrationKnowledge = "20261201000013_knowledge"

// The step is appended here rather than in migrations.go's literal so the
// knowledge work stays in its own file; newMigrations sorts steps by name.
// stepKnowledge is MigrationKnowledge's statements (registered in steps, migrations.go).
var stepKnowledge = step{MigrationKnowledge, []string{
	`ALTER TABLE knowledge_entries ADD COLUMN heading TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_entries ADD COLUMN norm_query TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_entries ADD COLUMN model VARCHAR NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_entries ADD COLUMN provider VARCHAR NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_entries ADD COLUMN file_path VARCHAR NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_entries ADD COLUMN content_hash VARCHAR NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_entries ADD COLUMN fetched_at DATETIME`,
	`ALTER TABLE knowledge_entries ADD COLUMN updated_at DATETIME`,
	`UPDATE knowledge_entries SET heading = substr(trim(query), 1, 200), norm_query = lower(trim(query)),
			fetched_at = created_at, updated_at = created_at`,
	`ALTER TABLE knowledge_sources ADD COLUMN position INTEGER NOT NULL DEFAULT 0`,
	`CREATE INDEX ix_knowledge_entries_norm_query ON knowledge_entries(norm_query, fetched_at)`,
	`CREATE INDEX ix_knowledge_entries_created ON knowledge_entries(created_at, id)`,
	`CREATE INDEX ix_knowledge_sources_entry ON knowledge_sources(entry_id, position)`,
	`ALTER TABLE messages ADD COLUMN sources TEXT NOT NULL DEFAULT ''`,
}}
