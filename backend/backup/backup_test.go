package backup

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/store"
	"playchat/backend/store/storetest"
)

const secretKey = "sk-test-SECRET-0123456789"

// fixture is a data dir with a database, a knowledge base and a .env.
type fixture struct {
	dir string
	db  *store.DB
	kb  string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := db.CreateSession(ctx, "猫の話", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		m := store.Message{SessionID: s.ID, Role: []string{store.RoleUser, store.RoleAssistant}[i%2], Content: fmt.Sprintf("吾輩は猫である %d", i)}
		if err := db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.SaveAppSettings(ctx, map[string]string{"OPENAI_API_KEY": secretKey, "DEFAULT_MODEL": "openai/m",
		"SEARXNG_URL": "https://user:pw-SECRET@searx.example"}, nil); err != nil {
		t.Fatal(err)
	}
	kb := filepath.Join(dir, "knowledge_base")
	write(t, filepath.Join(kb, "a.md"), "# A\n本文")
	write(t, filepath.Join(kb, "sub", "b.md"), "# B\n")
	write(t, filepath.Join(dir, config.DotEnvFile), "DEFAULT_MODEL=openai/m\nANTHROPIC_API_KEY="+secretKey+"x\n")
	return &fixture{dir: dir, db: db, kb: kb}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) src() Source {
	return Source{DataDir: f.dir, DB: f.db, KBDir: f.kb, AppVersion: "test"}
}

func (f *fixture) backup(t *testing.T, o CreateOptions) string {
	t.Helper()
	p, _, err := CreateFile(context.Background(), f.src(), filepath.Join(t.TempDir(), "b"+Ext), o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// restoreInto stages archive into dataDir and applies it as a start would.
func restoreInto(t *testing.T, dataDir, archive string, o OpenOptions) (Manifest, *Pending) {
	t.Helper()
	ctx := context.Background()
	m, err := Stage(ctx, dataDir, archive, o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ApplyStagedDB(ctx, dataDir)
	if err != nil || p == nil {
		t.Fatalf("apply: %v %v", p, err)
	}
	if err := ApplyStagedKB(p, filepath.Join(dataDir, "knowledge_base")); err != nil {
		t.Fatal(err)
	}
	return m, p
}

func openSQL(t *testing.T, p string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// tableHash hashes every row of table (in rowid order) with rowid <= max
// (max < 0: all rows), and counts them.
func tableHash(t *testing.T, db *sql.DB, table string, max int64) (string, int64) {
	t.Helper()
	q := `SELECT * FROM ` + table
	if max >= 0 {
		q += fmt.Sprintf(` WHERE rowid <= %d`, max)
	}
	rows, err := db.Query(q + ` ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	h := sha256.New()
	var n int64
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%v\n", vals)
		n++
	}
	return hex.EncodeToString(h.Sum(nil)), n
}

func TestBackupTakenWhileTurnsAreWrittenRestoresAnIdenticalDatabase(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	s, err := f.db.CreateSession(ctx, "busy", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // 20 turns, each a question and its reply
		defer wg.Done()
		for i := range 20 {
			for _, role := range []string{store.RoleUser, store.RoleAssistant} {
				m := store.Message{SessionID: s.ID, Role: role, Content: fmt.Sprintf("turn %d %s %s", i, role, strings.Repeat("あ", 2000))}
				if err := f.db.InsertMessage(ctx, &m); err != nil {
					t.Error(err)
					return
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	time.Sleep(5 * time.Millisecond)
	during := f.backup(t, CreateOptions{})
	wg.Wait()
	after := f.backup(t, CreateOptions{})
	live := openSQL(t, filepath.Join(f.dir, store.FileName))

	for name, archive := range map[string]string{"during": during, "after": after} {
		t.Run(name, func(t *testing.T) {
			dst := t.TempDir()
			m, _ := restoreInto(t, dst, archive, OpenOptions{})
			got := openSQL(t, filepath.Join(dst, store.FileName))
			var ok string
			if err := got.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
				t.Fatalf("integrity_check = %q, %v", ok, err)
			}
			for _, table := range countedTables {
				var n int64
				got.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n)
				if n != m.Counts[table] {
					t.Errorf("%s: %d rows, manifest says %d", table, n, m.Counts[table])
				}
			}
			// Every restored message is the live one with its id: the copy
			// is the database at one moment.
			var maxID int64
			got.QueryRow(`SELECT coalesce(max(id), 0) FROM messages`).Scan(&maxID)
			gh, gn := tableHash(t, got, "messages", -1)
			lh, ln := tableHash(t, live, "messages", maxID)
			if gh != lh || gn != ln {
				t.Errorf("restored messages (%d) differ from the live ones up to id %d (%d)", gn, maxID, ln)
			}
			if name == "after" {
				for _, table := range []string{"sessions", "messages", "memories", "note_pages"} {
					gh, _ := tableHash(t, got, table, -1)
					lh, _ := tableHash(t, live, table, -1)
					if gh != lh {
						t.Errorf("%s differs from the live database", table)
					}
				}
				if m.Counts["messages"] != 6+40 {
					t.Errorf("messages = %d, want 46", m.Counts["messages"])
				}
			}
			if b, err := os.ReadFile(filepath.Join(dst, "knowledge_base", "sub", "b.md")); err != nil || string(b) != "# B\n" {
				t.Errorf("knowledge base not restored: %q %v", b, err)
			}
		})
	}
}

// unpacked returns every byte of the archive's entries (decompressed).
func unpacked(t *testing.T, archive string) []byte {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBackupWithoutAPIKeysHoldsNoSecretAndKeepsTheCurrentOnes(t *testing.T) {
	f := newFixture(t)
	archive := f.backup(t, CreateOptions{})
	all := unpacked(t, archive)
	for _, s := range []string{secretKey, "pw-SECRET"} {
		if bytes.Contains(all, []byte(s)) {
			t.Errorf("%q is in the archive", s)
		}
	}
	if !bytes.Contains(all, []byte("DEFAULT_MODEL=openai/m")) {
		t.Error("the .env's other settings are missing")
	}
	// Restored on another computer: no keys. Restored here: the keys in
	// use are kept.
	dst := t.TempDir()
	write(t, filepath.Join(dst, config.DotEnvFile), "TAVILY_API_KEY=tvly-here\n")
	restoreInto(t, dst, archive, OpenOptions{})
	env, _ := os.ReadFile(filepath.Join(dst, config.DotEnvFile))
	if !strings.Contains(string(env), "TAVILY_API_KEY=tvly-here") || !strings.Contains(string(env), "DEFAULT_MODEL=openai/m") {
		t.Errorf(".env after restore:\n%s", env)
	}
	safety, _ := filepath.Glob(filepath.Join(dst, SafetyDir, "*", config.DotEnvFile))
	if len(safety) != 1 {
		t.Errorf("no safety copy of the replaced .env: %v", safety)
	}
}

func TestEncryptedBackupNeedsItsPassphraseAndHasNoKeyInClear(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, _, err := CreateFile(ctx, f.src(), t.TempDir(), CreateOptions{IncludeSecrets: true, Passphrase: "short"}); apperr.CodeOf(err) != apperr.BackupPassphraseNeeded {
		t.Fatalf("short passphrase: %v", err)
	}
	archive, _, err := CreateFile(ctx, f.src(), t.TempDir(), CreateOptions{IncludeSecrets: true, Passphrase: "correct horse battery"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(archive, EncryptedExt) {
		t.Errorf("name %s", archive)
	}
	raw, _ := os.ReadFile(archive)
	if bytes.Contains(raw, []byte(secretKey)) || bytes.Contains(raw, []byte("OPENAI_API_KEY")) || bytes.Contains(raw, []byte("playchat.db")) {
		t.Error("the encrypted archive shows its content in clear")
	}
	if enc, _ := IsEncrypted(archive); !enc {
		t.Error("not recognised as encrypted")
	}
	dst := t.TempDir()
	for pass, code := range map[string]apperr.Code{"": apperr.BackupPassphraseNeeded, "wrong passphrase!": apperr.BackupWrongPassphrase} {
		if _, err := Stage(ctx, dst, archive, OpenOptions{Passphrase: pass}); apperr.CodeOf(err) != code {
			t.Errorf("passphrase %q: %v, want %s", pass, err, code)
		}
	}
	if Staged(dst) != nil {
		t.Fatal("a failed stage left a restore")
	}
	m, _ := restoreInto(t, dst, archive, OpenOptions{Passphrase: "correct horse battery"})
	if !m.Secrets {
		t.Error("manifest says no secrets")
	}
	db := openSQL(t, filepath.Join(dst, store.FileName))
	var v string
	if err := db.QueryRow(`SELECT value FROM app_settings WHERE key = 'OPENAI_API_KEY'`).Scan(&v); err != nil || v != secretKey {
		t.Errorf("key not restored: %q %v", v, err)
	}
}

// repack rewrites an archive, letting edit change each entry.
func repack(t *testing.T, archive string, edit func(name string, data []byte) []byte) string {
	t.Helper()
	f, _ := os.Open(archive)
	defer f.Close()
	gz, _ := gzip.NewReader(f)
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	gw := gzip.NewWriter(&out)
	tw := tar.NewWriter(gw)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		data = edit(h.Name, data)
		h.Size = int64(len(data))
		tw.WriteHeader(h)
		tw.Write(data)
	}
	tw.Close()
	gw.Close()
	p := filepath.Join(t.TempDir(), "edited"+Ext)
	os.WriteFile(p, out.Bytes(), 0o600)
	return p
}

// snapshot hashes every file of a data dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			rel, _ := filepath.Rel(dir, p)
			out[rel] = hex.EncodeToString(sum[:])
		}
		return nil
	})
	return out
}

func TestRestoreOfADamagedOrFutureArchiveChangesNothing(t *testing.T) {
	f := newFixture(t)
	good := f.backup(t, CreateOptions{})
	raw, _ := os.ReadFile(good)
	dir := t.TempDir()
	put := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o600)
		return p
	}
	flipped := bytes.Clone(raw)
	flipped[len(flipped)/2] ^= 0xff
	future := repack(t, good, func(name string, data []byte) []byte {
		if name == headerName || name == manifestName {
			return bytes.Replace(data, []byte(fmt.Sprintf(`"version": %d`, Version)), []byte(fmt.Sprintf(`"version": %d`, Version+1)), 1)
		}
		return data
	})
	changedKB := repack(t, good, func(name string, data []byte) []byte {
		if name == kbPrefix+"a.md" {
			return []byte("# tampered")
		}
		return data
	})
	escape := repack(t, good, func(name string, data []byte) []byte {
		if name == manifestName {
			return bytes.ReplaceAll(data, []byte(kbPrefix+"a.md"), []byte(kbPrefix+"../../x.md"))
		}
		return data
	})
	// A database from a newer playchat inside an otherwise sound archive.
	newer := repack(t, good, func(name string, data []byte) []byte { return data })
	{
		ff := newFixture(t)
		ff.db.Close()
		storetest.MarkNewer(t, filepath.Join(ff.dir, store.FileName))
		db, err := store.OpenUnmigrated(filepath.Join(ff.dir, store.FileName))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ff.db = db
		newer = ff.backup(t, CreateOptions{})
	}
	cases := map[string]struct {
		path string
		code apperr.Code
	}{
		"truncated":           {put("trunc"+Ext, raw[:len(raw)*2/3]), apperr.BackupDamaged},
		"byte flipped":        {put("flip"+Ext, flipped), apperr.BackupDamaged},
		"not an archive":      {put("junk"+Ext, []byte("hello")), apperr.BackupDamaged},
		"empty":               {put("empty"+Ext, nil), apperr.BackupDamaged},
		"file changed":        {changedKB, apperr.BackupDamaged},
		"path escape":         {escape, apperr.BackupDamaged},
		"future format":       {future, apperr.BackupNewer},
		"newer schema inside": {newer, apperr.BackupNewer},
	}
	target := newFixture(t)
	target.db.Close()
	before := snapshot(t, target.dir)
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Stage(context.Background(), target.dir, c.path, OpenOptions{})
			if apperr.CodeOf(err) != c.code {
				t.Fatalf("err = %v, want %s", err, c.code)
			}
			if got := snapshot(t, target.dir); fmt.Sprint(got) != fmt.Sprint(before) {
				t.Errorf("the data dir changed:\n%v\n%v", before, got)
			}
			if p, err := ApplyStagedDB(context.Background(), target.dir); p != nil || err != nil {
				t.Errorf("a restore was staged: %v %v", p, err)
			}
		})
	}
	// The sound archive still restores.
	if _, err := Verify(context.Background(), t.TempDir(), good, OpenOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestManifestRecordsWhatTheArchiveHolds(t *testing.T) {
	f := newFixture(t)
	_, m, err := CreateFile(context.Background(), f.src(), t.TempDir(), CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, file := range m.Files {
		paths = append(paths, file.Path)
	}
	want := []string{dbEntry, kbPrefix + "a.md", kbPrefix + "sub/b.md", envEntry}
	if fmt.Sprint(paths) != fmt.Sprint(want) {
		t.Errorf("files %v, want %v", paths, want)
	}
	if m.Schema != store.LatestMigration() || m.Counts["messages"] != 6 || m.Counts["sessions"] != 1 {
		b, _ := json.Marshal(m)
		t.Errorf("manifest %s", b)
	}
}
