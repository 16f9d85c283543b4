package app

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/atomicfile"
	"playchat/backend/backup"
	"playchat/backend/core"
	"playchat/backend/session"
)

// Backups and readable exports in the window (issue 27). A restore is
// verified completely and staged here; it replaces the data at the next
// start, before the database opens (backend/backup, core.Open), so no
// running service ever sees the files change under it. The page then
// offers to quit, and names the safety folder after the next start.

// EventBackupProgress carries a running backup's or restore check's
// progress (data: BackupProgress).
const EventBackupProgress = "backup:progress"

// EventBackupResult: an automatic backup finished (data: BackupRun); a
// failed one is shown as a toast, never a silent gap.
const EventBackupResult = "backup:result"

// BackupProgress is EventBackupProgress's data.
type BackupProgress struct {
	Op    string `json:"op"` // "backup" or "restore"
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
}

// BackupRun is how one backup went.
type BackupRun struct {
	At    string `json:"at"` // RFC 3339, UTC
	OK    bool   `json:"ok"`
	Error string `json:"error"`
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	Auto  bool   `json:"auto"`
}

// BackupInfo describes an archive (a verified one, or the staged restore).
type BackupInfo struct {
	CreatedAt  string `json:"createdAt"`
	AppVersion string `json:"appVersion"`
	Secrets    bool   `json:"secrets"`
	Sessions   int64  `json:"sessions"`
	Messages   int64  `json:"messages"`
	Notes      int64  `json:"notes"`
	KBFiles    int    `json:"kbFiles"`
	Path       string `json:"path"`
}

// RestoreRun is how the last restore went.
type RestoreRun struct {
	At               string `json:"at"`
	ArchiveCreatedAt string `json:"archiveCreatedAt"`
	OK               bool   `json:"ok"`
	Error            string `json:"error"`
	Safety           string `json:"safety"`
}

// BackupStatus is what the Settings section shows.
type BackupStatus struct {
	LastBackup  *BackupRun  `json:"lastBackup"`
	LastSuccess *BackupRun  `json:"lastSuccess"`
	LastRestore *RestoreRun `json:"lastRestore"`
	// Pending is the restore waiting for the next start.
	Pending *BackupInfo `json:"pending"`
	Dir     string      `json:"dir"`
	Auto    bool        `json:"auto"`
	Keep    int         `json:"keep"`
	WebDAV  string      `json:"webdav"` // the URL without credentials, "" when none
	Running bool        `json:"running"`
}

// BackupService is the bound service of backups, restores and readable
// chat exports.
type BackupService struct{ app *App }

// backupMu serialises backups and restores in this process.
var backupMu sync.Mutex

func toRun(r *backup.Result) *BackupRun {
	if r == nil {
		return nil
	}
	return &BackupRun{At: r.At.UTC().Format(time.RFC3339), OK: r.OK, Error: r.Error, Path: r.Path, Size: r.Size, Auto: r.Auto}
}

func toInfo(m backup.Manifest, path string) BackupInfo {
	n := 0
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, "kb/") {
			n++
		}
	}
	return BackupInfo{CreatedAt: m.CreatedAt.UTC().Format(time.RFC3339), AppVersion: m.AppVersion, Secrets: m.Secrets,
		Sessions: m.Counts["sessions"], Messages: m.Counts["messages"], Notes: m.Counts["note_pages"], KBFiles: n, Path: path}
}

// Status returns the last backup's and restore's results and the settings.
func (s *BackupService) Status() (BackupStatus, error) {
	c, err := s.app.backend()
	if err != nil {
		return BackupStatus{}, err
	}
	st := backup.ReadStatus(c.DataDir)
	cfg := c.Config()
	out := BackupStatus{LastBackup: toRun(st.LastBackup), LastSuccess: toRun(st.LastSuccess),
		Dir: cfg.BackupDir, Auto: cfg.BackupAuto, Keep: cfg.BackupKeep}
	if cfg.BackupWebDAVURL != "" {
		out.WebDAV = backup.WebDAV{URL: cfg.BackupWebDAVURL}.Where()
	}
	if r := st.LastRestore; r != nil {
		out.LastRestore = &RestoreRun{At: r.At.UTC().Format(time.RFC3339), ArchiveCreatedAt: r.ArchiveCreatedAt.UTC().Format(time.RFC3339),
			OK: r.OK, Error: r.Error, Safety: r.Safety}
	}
	if m := backup.Staged(c.DataDir); m != nil {
		info := toInfo(*m, "")
		out.Pending = &info
	}
	if backupMu.TryLock() {
		backupMu.Unlock()
	} else {
		out.Running = true
	}
	return out, nil
}

func (s *BackupService) progress(op string) backup.Progress {
	return func(done, total int64) {
		if p := s.app.plat(); p != nil {
			p.Emit(EventBackupProgress, BackupProgress{Op: op, Done: done, Total: total})
		}
	}
}

// Create asks where to save and writes a backup there. With includeKeys
// the archive holds the API keys and is encrypted with passphrase. An
// empty path in the result means the user cancelled.
func (s *BackupService) Create(includeKeys bool, passphrase string) (BackupRun, error) {
	c, err := s.app.backend()
	if err != nil {
		return BackupRun{}, err
	}
	if includeKeys && len([]rune(passphrase)) < backup.MinPassphrase {
		return BackupRun{}, apperr.New(apperr.BackupPassphraseNeeded, map[string]any{"min": backup.MinPassphrase})
	}
	path, err := s.app.plat().SaveFile("Save backup", backup.FileName(time.Now(), includeKeys))
	if err != nil || path == "" {
		return BackupRun{}, err
	}
	return s.create(c, path, includeKeys, passphrase)
}

// CreateNow writes a backup without API keys into the backup folder.
func (s *BackupService) CreateNow() (BackupRun, error) {
	c, err := s.app.backend()
	if err != nil {
		return BackupRun{}, err
	}
	dir := c.Config().BackupDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return BackupRun{}, err
	}
	return s.create(c, dir, false, "")
}

func (s *BackupService) create(c *core.Core, path string, includeKeys bool, passphrase string) (BackupRun, error) {
	if !backupMu.TryLock() {
		return BackupRun{}, apperr.New(apperr.BackupRunning, nil)
	}
	defer backupMu.Unlock()
	start := time.Now().UTC()
	p, _, err := backup.CreateFile(context.Background(), c.BackupSource(Version), path,
		backup.CreateOptions{IncludeSecrets: includeKeys, Passphrase: passphrase, Progress: s.progress("backup")})
	res := backup.Result{At: start, OK: err == nil, Path: p}
	if err != nil {
		res.Error = err.Error()
	} else if st, serr := os.Stat(p); serr == nil {
		res.Size = st.Size()
	}
	backup.RecordBackup(c.DataDir, res)
	if err != nil {
		return BackupRun{}, err
	}
	return *toRun(&res), nil
}

// ChooseArchive asks for a backup file; "" when cancelled. Encrypted tells
// the page to ask for the passphrase.
func (s *BackupService) ChooseArchive() (ChosenArchive, error) {
	path, err := s.app.plat().OpenFile("Restore from backup", BackupFilters...)
	if err != nil || path == "" {
		return ChosenArchive{}, err
	}
	enc, err := backup.IsEncrypted(path)
	return ChosenArchive{Path: path, Encrypted: enc}, err
}

// ChosenArchive is ChooseArchive's answer.
type ChosenArchive struct {
	Path      string `json:"path"`
	Encrypted bool   `json:"encrypted"`
}

// Stage verifies the archive at path completely and stages it for the
// next start (the page asked for confirmation first). A damaged archive,
// a wrong passphrase or one from a newer playchat is refused with why,
// and nothing changes.
func (s *BackupService) Stage(path, passphrase string) (BackupInfo, error) {
	c, err := s.app.backend()
	if err != nil {
		return BackupInfo{}, err
	}
	if !backupMu.TryLock() {
		return BackupInfo{}, apperr.New(apperr.BackupRunning, nil)
	}
	defer backupMu.Unlock()
	m, err := backup.Stage(context.Background(), c.DataDir, path, backup.OpenOptions{Passphrase: passphrase, Progress: s.progress("restore")})
	if err != nil {
		return BackupInfo{}, err
	}
	return toInfo(m, path), nil
}

// CancelRestore drops the restore waiting for the next start.
func (s *BackupService) CancelRestore() error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return backup.CancelStaged(c.DataDir)
}

// TestWebDAV checks that the WebDAV folder answers with these credentials
// (empty ones use the saved BACKUP_WEBDAV_* settings).
func (s *BackupService) TestWebDAV(url, user, password string) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	cfg := c.Config()
	if url == "" {
		url, user = cfg.BackupWebDAVURL, cfg.BackupWebDAVUser
	}
	if password == "" {
		password = cfg.BackupWebDAVPassword
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return backup.WebDAV{URL: url, User: user, Password: password}.Test(ctx)
}

// ExportChat asks where to save and writes the chat as Markdown ("md"),
// self-contained HTML ("html") or JSON ("json"). It returns the path
// written, or "" when the user cancelled.
func (s *BackupService) ExportChat(id, format string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	data, ext, err := session.ExportAs(ctx, c.DB, id, format, session.ExportOptions{Location: time.Local})
	if err != nil {
		return "", err
	}
	sess, _ := c.DB.GetSession(ctx, id)
	name := strings.TrimSpace(unsafeName.ReplaceAllString(sess.Title, "_"))
	if name == "" {
		name = "chat"
	}
	path, err := s.app.plat().SaveFile("Export chat", name+ext)
	if err != nil || path == "" {
		return "", err
	}
	return path, atomicfile.Write(path, data, 0o600)
}

// ChatHTML returns the chat as its self-contained HTML export (the branch
// shown, no script), which the window prints through the system print
// dialog (Print / PDF): a hidden frame shows it and prints itself.
func (s *BackupService) ChatHTML(id string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	data, _, err := session.ExportAs(context.Background(), c.DB, id, "html", session.ExportOptions{Location: time.Local})
	return string(data), err
}

// ArchiveExport is how an export of several chats went: the path written
// ("" when the user cancelled) and how many chats it holds.
type ArchiveExport struct {
	Path  string `json:"path"`
	Chats int    `json:"chats"`
}

// ExportChats asks where to save and writes the chats ids as one zip
// archive: one file a chat in format (md, html or json), with each chat's
// lossless JSON beside Markdown or HTML (session.ExportArchive). Bad input
// (no chats, an unknown one, an unknown format) fails before the dialog.
func (s *BackupService) ExportChats(ids []string, format string) (ArchiveExport, error) {
	c, err := s.app.backend()
	if err != nil {
		return ArchiveExport{}, err
	}
	return s.exportArchive(c, ids, format, "playchat-chats")
}

// ExportFolder is ExportChats of every chat of folder id (archived ones
// too), the archive named after the folder.
func (s *BackupService) ExportFolder(id int64, format string) (ArchiveExport, error) {
	c, err := s.app.backend()
	if err != nil {
		return ArchiveExport{}, err
	}
	ctx := context.Background()
	ids, err := session.FolderChats(ctx, c.DB, id)
	if err != nil {
		return ArchiveExport{}, err
	}
	name := "playchat-folder"
	if fs, err := c.DB.Folders(ctx); err == nil {
		for _, f := range fs {
			if f.ID == id {
				name = session.FileNameOf(f.Name)
			}
		}
	}
	return s.exportArchive(c, ids, format, name)
}

// exportArchive renders the archive first (so bad input asks nothing),
// then asks where to save it.
func (s *BackupService) exportArchive(c *core.Core, ids []string, format, name string) (ArchiveExport, error) {
	var buf bytes.Buffer
	res, err := session.ExportArchive(context.Background(), c.DB, ids, format, &buf, session.ExportOptions{Location: time.Local})
	if err != nil {
		return ArchiveExport{}, err
	}
	path, err := s.app.plat().SaveFile("Export chats", name+session.ArchiveExt)
	if err != nil || path == "" {
		return ArchiveExport{}, err
	}
	if err := atomicfile.Write(path, buf.Bytes(), 0o600); err != nil {
		return ArchiveExport{}, err
	}
	return ArchiveExport{Path: path, Chats: res.Chats}, nil
}

// runAutoBackups writes a backup when one is due (BACKUP_AUTO: a day after
// the last success; checked every 10 minutes while the window runs) and
// tells the page and the desktop how it went (autoBackupOnce).
func (a *App) runAutoBackups(ctx context.Context, c *core.Core) {
	tick := time.NewTicker(10 * time.Minute)
	defer tick.Stop()
	first := time.After(2 * time.Minute) // off the start-up path
	for {
		select {
		case <-ctx.Done():
			return
		case <-first:
		case <-tick.C:
		}
		a.autoBackupOnce(ctx, c, time.Now())
	}
}

// Alerter shows a desktop notification that is not a reminder (the
// reminders' desktop notifier, reminders/desktop.Notifier.Alert).
type Alerter interface {
	Alert(ctx context.Context, summary, body string) error
}

// backupAlertEvery is how often a backup that keeps failing is told on the
// desktop again (the toast and Settings tell every failure).
const backupAlertEvery = 24 * time.Hour

// autoBackupOnce writes the automatic backup if one is due and reports it:
// the page gets EventBackupResult (a failure is a toast there), and a
// failure is also a desktop notification — the first after a success or
// after the start, then once a day while it keeps failing; not while the
// tray pauses notifications. It returns the result, nil when none was due.
func (a *App) autoBackupOnce(ctx context.Context, c *core.Core, now time.Time) *backup.Result {
	cfg := c.Config()
	prev := backup.ReadStatus(c.DataDir)
	if !cfg.BackupAuto || !backup.Due(prev, now) || !backupMu.TryLock() {
		return nil
	}
	targets := []backup.Target{backup.Folder{Dir: cfg.BackupDir}}
	if cfg.BackupWebDAVURL != "" {
		targets = append(targets, backup.WebDAV{URL: cfg.BackupWebDAVURL, User: cfg.BackupWebDAVUser, Password: cfg.BackupWebDAVPassword})
	}
	res := backup.Result{At: now.UTC(), Auto: true, Error: "the backup stopped on an internal error (see the log)"}
	c.Guard.Do("backup.auto", func() {
		res = backup.RunToTargets(ctx, c.BackupSource(Version), targets, cfg.BackupKeep, true, now)
	})
	backupMu.Unlock()
	if p := a.plat(); p != nil {
		p.Emit(EventBackupResult, toRun(&res))
	}
	if res.OK {
		return &res
	}
	c.Log.Warn("automatic backup failed", "err", res.Error)
	a.backupAlertMu.Lock()
	wasOK := prev.LastBackup == nil || prev.LastBackup.OK
	due := wasOK || a.backupAlertAt.IsZero() || now.Sub(a.backupAlertAt) >= backupAlertEvery
	alerter := a.alerter
	if due && alerter != nil && !a.NotificationPause().Paused() {
		a.backupAlertAt = now
	} else {
		alerter = nil
	}
	a.backupAlertMu.Unlock()
	if alerter != nil {
		summary, body := "Automatic backup failed", res.Error+"\nSettings → Backups shows the details."
		if uiLanguage(c) == "ja" {
			summary, body = "自動バックアップに失敗しました", res.Error+"\n詳しくは 設定 → バックアップ に表示されます。"
		}
		if err := alerter.Alert(ctx, summary, body); err != nil {
			c.Log.Warn("automatic backup failed: no desktop notification", "err", err)
		}
	}
	return &res
}
