package core

import (
	"time"

	"playchat/backend/backup"
)

// finishRestore moves the staged knowledge base into the folder the
// restored settings name and records the restore for Settings.
func (c *Core) finishRestore(p *backup.Pending) {
	res := backup.RestoreResult{At: time.Now().UTC(), ArchiveCreatedAt: p.Manifest.CreatedAt, Safety: p.Safety, OK: true}
	if err := backup.ApplyStagedKB(p, c.Config().KnowledgeBaseDir); err != nil {
		c.Log.Error("restore: the knowledge base could not be put in place", "err", err)
		res.OK, res.Error = false, err.Error()
	} else {
		c.Log.Info("restored a backup", "created", p.Manifest.CreatedAt, "safety", p.Safety)
	}
	backup.UpdateStatus(c.DataDir, func(s *backup.Status) { s.LastRestore = &res })
}

// BackupSource is what a backup of this core copies.
func (c *Core) BackupSource(appVersion string) backup.Source {
	return backup.Source{DataDir: c.DataDir, DB: c.DB, KBDir: c.Config().KnowledgeBaseDir, AppVersion: appVersion,
		Busy: func() bool { return c.Chat != nil && c.Chat.Running() > 0 }}
}
