package store

// MigrationKnowledgeUnsummarised lets learned knowledge be saved without the
// model's summary (issue 22): when the model does not follow the summary's
// layout, the entry is built from the search results themselves and marked
// summarised = 0, to be summarised later. The sources keep each result's
// snippet and date so that later summary has the results to work from.
// Existing entries were all summarised.
const MigrationKnowledgeUnsummarised = "20261201000020_knowledge_unsummarised"

// stepKnowledgeUnsummarised is MigrationKnowledgeUnsummarised's statements (registered in steps, migrations.go).
var stepKnowledgeUnsummarised = step{MigrationKnowledgeUnsummarised, []string{
	`ALTER TABLE knowledge_entries ADD COLUMN summarised INTEGER NOT NULL DEFAULT 1`,
	`ALTER TABLE knowledge_sources ADD COLUMN snippet TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE knowledge_sources ADD COLUMN published TEXT NOT NULL DEFAULT ''`,
}}
