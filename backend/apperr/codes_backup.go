package apperr

// Codes of backups, restores and chat exports (issue 27, backend/backup,
// backend/session/markdown.go). They live in their own file so they read
// together; the templates join the table at init.
const (
	// BackupDamaged: the backup archive {path} cannot be used ({detail}, in English); nothing was changed.
	BackupDamaged Code = "backup.damaged"
	// BackupNewer: the backup archive {path} was made by a newer playchat ({detail}); update playchat to restore it. Nothing was changed.
	BackupNewer Code = "backup.newer"
	// BackupPassphraseNeeded: a backup that includes API keys is encrypted, so it needs a passphrase (of at least {min} characters).
	BackupPassphraseNeeded Code = "backup.passphraseNeeded"
	// BackupWrongPassphrase: the passphrase does not open the encrypted backup {path}; nothing was changed.
	BackupWrongPassphrase Code = "backup.wrongPassphrase"
	// BackupRunning: a backup or restore is already running.
	BackupRunning Code = "backup.running"
	// BackupFailed: the backup could not be written to {target} ({detail}, in English).
	BackupFailed Code = "backup.failed"
	// ExportFormat: {format} is not an export format (md, html or json).
	ExportFormat Code = "export.format"
	// ExportNothing: an export of several chats (a folder, a selection) was given no chat.
	ExportNothing Code = "export.nothing"
)

var backupTemplates = map[Code]string{
	BackupDamaged:          "the backup {path} cannot be used ({detail}); nothing was changed",
	BackupNewer:            "the backup {path} was made by a newer playchat ({detail}): update playchat to restore it; nothing was changed",
	BackupPassphraseNeeded: "a backup that includes API keys is encrypted: enter a passphrase of at least {min} characters",
	BackupWrongPassphrase:  "the passphrase does not open the encrypted backup {path}; nothing was changed",
	BackupRunning:          "a backup or restore is already running",
	BackupFailed:           "the backup could not be written to {target} ({detail})",
	ExportFormat:           "{format} is not an export format: use md, html or json",
	ExportNothing:          "there is no chat to export: choose some, or a folder that has chats",
}

func init() {
	for c, t := range backupTemplates {
		templates[c] = t
	}
}

// Codes of folders (issue 27, backend/store/organise.go).
const (
	// FolderName: a folder name is empty, has a line break or tab, or is longer than {max} characters.
	FolderName Code = "session.folderName"
	// FolderNotFound: folder {id} does not exist (deleted meanwhile?).
	FolderNotFound Code = "session.folderNotFound"
)

func init() {
	templates[FolderName] = "a folder name must be 1 to {max} characters on one line"
	templates[FolderNotFound] = "folder {id} does not exist"
}
