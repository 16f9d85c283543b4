package store

// MigrationMessageSearchTerms keeps the words of message_fts that begin
// with a Latin letter or digit (issue 29, message_search_terms.go):
// message_search_terms lists every such token the index may hold (a
// superset: it is never pruned), so the Latin word still being typed at the
// end of a query ("serv") becomes the few words it begins ("server" OR
// "service") instead of an FTS5 prefix query, which merges the postings of
// every such word before it returns one row (100 ms at a million
// messages). Filled here from the index as it stands (fts5vocab), then by
// IndexPendingMessages.
const MigrationMessageSearchTerms = "20261203000032_message_search_terms"

// stepMessageSearchTerms is MigrationMessageSearchTerms's statements (registered in steps, migrations.go).
var stepMessageSearchTerms = step{MigrationMessageSearchTerms, []string{
	`CREATE TABLE message_search_terms (term TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID`,
	`CREATE VIRTUAL TABLE temp.message_fts_terms USING fts5vocab(main, message_fts, 'row')`,
	`INSERT OR IGNORE INTO message_search_terms (term)
			SELECT term FROM temp.message_fts_terms WHERE term >= '0' AND term < '{'`,
	`DROP TABLE temp.message_fts_terms`,
}}
