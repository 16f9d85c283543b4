package backup

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/webdav"
)

func davServer(t *testing.T, user, pass string) (*httptest.Server, webdav.FileSystem) {
	t.Helper()
	fs := webdav.NewMemFS()
	h := &webdav.Handler{FileSystem: fs, LockSystem: webdav.NewMemLS()}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != user || p != pass {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, fs
}

func TestAutomaticBackupUploadsToWebDAVAndAFolderAndKeepsTheLastN(t *testing.T) {
	f := newFixture(t)
	srv, davFS := davServer(t, "me", "app-pass")
	ctx := context.Background()
	dav := WebDAV{URL: srv.URL + "/playchat/", User: "me", Password: "app-pass"}
	folder := Folder{Dir: filepath.Join(t.TempDir(), "Sync", "playchat")}
	start := time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)
	for day := range 5 {
		res := RunToTargets(ctx, f.src(), []Target{folder, dav}, 3, true, start.Add(time.Duration(day)*24*time.Hour))
		if !res.OK {
			t.Fatalf("day %d: %s", day, res.Error)
		}
	}
	for _, tg := range []Target{folder, dav} {
		es, err := tg.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name)
		}
		want := "[playchat-backup-20261203-030000.tar.gz playchat-backup-20261204-030000.tar.gz playchat-backup-20261205-030000.tar.gz]"
		if fmt.Sprint(names) != want {
			t.Errorf("%s: %v, want %s", tg.Where(), names, want)
		}
	}
	// What WebDAV holds is a sound archive.
	file, err := davFS.OpenFile(ctx, "/playchat/playchat-backup-20261205-030000.tar.gz", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "from-dav"+Ext)
	out, _ := os.Create(local)
	if _, err := out.ReadFrom(file); err != nil {
		t.Fatal(err)
	}
	out.Close()
	file.Close()
	if _, err := Verify(ctx, t.TempDir(), local, OpenOptions{}); err != nil {
		t.Fatal(err)
	}
	st := ReadStatus(f.dir)
	if st.LastBackup == nil || !st.LastBackup.OK || !st.LastBackup.Auto || !strings.HasSuffix(st.LastBackup.Path, "20261205-030000.tar.gz") {
		t.Errorf("status %+v", st.LastBackup)
	}
	if Due(st, start.Add(4*24*time.Hour+time.Hour)) || !Due(st, start.Add(5*24*time.Hour)) {
		t.Error("Due is wrong")
	}
}

func TestAFailedBackupIsRecordedWithWhyAndNoPassword(t *testing.T) {
	f := newFixture(t)
	srv, _ := davServer(t, "me", "right")
	dav := WebDAV{URL: srv.URL + "/playchat/", User: "me", Password: "wrong-pass-123"}
	if err := dav.Test(context.Background()); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("Test with a wrong password: %v", err)
	}
	res := RunToTargets(context.Background(), f.src(), []Target{dav}, 3, true, time.Now())
	if res.OK || !strings.Contains(res.Error, "401") || strings.Contains(res.Error, "wrong-pass-123") {
		t.Errorf("result %+v", res)
	}
	st := ReadStatus(f.dir)
	if st.LastBackup == nil || st.LastBackup.OK || st.LastSuccess != nil {
		t.Errorf("status %+v", st)
	}
	if !Due(st, time.Now()) {
		t.Error("a failed backup is not retried")
	}
}
