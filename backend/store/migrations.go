package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"
)

// Migration names, in order. A database at any of them opens and migrates to
// the last one. Later work appends to this list; never edit a shipped step.
const (
	// MigrationOriginal creates the tables of the original FastAPI app
	// (seeds/architecture-ja.md, "DB テーブル") with their original columns.
	MigrationOriginal = "20261129000001_original_schema"
	// MigrationDesign applies DESIGN.md §3: message status, model, token
	// counts and archiving; float32 BLOB embeddings; indexes.
	MigrationDesign = "20261129000002_design_changes"
	// MigrationKBIndex adds the local knowledge base's index (issue 4):
	// per-document status, per-section chunks with their embeddings, and
	// an FTS5 table of kagome-segmented text for BM25 (backend/kb).
	MigrationKBIndex = "20261129000003_kb_index"
	// MigrationToolActivity stores the tool activity of a reply with it, so
	// a reloaded session still shows what ran (issue 3).
	MigrationToolActivity = "20261129000004_message_tool_activity"
	// MigrationNoteVersion gives each note page a version (issue 7): 1 for
	// every existing page, bumped by every change of its title or content,
	// so a save from a draft that began at an older version is refused
	// instead of overwriting the change it never saw.
	MigrationNoteVersion = "20261130000005_note_page_version"
	// MigrationMessageErrorInfo stores a failed reply's error with its code
	// and params (issue 8), so a reloaded session words it in the UI language.
	MigrationMessageErrorInfo = "20261130000006_message_error_info"
	// MigrationSummaryBackoff keeps each session's failing-summary state
	// (issue 8): how many summaries failed in a row, the last error and
	// when the next may run, so a summary that keeps failing backs off
	// across restarts and CLI runs instead of being tried after every turn.
	MigrationSummaryBackoff = "20261130000007_summary_backoff"
	// MigrationReminders turns the seed's Discord-only reminders table into
	// desktop reminders (issue 10, backend/reminders): where a reminder came
	// from (origin, session_id), the IANA zone and optional RFC 5545 rule it
	// repeats by (rrule, with its DTSTART), its delivery state and error, and
	// whether its last delivery was late. Existing rows (Discord, one-off)
	// become origin discord, state delivered/cancelled/pending by their
	// notified_at/cancelled_at.
	MigrationReminders = "20261130000008_reminders_desktop"
	// MigrationMessageTree makes messages a tree (issue 9, tree.go): each
	// message's parent_id (NULL for a session's first message) and each
	// session's active_leaf_id, the last message of the branch the window
	// shows. Existing sessions become a single branch: each message's
	// parent is the previous message of its session in id order, and the
	// active leaf is the last one.
	MigrationMessageTree = "20261201000009_message_tree"
	// MigrationMessageSearch adds the search over every chat's messages
	// (issue 9, message_search.go): message_fts, a contentless FTS5 table
	// of kagome-segmented terms (backend/jatext, as the knowledge base),
	// rowid = message id. SQLite cannot run kagome, so triggers only queue
	// each inserted or edited message in message_search_pending (and drop
	// a deleted one's terms); the store segments the queue before every
	// search. Existing messages are queued here and indexed by the first
	// search (or IndexPendingMessages) after the upgrade.
	MigrationMessageSearch = "20261201000010_message_search"
	// MigrationTurnContextUsage stores with each assistant reply the
	// context report of its request (issue 9, context_usage.go): the
	// tokens each layer used of the window and what was sent, left out or
	// cut to fit, as JSON (chat.ContextReport). Replies from before have
	// no row.
	MigrationTurnContextUsage = "20261201000011_turn_context_usage"
	// MigrationReminderNotify keeps what a desktop notification needs
	// (issue 10, backend/reminders/desktop): a note on how the last
	// delivery went when it reached the person only in part (e.g. "no
	// notification service": shown in the window only), and when the
	// person saw or acknowledged the last delivery (the window's badge
	// counts delivered reminders not seen since).
	MigrationReminderNotify = "20261201000012_reminder_notify"
)

type step struct {
	name  string
	stmts []string
}

// steps holds every migration as plain SQL, one statement per string: the
// only registry of steps (orderedSteps sorts them by name).
var steps = []step{
	{MigrationOriginal, []string{
		`CREATE TABLE sessions (
			id VARCHAR NOT NULL PRIMARY KEY,
			title VARCHAR NOT NULL DEFAULT '',
			model VARCHAR NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
			updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE messages (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id VARCHAR NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			role VARCHAR NOT NULL,
			content TEXT NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE message_tags (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
			tag VARCHAR NOT NULL,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE memories (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id VARCHAR NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			summary TEXT NOT NULL,
			embedding_json TEXT,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE memory_tags (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			memory_id INTEGER NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
			tag VARCHAR NOT NULL,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE knowledge_entries (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			query TEXT NOT NULL,
			summary TEXT NOT NULL,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE knowledge_sources (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			entry_id INTEGER NOT NULL REFERENCES knowledge_entries(id) ON DELETE CASCADE,
			title VARCHAR NOT NULL DEFAULT '',
			url VARCHAR NOT NULL)`,
		`CREATE TABLE local_knowledge_docs (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			path VARCHAR NOT NULL UNIQUE,
			title VARCHAR NOT NULL DEFAULT '',
			content_hash VARCHAR NOT NULL,
			embedding_json TEXT,
			embedding_model VARCHAR,
			updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE note_pages (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			title VARCHAR NOT NULL,
			content TEXT NOT NULL DEFAULT '',
			position INTEGER NOT NULL DEFAULT 0,
			section VARCHAR,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
			updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE session_note_pages (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id VARCHAR NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			page_id INTEGER NOT NULL REFERENCES note_pages(id) ON DELETE CASCADE,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
			UNIQUE (session_id, page_id))`,
		`CREATE TABLE app_settings (
			key VARCHAR NOT NULL PRIMARY KEY,
			value TEXT NOT NULL,
			updated_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE model_presets (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			label VARCHAR NOT NULL,
			value VARCHAR NOT NULL,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE api_logs (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id VARCHAR,
			model VARCHAR NOT NULL DEFAULT '',
			request_json TEXT NOT NULL DEFAULT '',
			response_text TEXT,
			error TEXT,
			latency_ms INTEGER,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE TABLE reminders (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			channel_id VARCHAR NOT NULL,
			user_id VARCHAR NOT NULL,
			user_name VARCHAR NOT NULL DEFAULT '',
			content TEXT NOT NULL,
			due_at DATETIME NOT NULL,
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
			notified_at DATETIME,
			cancelled_at DATETIME)`,
		`CREATE INDEX ix_messages_session ON messages(session_id, id)`,
		`CREATE INDEX ix_memories_session ON memories(session_id, id)`,
		`CREATE INDEX ix_api_logs_created ON api_logs(created_at)`,
		`CREATE INDEX ix_reminders_due ON reminders(due_at)`,
	}},
	{MigrationDesign, []string{
		`ALTER TABLE messages ADD COLUMN status VARCHAR NOT NULL DEFAULT 'complete'`,
		`ALTER TABLE messages ADD COLUMN error TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE messages ADD COLUMN model VARCHAR NOT NULL DEFAULT ''`,
		`ALTER TABLE messages ADD COLUMN prompt_tokens INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE messages ADD COLUMN completion_tokens INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE messages ADD COLUMN archived_at DATETIME`,
		`ALTER TABLE messages ADD COLUMN memory_id INTEGER REFERENCES memories(id) ON DELETE SET NULL`,
		`CREATE INDEX ix_messages_active ON messages(session_id, archived_at, id)`,
		// Memories: float32 BLOB embeddings, a count of the messages they
		// cover, and merging (layer 4 re-summarises old memories; the merged
		// rows are kept and point at the memory that replaced them).
		`ALTER TABLE memories ADD COLUMN embedding BLOB`,
		`ALTER TABLE memories ADD COLUMN embedding_model VARCHAR NOT NULL DEFAULT ''`,
		`ALTER TABLE memories ADD COLUMN embedding_dim INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE memories ADD COLUMN message_count INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE memories ADD COLUMN merged_into INTEGER REFERENCES memories(id) ON DELETE SET NULL`,
		`ALTER TABLE memories ADD COLUMN level INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE local_knowledge_docs ADD COLUMN size INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE local_knowledge_docs ADD COLUMN mtime DATETIME`,
		`ALTER TABLE local_knowledge_docs ADD COLUMN embedding BLOB`,
		`ALTER TABLE local_knowledge_docs ADD COLUMN embedding_dim INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE api_logs ADD COLUMN prompt_tokens INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE api_logs ADD COLUMN completion_tokens INTEGER NOT NULL DEFAULT 0`,
		`CREATE INDEX ix_sessions_updated ON sessions(updated_at)`,
	}},
	{MigrationKBIndex, []string{
		`ALTER TABLE local_knowledge_docs ADD COLUMN error TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE local_knowledge_docs ADD COLUMN indexed_at DATETIME`,
		`ALTER TABLE local_knowledge_docs ADD COLUMN chunk_count INTEGER NOT NULL DEFAULT 0`,
		`CREATE TABLE local_knowledge_chunks (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			doc_id INTEGER NOT NULL REFERENCES local_knowledge_docs(id) ON DELETE CASCADE,
			ord INTEGER NOT NULL,
			heading TEXT NOT NULL DEFAULT '',
			text TEXT NOT NULL,
			text_hash VARCHAR NOT NULL,
			embedding BLOB,
			embedding_model VARCHAR NOT NULL DEFAULT '',
			embedding_dim INTEGER NOT NULL DEFAULT 0,
			UNIQUE (doc_id, ord))`,
		`CREATE INDEX ix_local_knowledge_chunks_model ON local_knowledge_chunks(embedding_model, id)`,
		// Contentless: the text lives in local_knowledge_chunks; the FTS
		// rowid is the chunk id. Columns hold space-separated terms.
		`CREATE VIRTUAL TABLE local_knowledge_fts USING fts5(title, heading, body,
			content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`,
		`CREATE VIRTUAL TABLE local_knowledge_fts_vocab USING fts5vocab(local_knowledge_fts, 'row')`,
		`CREATE TABLE local_knowledge_meta (
			key VARCHAR NOT NULL PRIMARY KEY,
			value TEXT NOT NULL)`,
	}},
	{MigrationToolActivity, []string{
		`ALTER TABLE messages ADD COLUMN tool_activity TEXT NOT NULL DEFAULT ''`,
	}},
	{MigrationNoteVersion, []string{
		`ALTER TABLE note_pages ADD COLUMN version INTEGER NOT NULL DEFAULT 1`,
	}},
	{MigrationMessageErrorInfo, []string{
		`ALTER TABLE messages ADD COLUMN error_info TEXT NOT NULL DEFAULT ''`,
	}},
	{MigrationSummaryBackoff, []string{
		`CREATE TABLE summary_backoff (
			session_id VARCHAR NOT NULL PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
			failures INTEGER NOT NULL,
			last_error TEXT NOT NULL DEFAULT '',
			next_attempt_at DATETIME NOT NULL,
			updated_at DATETIME NOT NULL)`,
	}},
	{MigrationReminders, []string{
		`ALTER TABLE reminders ADD COLUMN origin VARCHAR NOT NULL DEFAULT 'discord'`,
		`ALTER TABLE reminders ADD COLUMN session_id VARCHAR NOT NULL DEFAULT ''`,
		`ALTER TABLE reminders ADD COLUMN zone VARCHAR NOT NULL DEFAULT 'UTC'`,
		`ALTER TABLE reminders ADD COLUMN rrule TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE reminders ADD COLUMN state VARCHAR NOT NULL DEFAULT 'pending'`,
		`ALTER TABLE reminders ADD COLUMN error TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE reminders ADD COLUMN late INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE reminders ADD COLUMN updated_at DATETIME`,
		`UPDATE reminders SET state = 'cancelled' WHERE cancelled_at IS NOT NULL`,
		`UPDATE reminders SET state = 'delivered' WHERE cancelled_at IS NULL AND notified_at IS NOT NULL`,
		`CREATE INDEX ix_reminders_state_due ON reminders(state, due_at)`,
	}},
	{MigrationMessageTree, []string{
		`ALTER TABLE messages ADD COLUMN parent_id INTEGER REFERENCES messages(id) ON DELETE CASCADE`,
		`ALTER TABLE sessions ADD COLUMN active_leaf_id INTEGER`,
		`UPDATE messages SET parent_id = (SELECT MAX(p.id) FROM messages p
			WHERE p.session_id = messages.session_id AND p.id < messages.id)`,
		`UPDATE sessions SET active_leaf_id = (SELECT MAX(m.id) FROM messages m WHERE m.session_id = sessions.id)`,
		`CREATE INDEX ix_messages_parent ON messages(parent_id, id)`,
	}},
	{MigrationMessageSearch, []string{
		`CREATE VIRTUAL TABLE message_fts USING fts5(terms,
			content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0')`,
		`CREATE TABLE message_search_pending (message_id INTEGER NOT NULL PRIMARY KEY)`,
		`CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
			INSERT OR IGNORE INTO message_search_pending (message_id) VALUES (new.id);
		END`,
		`CREATE TRIGGER messages_search_update AFTER UPDATE OF content ON messages
			WHEN old.content IS NOT new.content BEGIN
			INSERT OR IGNORE INTO message_search_pending (message_id) VALUES (new.id);
		END`,
		`CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
			DELETE FROM message_fts WHERE rowid = old.id;
			DELETE FROM message_search_pending WHERE message_id = old.id;
		END`,
		`INSERT OR IGNORE INTO message_search_pending (message_id) SELECT id FROM messages`,
	}},
	{MigrationTurnContextUsage, []string{
		`CREATE TABLE turn_context_usage (
			message_id INTEGER NOT NULL PRIMARY KEY REFERENCES messages(id) ON DELETE CASCADE,
			report TEXT NOT NULL)`,
	}},
	{MigrationReminderNotify, []string{
		`ALTER TABLE reminders ADD COLUMN note TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE reminders ADD COLUMN seen_at DATETIME`,
	}},
	// Later steps keep their statements in their own migration_*.go file;
	// this list is the one place a step is registered, in order.
	stepKnowledge,                // 20261201000013_knowledge
	stepSessionForked,            // 20261201000014_session_forked
	stepReminderAttempts,         // 20261201000015_reminder_attempts
	stepDiscordChannels,          // 20261201000016_discord_channels
	stepTags,                     // 20261201000017_tags
	stepKnowledgeUnsummarised,    // 20261201000020_knowledge_unsummarised
	stepAPILogPurpose,            // 20261201000021_api_log_purpose
	stepDrafts,                   // 20261201000022_drafts
	stepStreamingReplies,         // 20261202000018_streaming_replies
	stepSessionOrganise,          // 20261202000020_session_organise
	stepAssistants,               // 20261202000023_assistants
	stepDiscordChannelAssistants, // 20261202000024_discord_channel_assistants
	stepAttachments,              // 20261202000025_attachments
	stepAttachmentParts,          // 20261203000026_attachment_parts
	stepMessageCreatedIndex,      // 20261203000030_message_created_index
	stepMessageForkTrigger,       // 20261203000031_message_fork_trigger
	stepMessageSearchTerms,       // 20261203000032_message_search_terms
}

// postSteps run inside a migration's transaction after its statements.
var postSteps = map[string]func(ctx context.Context, tx bun.Tx) error{
	MigrationDesign: convertJSONEmbeddings,
}

// convertJSONEmbeddings moves embedding_json (a JSON array of numbers, the
// original format) into the float32 BLOB columns, then drops the JSON column.
func convertJSONEmbeddings(ctx context.Context, tx bun.Tx) error {
	for _, table := range []string{"memories", "local_knowledge_docs"} {
		if has, err := hasColumn(ctx, tx, table, "embedding_json"); err != nil {
			return err
		} else if !has {
			continue // converted already (the step ran before but was not recorded)
		}
		var rows []struct {
			ID   int64  `bun:"id"`
			JSON string `bun:"embedding_json"`
		}
		err := tx.NewSelect().Table(table).Column("id", "embedding_json").
			Where("embedding_json IS NOT NULL AND embedding_json != ''").Scan(ctx, &rows)
		if err != nil {
			return fmt.Errorf("read %s embeddings: %w", table, err)
		}
		for _, r := range rows {
			var vec []float32
			if err := json.Unmarshal([]byte(r.JSON), &vec); err != nil {
				continue // unreadable: leave empty, it will be recomputed
			}
			if _, err := tx.ExecContext(ctx, "UPDATE "+table+" SET embedding = ?, embedding_dim = ? WHERE id = ?",
				EncodeEmbedding(vec), len(vec), r.ID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, "ALTER TABLE "+table+" DROP COLUMN embedding_json"); err != nil {
			return fmt.Errorf("drop %s.embedding_json: %w", table, err)
		}
	}
	return nil
}
