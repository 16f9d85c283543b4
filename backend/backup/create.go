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
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"

	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/redact"
	"playchat/backend/store"
)

// Source is what a backup copies.
type Source struct {
	DataDir string
	// DB is the open database; the copy is taken from it while it runs.
	DB *store.DB
	// KBDir is the resolved knowledge base folder (it may lie outside
	// the data dir); "" or a missing folder archives none.
	KBDir      string
	AppVersion string
	// Busy reports whether the app is working for the user (a chat turn
	// runs); nil is never. While it is, the backup runs at a quarter of
	// its speed (pacer), so that the turn is not slowed.
	Busy func() bool
}

// CreateOptions choose what a backup holds.
type CreateOptions struct {
	// IncludeSecrets keeps API keys and tokens; Passphrase (at least
	// MinPassphrase characters) then encrypts the archive.
	IncludeSecrets bool
	Passphrase     string
	Progress       Progress
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

func (o CreateOptions) now() time.Time {
	if o.Now != nil {
		return o.Now().UTC()
	}
	return time.Now().UTC()
}

// FileName is the name of an archive made at t.
func FileName(t time.Time, encrypted bool) string {
	ext := Ext
	if encrypted {
		ext = EncryptedExt
	}
	return "playchat-backup-" + t.UTC().Format("20060102-150405") + ext
}

// CreateFile writes an archive to path (written beside it first and renamed
// into place, so a failed backup leaves no half file). A path that is an
// existing directory gets FileName inside it. It returns the path written.
func CreateFile(ctx context.Context, src Source, path string, o CreateOptions) (string, Manifest, error) {
	if o.IncludeSecrets && len([]rune(o.Passphrase)) < MinPassphrase {
		return "", Manifest{}, apperr.New(apperr.BackupPassphraseNeeded, map[string]any{"min": MinPassphrase})
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, FileName(o.now(), o.IncludeSecrets))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", Manifest{}, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".playchat-backup-*.part")
	if err != nil {
		return "", Manifest{}, err
	}
	tmp := f.Name()
	m, err := Create(ctx, src, f, o)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return "", Manifest{}, err
	}
	return path, m, nil
}

// Create writes an archive of src to w. It runs at a low scheduling
// priority (inBackground), so that the chat turns beside it are not slowed.
func Create(ctx context.Context, src Source, w io.Writer, o CreateOptions) (Manifest, error) {
	var m Manifest
	err := inBackground(func() (err error) {
		m, err = create(ctx, src, w, o)
		return err
	})
	return m, err
}

func create(ctx context.Context, src Source, w io.Writer, o CreateOptions) (Manifest, error) {
	if o.IncludeSecrets && len([]rune(o.Passphrase)) < MinPassphrase {
		return Manifest{}, apperr.New(apperr.BackupPassphraseNeeded, map[string]any{"min": MinPassphrase})
	}
	work, err := os.MkdirTemp(src.DataDir, ".backup-")
	if err != nil {
		return Manifest{}, err
	}
	defer os.RemoveAll(work)
	dbCopy := filepath.Join(work, store.FileName)
	// VACUUM INTO reads the database in one read transaction: a consistent
	// copy while turns keep being written (WAL lets them go on).
	if _, err := src.DB.Bun().ExecContext(ctx, "VACUUM INTO ?", dbCopy); err != nil {
		return Manifest{}, fmt.Errorf("copy the database: %w", err)
	}
	m := Manifest{Header: Header{Format: Format, Version: Version, AppVersion: src.AppVersion,
		CreatedAt: o.now(), Secrets: o.IncludeSecrets}}
	var attachments []string
	if m.Schema, m.Counts, attachments, err = prepareCopy(ctx, dbCopy, o.IncludeSecrets); err != nil {
		return Manifest{}, err
	}
	kbFiles, err := listKB(src.KBDir)
	if err != nil {
		return Manifest{}, err
	}
	env, err := os.ReadFile(filepath.Join(src.DataDir, config.DotEnvFile))
	hasEnv := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, err
	}
	if hasEnv && !o.IncludeSecrets {
		env = config.DotEnvWithoutSecrets(env)
	}
	mcp, err := readMCP(src.DataDir, o.IncludeSecrets)
	if err != nil {
		return Manifest{}, err
	}

	var total int64
	st, err := os.Stat(dbCopy)
	if err != nil {
		return Manifest{}, err
	}
	total = st.Size()
	for _, f := range kbFiles {
		total += f.Size
	}
	attDir := filepath.Join(src.DataDir, store.AttachmentsDir)
	for _, sha := range attachments {
		if st, err := os.Stat(filepath.Join(attDir, sha[:2], sha)); err == nil {
			total += st.Size()
		}
	}
	pw := &progressWriter{fn: o.Progress, total: total}
	pace := &pacer{busy: src.Busy}

	out := w
	var enc io.WriteCloser
	if o.IncludeSecrets {
		r, err := age.NewScryptRecipient(o.Passphrase)
		if err != nil {
			return Manifest{}, err
		}
		if enc, err = age.Encrypt(w, r); err != nil {
			return Manifest{}, err
		}
		out = enc
	}
	gz := gzip.NewWriter(out)
	tw := tar.NewWriter(gz)
	hdr, _ := json.MarshalIndent(m.Header, "", "  ")
	if err := writeBytes(tw, headerName, hdr, m.CreatedAt); err != nil {
		return Manifest{}, err
	}
	// One copy buffer and one document buffer for the whole archive: a
	// backup of tens of thousands of files then allocates next to nothing,
	// and its garbage collection does not slow the turns beside it.
	buf := make([]byte, 256<<10)
	var doc bytes.Buffer
	add := func(name string, r io.Reader, size int64, mod time.Time) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := sha256.New()
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: size, ModTime: mod, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return err
		}
		n, err := io.CopyBuffer(io.MultiWriter(tw, h, pw, pace), io.LimitReader(r, size), buf)
		if err == nil && n < size {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return fmt.Errorf("archive %s: %w (%d of %d bytes)", name, err, n, size)
		}
		m.Files = append(m.Files, File{Path: name, Size: size, SHA256: hex.EncodeToString(h.Sum(nil))})
		return nil
	}
	dbf, err := os.Open(dbCopy)
	if err != nil {
		return Manifest{}, err
	}
	err = add(dbEntry, dbf, st.Size(), m.CreatedAt)
	dbf.Close()
	if err != nil {
		return Manifest{}, err
	}
	for _, f := range kbFiles {
		// Read whole: a document edited meanwhile is archived as read.
		err := readInto(&doc, filepath.Join(src.KBDir, filepath.FromSlash(f.Path)))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted since the listing
		}
		if err != nil {
			return Manifest{}, err
		}
		if err := add(kbPrefix+f.Path, bytes.NewReader(doc.Bytes()), int64(doc.Len()), f.mod); err != nil {
			return Manifest{}, err
		}
	}
	// The files of the attachments the copy refers to (an attachment added
	// after the copy was taken is not in it, so neither is its file).
	for _, sha := range attachments {
		err := readInto(&doc, filepath.Join(attDir, sha[:2], sha))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a missing file stays missing (the chat shows a note for it)
		}
		if err != nil {
			return Manifest{}, err
		}
		if err := add(attPrefix+sha[:2]+"/"+sha, bytes.NewReader(doc.Bytes()), int64(doc.Len()), m.CreatedAt); err != nil {
			return Manifest{}, err
		}
	}
	if hasEnv {
		if err := add(envEntry, strings.NewReader(string(env)), int64(len(env)), m.CreatedAt); err != nil {
			return Manifest{}, err
		}
	}
	if mcp != nil {
		if err := add(mcpEntry, strings.NewReader(string(mcp)), int64(len(mcp)), m.CreatedAt); err != nil {
			return Manifest{}, err
		}
	}
	man, _ := json.MarshalIndent(m, "", "  ")
	if err := writeBytes(tw, manifestName, man, m.CreatedAt); err != nil {
		return Manifest{}, err
	}
	if err := tw.Close(); err != nil {
		return Manifest{}, err
	}
	if err := gz.Close(); err != nil {
		return Manifest{}, err
	}
	if enc != nil {
		if err := enc.Close(); err != nil {
			return Manifest{}, err
		}
	}
	return m, nil
}

// readInto replaces buf's content with the file at path.
func readInto(buf *bytes.Buffer, path string) error {
	buf.Reset()
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = buf.ReadFrom(f)
	return err
}

func writeBytes(tw *tar.Writer, name string, data []byte, mod time.Time) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(data)), ModTime: mod, Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	_, err := tw.Write(data)
	return err
}

// prepareCopy removes the secrets from the database copy (unless kept) and
// reads its schema and row counts.
func prepareCopy(ctx context.Context, path string, keepSecrets bool) (schema string, counts map[string]int64, attachments []string, err error) {
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return "", nil, nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if !keepSecrets {
		if err := stripSecrets(ctx, db); err != nil {
			return "", nil, nil, fmt.Errorf("remove the secrets from the copy: %w", err)
		}
	}
	_ = db.QueryRowContext(ctx, `SELECT coalesce(max(name), '') FROM bun_migrations`).Scan(&schema)
	counts = map[string]int64{}
	for _, t := range countedTables {
		var n int64
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM `+t).Scan(&n); err == nil {
			counts[t] = n
		}
	}
	// A database from before attachments has no such table: none.
	if rows, err := db.QueryContext(ctx, `SELECT sha256 FROM attachments ORDER BY sha256`); err == nil {
		defer rows.Close()
		for rows.Next() {
			var sha string
			if err := rows.Scan(&sha); err != nil {
				return "", nil, nil, err
			}
			if validSHA(sha) {
				attachments = append(attachments, sha)
			}
		}
		if err := rows.Err(); err != nil {
			return "", nil, nil, err
		}
	}
	return schema, counts, attachments, nil
}

// validSHA reports whether s is a lower-case hex SHA-256 (the name of an
// attachment's file).
func validSHA(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// stripSecrets deletes every secret setting and masks URL credentials in
// the others, with secure_delete and a VACUUM, so no free page keeps them.
func stripSecrets(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, `SELECT key, value FROM app_settings`)
	if err != nil {
		return err
	}
	type kv struct{ k, v string }
	var del []string
	var mask []kv
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			rows.Close()
			return err
		}
		if config.IsSecretKey(k) {
			del = append(del, k)
		} else if c := redact.URLCredentials(v); c != v {
			mask = append(mask, kv{k, c})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range del {
		if _, err := db.ExecContext(ctx, `DELETE FROM app_settings WHERE key = ?`, k); err != nil {
			return err
		}
	}
	for _, e := range mask {
		if _, err := db.ExecContext(ctx, `UPDATE app_settings SET value = ? WHERE key = ?`, e.v, e.k); err != nil {
			return err
		}
	}
	_, err = db.ExecContext(ctx, `VACUUM`)
	return err
}

type kbFile struct {
	File
	mod time.Time
}

// listKB lists the regular files under dir (slash paths relative to it);
// symbolic links are not followed.
func listKB(dir string) ([]kbFile, error) {
	if dir == "" {
		return nil, nil
	}
	var out []kbFile
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out = append(out, kbFile{File: File{Path: filepath.ToSlash(rel), Size: info.Size()}, mod: info.ModTime()})
		return nil
	})
	return out, err
}

type progressWriter struct {
	fn          Progress
	done, total int64
	last        time.Time
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	if p.fn != nil && (time.Since(p.last) > 100*time.Millisecond || p.done >= p.total) {
		p.last = time.Now()
		p.fn(p.done, p.total)
	}
	return len(b), nil
}

// busyPause is how long a backup pauses while the app is busy, as a
// multiple of the work it did since its last pause: 3 leaves it a quarter
// of the time (and of a core) while a chat turn runs.
const busyPause = 3

// pauseEvery is how much work (wall time) a backup does between two
// checks of Source.Busy.
const pauseEvery = 5 * time.Millisecond

// pacer is written every chunk of the archive's input: once pauseEvery has
// passed since the last check and Source.Busy says the app is busy, it
// sleeps busyPause times that span. The sleep gives up the CPU and the Go
// scheduler's processor both, which a low thread priority alone does not
// (inBackground); an idle app gets the backup at full speed.
type pacer struct {
	busy func() bool
	last time.Time
}

func (p *pacer) Write(b []byte) (int, error) {
	if p.busy == nil {
		return len(b), nil
	}
	now := time.Now()
	if p.last.IsZero() {
		p.last = now
	}
	if worked := now.Sub(p.last); worked >= pauseEvery {
		if p.busy() {
			time.Sleep(busyPause * worked)
		}
		p.last = time.Now()
	}
	return len(b), nil
}
