package backup

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"filippo.io/age"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// StagedDir is the folder of the data dir holding a verified restore that
// waits for the next start.
const StagedDir = "restore-staged"

// OpenOptions are what reading an archive needs.
type OpenOptions struct {
	Passphrase string
	Progress   Progress
}

// ageMagic starts every age file.
const ageMagic = "age-encryption.org/"

// IsEncrypted reports whether the archive at p is encrypted with age.
func IsEncrypted(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(ageMagic))
	n, _ := io.ReadFull(f, b)
	return string(b[:n]) == ageMagic, nil
}

// Verify reads the whole archive and checks it as Stage does, writing
// nothing but a temporary copy under tmpDir (removed before it returns).
func Verify(ctx context.Context, tmpDir, archive string, o OpenOptions) (Manifest, error) {
	dir, err := os.MkdirTemp(tmpDir, ".verify-")
	if err != nil {
		return Manifest{}, err
	}
	defer os.RemoveAll(dir)
	return extract(ctx, archive, dir, o)
}

// Stage verifies the archive completely into a folder of the data dir and
// keeps it there, as StagedDir, for the next start to apply (replacing a
// restore staged before). When anything is wrong — wrong passphrase,
// damaged or truncated file, a missing or extra file, a hash that does not
// match, a newer format or database schema — the staging folder is
// removed, the error is coded (BackupDamaged, BackupNewer,
// BackupWrongPassphrase, BackupPassphraseNeeded) and the data dir is as
// it was.
func Stage(ctx context.Context, dataDir, archive string, o OpenOptions) (Manifest, error) {
	dir, err := os.MkdirTemp(dataDir, ".restore-")
	if err != nil {
		return Manifest{}, err
	}
	m, err := extract(ctx, archive, dir, o)
	if err != nil {
		os.RemoveAll(dir)
		return Manifest{}, err
	}
	final := filepath.Join(dataDir, StagedDir)
	if err := os.RemoveAll(final); err != nil {
		os.RemoveAll(dir)
		return Manifest{}, err
	}
	if err := os.Rename(dir, final); err != nil {
		os.RemoveAll(dir)
		return Manifest{}, err
	}
	return m, nil
}

// Staged returns the manifest of the restore waiting for the next start,
// or nil when none waits.
func Staged(dataDir string) *Manifest {
	data, err := os.ReadFile(filepath.Join(dataDir, StagedDir, manifestName))
	if err != nil {
		return nil
	}
	var m Manifest
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return &m
}

// CancelStaged drops the restore waiting for the next start.
func CancelStaged(dataDir string) error {
	return os.RemoveAll(filepath.Join(dataDir, StagedDir))
}

func damaged(archive string, format string, args ...any) error {
	detail := fmt.Sprintf(format, args...)
	return apperr.Wrap(apperr.BackupDamaged, errors.New(detail), map[string]any{"path": archive, "detail": detail})
}

// extract reads the archive into dir and verifies it.
func extract(ctx context.Context, archive, dir string, o OpenOptions) (Manifest, error) {
	f, err := os.Open(archive)
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Manifest{}, err
	}
	pr := &progressReader{r: f, p: progressWriter{fn: o.Progress, total: st.Size()}}
	br := bufio.NewReader(pr)
	var r io.Reader = br
	if head, _ := br.Peek(len(ageMagic)); string(head) == ageMagic {
		if o.Passphrase == "" {
			return Manifest{}, apperr.New(apperr.BackupPassphraseNeeded, map[string]any{"min": MinPassphrase})
		}
		id, err := age.NewScryptIdentity(o.Passphrase)
		if err != nil {
			return Manifest{}, err
		}
		dr, err := age.Decrypt(br, id)
		if err != nil {
			var noMatch *age.NoIdentityMatchError
			if errors.As(err, &noMatch) || strings.Contains(err.Error(), "incorrect passphrase") {
				return Manifest{}, apperr.Wrap(apperr.BackupWrongPassphrase, err, map[string]any{"path": archive})
			}
			return Manifest{}, damaged(archive, "encrypted header: %v", err)
		}
		r = dr
	}
	gz, err := gzip.NewReader(r)
	if err != nil {
		return Manifest{}, damaged(archive, "not a playchat backup (%v)", err)
	}
	tr := tar.NewReader(gz)
	var hdr *Header
	var man *Manifest
	got := map[string]File{}
	for {
		if err := ctx.Err(); err != nil {
			return Manifest{}, err
		}
		th, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Manifest{}, damaged(archive, "reading the archive: %v", err)
		}
		name := th.Name
		if man != nil {
			return Manifest{}, damaged(archive, "an entry after the manifest: %q", name)
		}
		if th.Typeflag != tar.TypeReg {
			return Manifest{}, damaged(archive, "%q is not a regular file", name)
		}
		switch {
		case hdr == nil && name != headerName:
			return Manifest{}, damaged(archive, "no header (first entry %q)", name)
		case name == headerName || name == manifestName:
			if hdr != nil && name == headerName {
				return Manifest{}, damaged(archive, "a second header")
			}
			data, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			if err != nil {
				return Manifest{}, damaged(archive, "reading %s: %v", name, err)
			}
			if name == headerName {
				hdr = new(Header)
				if err := json.Unmarshal(data, hdr); err != nil || hdr.Format != Format {
					return Manifest{}, damaged(archive, "not a playchat backup header")
				}
				if hdr.Version > Version {
					detail := fmt.Sprintf("archive format %d, this playchat reads up to %d (made by playchat %s)", hdr.Version, Version, hdr.AppVersion)
					return Manifest{}, apperr.Wrap(apperr.BackupNewer, errors.New(detail), map[string]any{"path": archive, "detail": detail})
				}
				continue
			}
			man = new(Manifest)
			if err := json.Unmarshal(data, man); err != nil {
				return Manifest{}, damaged(archive, "the manifest cannot be read: %v", err)
			}
			if err := os.WriteFile(filepath.Join(dir, manifestName), data, 0o600); err != nil {
				return Manifest{}, err
			}
			continue
		}
		if !validEntry(name) {
			return Manifest{}, damaged(archive, "unexpected entry %q", name)
		}
		if _, dup := got[name]; dup {
			return Manifest{}, damaged(archive, "%q appears twice", name)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
			return Manifest{}, err
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return Manifest{}, err
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(out, h), tr)
		if cerr := out.Close(); err == nil && cerr != nil {
			return Manifest{}, cerr
		}
		if err != nil {
			return Manifest{}, damaged(archive, "reading %s: %v", name, err)
		}
		got[name] = File{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
	}
	// The rest of the stream: gzip's checksum, age's last chunk.
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return Manifest{}, damaged(archive, "the end of the archive: %v", err)
	}
	if err := gz.Close(); err != nil {
		return Manifest{}, damaged(archive, "%v", err)
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return Manifest{}, damaged(archive, "the end of the archive: %v", err)
	}
	if hdr == nil || man == nil {
		return Manifest{}, damaged(archive, "the archive ends before its manifest")
	}
	if man.Header != *hdr {
		return Manifest{}, damaged(archive, "the manifest does not match the header")
	}
	if len(man.Files) != len(got) {
		return Manifest{}, damaged(archive, "the manifest lists %d files, the archive holds %d", len(man.Files), len(got))
	}
	for _, want := range man.Files {
		if g, ok := got[want.Path]; !ok || g != want {
			return Manifest{}, damaged(archive, "%s does not match the manifest", want.Path)
		}
	}
	if _, ok := got[dbEntry]; !ok {
		return Manifest{}, damaged(archive, "no database in the archive")
	}
	// quick_check of every page, and a schema this playchat knows.
	if err := store.Check(ctx, filepath.Join(dir, filepath.FromSlash(dbEntry))); err != nil {
		if apperr.CodeOf(err) == apperr.StoreNewerSchema {
			detail := fmt.Sprintf("database schema %s, this playchat knows up to %s", man.Schema, store.LatestMigration())
			return Manifest{}, apperr.Wrap(apperr.BackupNewer, err, map[string]any{"path": archive, "detail": detail})
		}
		return Manifest{}, damaged(archive, "the database in it: %v", err)
	}
	return *man, nil
}

// validEntry reports whether name is an entry an archive may hold, inside
// its folder.
func validEntry(name string) bool {
	if name == dbEntry || name == envEntry || name == mcpEntry {
		return true
	}
	if rel, ok := strings.CutPrefix(name, attPrefix); ok {
		dir, sha, ok := strings.Cut(rel, "/")
		return ok && validSHA(sha) && dir == sha[:2]
	}
	rel, ok := strings.CutPrefix(name, kbPrefix)
	return ok && rel != "" && path.Clean(rel) == rel && filepath.IsLocal(filepath.FromSlash(rel)) && !strings.Contains(rel, "\\")
}

type progressReader struct {
	r io.Reader
	p progressWriter
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.p.Write(b[:n])
	return n, err
}
