package app

import (
	"archive/zip"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/core"
	"playchat/backend/reminders"
)

// The window's path: pin nothing, take a backup, delete the data, restore
// (staged), start again, and find everything back with a safety copy.
func TestBackupStageAndRestoreAtTheNextStart(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	open := func() *core.Core {
		c, err := core.Open(ctx, core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler), Exclusive: true})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	c := open()
	p := &fakePlatform{}
	a := &App{core: c, platform: p}
	svc := &BackupService{a}
	sess, _ := c.DB.CreateSession(ctx, "残す会話", "openai/x")
	kbDoc := filepath.Join(c.Config().KnowledgeBaseDir, "mine.md")
	os.MkdirAll(filepath.Dir(kbDoc), 0o700)
	os.WriteFile(kbDoc, []byte("# 自分のメモ"), 0o600)

	p.savePath = filepath.Join(t.TempDir(), "b.tar.gz")
	run, err := svc.Create(false, "")
	if err != nil || !run.OK || run.Path != p.savePath {
		t.Fatalf("create: %+v %v", run, err)
	}
	if _, err := svc.Create(true, "short"); apperr.CodeOf(err) != apperr.BackupPassphraseNeeded {
		t.Errorf("short passphrase: %v", err)
	}
	st, _ := svc.Status()
	if st.LastBackup == nil || !st.LastBackup.OK || st.Pending != nil {
		t.Fatalf("status %+v", st)
	}
	// The data is lost.
	c.DB.DeleteSession(ctx, sess.ID)
	os.Remove(kbDoc)

	p.openPath = run.Path
	chosen, err := svc.ChooseArchive()
	if err != nil || chosen.Encrypted {
		t.Fatal(chosen, err)
	}
	info, err := svc.Stage(chosen.Path, "")
	if err != nil || info.Sessions != 1 || info.KBFiles == 0 {
		t.Fatalf("stage: %+v %v", info, err)
	}
	if st, _ := svc.Status(); st.Pending == nil {
		t.Fatal("no pending restore")
	}
	c.Close()

	c = open()
	defer c.Close()
	if _, err := c.DB.GetSession(ctx, sess.ID); err != nil {
		t.Fatalf("the chat is not back: %v", err)
	}
	if b, err := os.ReadFile(kbDoc); err != nil || !strings.Contains(string(b), "自分のメモ") {
		t.Fatalf("the knowledge base is not back: %v", err)
	}
	a = &App{core: c, platform: p}
	st, _ = (&BackupService{a}).Status()
	if st.Pending != nil || st.LastRestore == nil || !st.LastRestore.OK || st.LastRestore.Safety == "" {
		t.Fatalf("status after restore %+v", st.LastRestore)
	}
	if _, err := os.Stat(filepath.Join(st.LastRestore.Safety, "playchat.db")); err != nil {
		t.Errorf("no safety copy: %v", err)
	}
}

func TestExportChatAsMarkdownThroughTheDialog(t *testing.T) {
	a, p := newTestApp(t)
	c, _ := a.backend()
	sess, _ := c.DB.CreateSession(context.Background(), "題名", "openai/x")
	p.savePath = filepath.Join(t.TempDir(), "chat.md")
	path, err := (&BackupService{a}).ExportChat(sess.ID, "md")
	if err != nil || path != p.savePath {
		t.Fatal(path, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `title: "題名"`) {
		t.Errorf("%s", b)
	}
}

func TestExportAFolderAsOneZipThroughTheDialog(t *testing.T) {
	a, p := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	one, _ := c.DB.CreateSession(ctx, "一", "openai/x")
	two, _ := c.DB.CreateSession(ctx, "二", "openai/x")
	f, _ := c.DB.CreateFolder(ctx, "旅行")
	if err := c.DB.MoveToFolder(ctx, []string{one.ID, two.ID}, &f.ID); err != nil {
		t.Fatal(err)
	}
	svc := &BackupService{a}
	p.savePath = filepath.Join(t.TempDir(), "trip.zip")
	res, err := svc.ExportFolder(f.ID, "md")
	if err != nil || res.Path != p.savePath || res.Chats != 2 {
		t.Fatal(res, err)
	}
	zr, err := zip.OpenReader(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != 4 {
		t.Errorf("the folder's archive has %d files, want 2 Markdown + 2 JSON", len(zr.File))
	}
	// A selection with an unknown chat writes nothing (and asks nothing).
	p.savePath = filepath.Join(t.TempDir(), "bad.zip")
	if _, err := svc.ExportChats([]string{one.ID, "gone"}, "md"); err == nil {
		t.Error("an unknown chat was exported")
	}
	if _, err := os.Stat(p.savePath); err == nil {
		t.Error("a refused export wrote a file")
	}
	if _, err := svc.ExportChats(nil, "md"); apperr.CodeOf(err) != apperr.ExportNothing {
		t.Errorf("no chats: %v", err)
	}
}

// fakeAlerter records the desktop notifications asked for.
type fakeAlerter struct{ alerts []string }

func (f *fakeAlerter) Alert(_ context.Context, summary, body string) error {
	f.alerts = append(f.alerts, summary+": "+body)
	return nil
}

func TestAFailedAutomaticBackupIsADesktopNotificationAndAnEvent(t *testing.T) {
	// The backup folder is a file: every automatic backup fails.
	blocker := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, p := newTestApp(t, "BACKUP_AUTO=true", "BACKUP_DIR="+filepath.Join(blocker, "backups"), "UI_LANGUAGE=en")
	alerts := &fakeAlerter{}
	a.alerter = alerts
	c, _ := a.backend()
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

	res := a.autoBackupOnce(ctx, c, now)
	if res == nil || res.OK || res.Error == "" {
		t.Fatalf("result %+v, want a failure", res)
	}
	if len(alerts.alerts) != 1 || !strings.HasPrefix(alerts.alerts[0], "Automatic backup failed: ") || !strings.Contains(alerts.alerts[0], res.Error) {
		t.Fatalf("desktop notifications %q", alerts.alerts)
	}
	if n := strings.Count(strings.Join(p.events, " "), EventBackupResult); n != 1 {
		t.Errorf("%d %s events, want 1 (the toast)", n, EventBackupResult)
	}
	// Failing again ten minutes later: a toast, no second notification;
	// a day later it is told again.
	a.autoBackupOnce(ctx, c, now.Add(10*time.Minute))
	if len(alerts.alerts) != 1 || strings.Count(strings.Join(p.events, " "), EventBackupResult) != 2 {
		t.Errorf("ten minutes later: notifications %q, events %v", alerts.alerts, p.events)
	}
	a.autoBackupOnce(ctx, c, now.Add(25*time.Hour))
	if len(alerts.alerts) != 2 {
		t.Errorf("a day later: notifications %q, want 2", alerts.alerts)
	}
	// While the tray pauses notifications: none (the toast still comes).
	a.NotificationPause().(*reminders.Pause).For(time.Hour)
	a.autoBackupOnce(ctx, c, now.Add(50*time.Hour))
	if len(alerts.alerts) != 2 {
		t.Errorf("paused: notifications %q", alerts.alerts)
	}
}

func TestASucceedingAutomaticBackupIsNoNotification(t *testing.T) {
	a, p := newTestApp(t, "BACKUP_AUTO=true", "BACKUP_DIR="+t.TempDir())
	alerts := &fakeAlerter{}
	a.alerter = alerts
	c, _ := a.backend()
	res := a.autoBackupOnce(context.Background(), c, time.Now())
	if res == nil || !res.OK || len(alerts.alerts) != 0 || len(p.events) != 1 {
		t.Errorf("result %+v, notifications %q, events %v", res, alerts.alerts, p.events)
	}
	// Not due again the same day.
	if res := a.autoBackupOnce(context.Background(), c, time.Now()); res != nil {
		t.Errorf("a second backup the same day: %+v", res)
	}
}

func TestSaveDialogsFilterByTheFilesExtension(t *testing.T) {
	for name, want := range map[string]string{
		"chat.md": "*.md", "chat.html": "*.html", "playchat-chats.zip": "*.zip", "session.json": "*.json",
		"playchat-backup-20261201-000000.tar.gz": "*.tar.gz", "playchat-backup-20261201-000000.tar.gz.age": "*.tar.gz.age",
	} {
		if f := saveFilters(name); len(f) != 1 || f[0].Pattern != want {
			t.Errorf("%s: filters %+v, want %s", name, f, want)
		}
	}
	if f := saveFilters("notes"); f != nil {
		t.Errorf("no extension: %+v", f)
	}
}
