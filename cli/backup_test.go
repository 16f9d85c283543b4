package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/backup"
	"playchat/backend/store"
	"playchat/backend/store/storetest"
)

func TestBackupCreateListAndRestoreThroughTheCLI(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	gpt := filepath.Join("..", "backend", "session", "testdata", "chatgpt_conversations.json")
	if r := runCLI(t, env, "", "sessions", "import", gpt); r.code != 0 {
		t.Fatalf("import: %s", r.stderr)
	}
	r := runCLI(t, env, "", "backup", "create")
	if r.code != 0 {
		t.Fatalf("create: exit %d %s", r.code, r.stderr)
	}
	archive := strings.TrimSpace(r.stdout)
	if filepath.Dir(archive) != filepath.Join(dir, "backups") || !strings.Contains(r.stderr, "backed up 2 chats, 9 messages") {
		t.Errorf("archive %s, stderr %s", archive, r.stderr)
	}
	r = runCLI(t, env, "", "backup", "list", "--json")
	var listed struct {
		Archives []backup.Entry
		Status   backup.Status
	}
	if err := json.Unmarshal([]byte(r.stdout), &listed); err != nil || len(listed.Archives) != 1 || listed.Status.LastBackup == nil || !listed.Status.LastBackup.OK {
		t.Fatalf("list: %v %s", err, r.stdout)
	}
	// Restore into a fresh data dir (another computer), asked and refused
	// first: nothing changes.
	other := t.TempDir()
	env2 := []string{"PLAYCHAT_DATA_DIR=" + other}
	if r := runCLI(t, env2, "n\n", "backup", "restore", archive); r.code != 1 || !strings.Contains(r.stderr, "nothing was changed") {
		t.Fatalf("refused restore: exit %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(other, "playchat.db")); err == nil {
		t.Fatal("a refused restore wrote a database")
	}
	if r := runCLI(t, env2, "", "backup", "restore", "--yes", archive); r.code != 0 || !strings.Contains(r.stderr, "restored") {
		t.Fatalf("restore: exit %d %s", r.code, r.stderr)
	}
	r = runCLI(t, env2, "", "sessions", "list", "--json")
	var rows []map[string]any
	json.Unmarshal([]byte(r.stdout), &rows)
	if len(rows) != 2 {
		t.Errorf("sessions after restore: %s", r.stdout)
	}
	// A damaged archive is refused with why.
	bad := filepath.Join(t.TempDir(), "bad.tar.gz")
	os.WriteFile(bad, []byte("not a backup"), 0o600)
	if r := runCLI(t, env2, "", "backup", "restore", "--yes", bad); r.code != 1 || !strings.Contains(r.stderr, "cannot be used") {
		t.Errorf("damaged: exit %d %s", r.code, r.stderr)
	}
}

func TestSessionsExportAsMarkdownAndHTML(t *testing.T) {
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	claude := filepath.Join("..", "backend", "session", "testdata", "claude_conversations.json")
	r := runCLI(t, env, "", "sessions", "import", claude)
	id := strings.TrimSpace(r.stdout)
	r = runCLI(t, env, "", "sessions", "export", id, "--format", "md")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "---\ntitle: ") {
		t.Fatalf("md: exit %d %.200s %s", r.code, r.stdout, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "chat.html")
	if r := runCLI(t, env, "", "sessions", "export", "--format", "html", "-o", out, id); r.code != 0 {
		t.Fatalf("html: %s", r.stderr)
	}
	b, _ := os.ReadFile(out)
	if !strings.HasPrefix(string(b), "<!DOCTYPE html>") || strings.Contains(string(b), "<script") {
		t.Errorf("html: %.200s", b)
	}
	if r := runCLI(t, env, "", "sessions", "export", "--format", "pdf", id); r.code != 2 {
		t.Errorf("pdf: exit %d", r.code)
	}
}

func TestSessionsListFiltersByFolderAndArchive(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	gpt := filepath.Join("..", "backend", "session", "testdata", "chatgpt_conversations.json")
	runCLI(t, env, "", "sessions", "import", gpt)
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := db.ListSessions(ctx)
	f, _ := db.CreateFolder(ctx, "仕事")
	db.MoveToFolder(ctx, []string{ss[0].ID}, &f.ID)
	db.SetPinned(ctx, []string{ss[0].ID}, true)
	db.SetArchived(ctx, []string{ss[1].ID}, true)
	db.Close()
	list := func(args ...string) []map[string]any {
		r := runCLI(t, env, "", append([]string{"sessions", "list", "--json"}, args...)...)
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
			t.Fatalf("%v: %s %s", args, r.stdout, r.stderr)
		}
		return rows
	}
	if rows := list(); len(rows) != 1 || rows[0]["folder"] != "仕事" || rows[0]["pinned"] != true {
		t.Errorf("default list %v", rows)
	}
	if rows := list("--archived"); len(rows) != 1 || rows[0]["id"] != ss[1].ID {
		t.Errorf("--archived %v", rows)
	}
	if rows := list("--all"); len(rows) != 2 {
		t.Errorf("--all %v", rows)
	}
	if rows := list("--folder", "仕事"); len(rows) != 1 {
		t.Errorf("--folder %v", rows)
	}
	if rows := list("--folder", "/", "--all"); len(rows) != 1 || rows[0]["id"] != ss[1].ID {
		t.Errorf("--folder / %v", rows)
	}
	if r := runCLI(t, env, "", "sessions", "list", "--folder", "無い"); r.code != 1 {
		t.Errorf("unknown folder: exit %d", r.code)
	}
}

func TestBackupRestoreRecoversADamagedDatabase(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	gpt := filepath.Join("..", "backend", "session", "testdata", "chatgpt_conversations.json")
	runCLI(t, env, "", "sessions", "import", gpt)
	archive := strings.TrimSpace(runCLI(t, env, "", "backup", "create").stdout)
	storetest.CorruptMiddle(t, filepath.Join(dir, store.FileName))
	storetest.CorruptPage(t, filepath.Join(dir, store.FileName), 1)
	if r := runCLI(t, env, "", "sessions", "list"); r.code == 0 {
		t.Fatal("the damaged database opened")
	}
	if r := runCLI(t, env, "", "backup", "restore", "--yes", archive); r.code != 0 {
		t.Fatalf("restore: exit %d %s", r.code, r.stderr)
	}
	r := runCLI(t, env, "", "sessions", "list", "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("after restore: %v %s %s", err, r.stdout, r.stderr)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, backup.SafetyDir, "*", store.FileName)); len(m) != 1 {
		t.Errorf("the damaged file was not kept: %v", m)
	}
}
