// Package backup writes and restores whole-playchat archives (issue 27):
// the database, the knowledge base folder and the .env file of the data dir.
//
// An archive is a gzip-compressed tar stream:
//
//	header.json     Header: format, version, schema, app version, time, whether secrets are in
//	db/playchat.db  the database, taken with VACUUM INTO (SQLite's consistent online copy)
//	kb/…            every regular file of the knowledge base folder
//	env/.env        the data dir's .env file, if there is one
//	mcp/mcp_servers.json the user's MCP server configuration, if there is one (version 2)
//	manifest.json   Manifest: the header again, every file's size and SHA-256, row counts
//
// Without secrets, the database copy has every secret setting deleted (with
// secure_delete, then VACUUM, so no page keeps them) and URL credentials
// masked, and the .env copy drops every secret statement. With secrets the
// whole stream is encrypted with age (filippo.io/age, scrypt passphrase
// recipient: the file opens with `age -d` too), so no key is ever in clear.
//
// A backup yields to the app: it runs on a thread of low priority
// (inBackground) and, while a chat turn runs (Source.Busy), at a quarter
// of its speed (pacer), so a turn during a backup is not slowed (make
// bench: BenchmarkBackup, at 100,000 messages and 45,000 documents).
//
// A restore first verifies everything into a staging folder of the data dir
// (Stage): the passphrase, every path, size and hash, the manifest's file
// set, the format version and the database's schema (store.Check, which
// also runs quick_check). Any failure removes the staging folder and leaves
// the data untouched. The staged data replaces the live data at the next
// start of the window (or of `playchat backup restore` when no window runs),
// before the database is opened (ApplyStagedDB, ApplyStagedKB): the current
// files move to a safety folder first.
package backup

import (
	"time"
)

// Format and Version identify an archive; an archive of a higher Version
// is refused (BackupNewer). Version 2 added the MCP configuration entry
// (mcp.go), version 3 the attachment files (attachments/<sha[:2]>/<sha>,
// those the database copy refers to); older archives restore as before.
const (
	Format  = "playchat-backup"
	Version = 3
)

// Archive entry names.
const (
	headerName   = "header.json"
	manifestName = "manifest.json"
	dbEntry      = "db/playchat.db"
	kbPrefix     = "kb/"
	// attPrefix holds the attachment files the database copy refers to, as
	// attachments/<sha[:2]>/<sha> under the data dir (store.AttachmentsDir).
	attPrefix = "attachments/"
	envEntry  = "env/.env"
	mcpEntry  = "mcp/mcp_servers.json"
)

// Extensions of archive files: plain, and encrypted with age.
const (
	Ext          = ".tar.gz"
	EncryptedExt = ".tar.gz.age"
)

// MinPassphrase is the shortest passphrase an encrypted archive takes.
const MinPassphrase = 8

// Header says what an archive is. It is the first entry, and repeated in
// the manifest.
type Header struct {
	Format     string `json:"format"`
	Version    int    `json:"version"`
	AppVersion string `json:"appVersion"`
	// Schema is the newest migration applied to the database copy.
	Schema    string    `json:"schema"`
	CreatedAt time.Time `json:"createdAt"`
	// Secrets is true when API keys and tokens are in the archive (then
	// it is encrypted).
	Secrets bool `json:"secrets"`
}

// File is one archived file.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Manifest is the last entry: what the archive holds.
type Manifest struct {
	Header
	Files []File `json:"files"`
	// Counts are row counts of the main tables of the database copy.
	Counts map[string]int64 `json:"counts"`
}

// countedTables are the tables whose row counts a manifest records.
var countedTables = []string{"sessions", "messages", "memories", "note_pages", "knowledge_entries", "reminders", "local_knowledge_docs"}

// Progress is told how many bytes of how many are done; total may be 0
// when unknown.
type Progress func(done, total int64)
