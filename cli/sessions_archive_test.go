package cli

import (
	"archive/zip"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"playchat/backend/store"
)

func zipNames(t *testing.T, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("%s is not a zip archive: %v", path, err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

func TestSessionsExportAFolderOrSeveralChatsAsOneZip(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PLAYCHAT_DATA_DIR=" + dir}
	gpt := filepath.Join("..", "backend", "session", "testdata", "chatgpt_conversations.json")
	if r := runCLI(t, env, "", "sessions", "import", gpt); r.code != 0 {
		t.Fatalf("import: %s", r.stderr)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := db.ListSessions(ctx)
	f, _ := db.CreateFolder(ctx, "仕事")
	db.MoveToFolder(ctx, []string{ss[0].ID}, &f.ID)
	db.Close()

	out := filepath.Join(t.TempDir(), "work.zip")
	r := runCLI(t, env, "", "sessions", "export", "--folder", "仕事", "--format", "md", "-o", out)
	if r.code != 0 || !strings.Contains(r.stderr, "exported 1 chats (2 files)") {
		t.Fatalf("--folder: exit %d %s", r.code, r.stderr)
	}
	if names := zipNames(t, out); len(names) != 2 || !strings.HasSuffix(names[0], ".md") || !strings.HasPrefix(names[1], "json/") {
		t.Errorf("--folder archive: %v", names)
	}
	both := filepath.Join(t.TempDir(), "both.zip")
	if r := runCLI(t, env, "", "sessions", "export", "--ids", ss[0].ID+","+ss[1].ID, "--format", "html", "-o", both); r.code != 0 {
		t.Fatalf("--ids: exit %d %s", r.code, r.stderr)
	}
	if names := zipNames(t, both); len(names) != 4 {
		t.Errorf("--ids archive: %v", names)
	}
	// Bad input: a clear error, no file.
	bad := filepath.Join(t.TempDir(), "bad.zip")
	for _, args := range [][]string{
		{"--ids", ss[0].ID + ",no-such-chat", "-o", bad},
		{"--folder", "無い", "-o", bad},
		{"--folder", "仕事", "--ids", ss[0].ID, "-o", bad},
		{"--folder", "仕事", ss[0].ID, "-o", bad},
	} {
		r := runCLI(t, env, "", append([]string{"sessions", "export"}, args...)...)
		if r.code == 0 || r.stderr == "" {
			t.Errorf("%v: exit %d %q", args, r.code, r.stderr)
		}
		if _, err := os.Stat(bad); err == nil {
			t.Fatalf("%v wrote %s", args, bad)
		}
	}
}
