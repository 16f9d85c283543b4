package kb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// seedFolder copies the Markdown files at the root of seed into dir (a
// folder just created), each written atomically.
func seedFolder(dir string, seed fs.FS) error {
	entries, err := fs.ReadDir(seed, ".")
	if err != nil {
		return err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, e := range entries {
		if e.IsDir() || !isDocPath(e.Name()) {
			continue
		}
		data, err := fs.ReadFile(seed, e.Name())
		if err != nil {
			return err
		}
		if err := writeAtomic(r, e.Name(), data, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes data to name inside r through a hidden temp file renamed
// over it (the watcher ignores the temp file and indexes the result once),
// then sets its mtime when mtime is not zero.
func writeAtomic(r *os.Root, name string, data []byte, mtime time.Time) error {
	dir, base := filepath.Split(name)
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.%d.tmp", base, time.Now().UnixNano()))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !mtime.IsZero() {
		err = r.Chtimes(tmp, mtime, mtime)
	}
	if err == nil {
		err = r.Rename(tmp, name)
	}
	if err != nil {
		_ = r.Remove(tmp)
	}
	return err
}

// ImportOptions control Import.
type ImportOptions struct {
	// Mirror also removes .md files below dst that are not in src.
	Mirror bool
	// DryRun reports what would change and changes nothing.
	DryRun bool
}

// ImportReport lists what an import did (or, with DryRun, would do). Paths
// are relative to dst, slash-separated.
type ImportReport struct {
	Copied    []string `json:"copied"`    // new in dst
	Updated   []string `json:"updated"`   // size or mtime differed
	Unchanged int      `json:"unchanged"` // same size and mtime: not copied
	Removed   []string `json:"removed"`   // gone from src (Mirror)
	// Skipped lists source entries left out: symlinks and files that could
	// not be read, with why.
	Skipped []string `json:"skipped"`
	Bytes   int64    `json:"bytes"` // bytes copied
	DryRun  bool     `json:"dryRun"`
}

// Import copies the .md files below src into dst (created if missing),
// keeping the folder structure — llive's import (seeds/llive-rad-ja.md §3):
// a file is copied when dst lacks it or its size or mtime differ, and the
// copy gets the source's mtime, so an unchanged tree costs one stat per file
// and no hashing. Hidden and temporary entries are skipped, and so are
// symlinks in src. Every write and removal goes through an os.Root on dst,
// so nothing outside dst is touched even if dst holds symlinks. dst must not
// be inside src or src inside dst. Files are written atomically; a running
// watcher indexes them, or the next reconcile does.
func Import(ctx context.Context, src, dst string, opts ImportOptions) (ImportReport, error) {
	rep := ImportReport{DryRun: opts.DryRun}
	srcAbs, err := resolvedDir(src)
	if err != nil {
		return rep, fmt.Errorf("source: %w", err)
	}
	dstAbs, err := filepath.Abs(dst)
	if err != nil {
		return rep, err
	}
	if d, err := filepath.EvalSymlinks(dstAbs); err == nil {
		dstAbs = d
	}
	if within(srcAbs, dstAbs) || within(dstAbs, srcAbs) {
		return rep, fmt.Errorf("source %s and destination %s overlap", srcAbs, dstAbs)
	}
	srcFiles := map[string]os.FileInfo{}
	err = walkFiles(ctx, srcAbs, func(_, rel, reason string) {
		rep.Skipped = append(rep.Skipped, rel+": "+reason)
	}, func(_, rel string, d fs.DirEntry) error {
		if !isDocPath(rel) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			rep.Skipped = append(rep.Skipped, rel+": "+err.Error())
			return nil
		}
		if fi.Size() > maxDocBytes {
			// Too large to index: left out (and reported), not a reason
			// to stop the whole import half-way.
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: larger than %d MiB", rel, maxDocBytes>>20))
			return nil
		}
		srcFiles[rel] = fi
		return nil
	})
	if err != nil {
		return rep, err
	}
	if !opts.DryRun {
		if err := os.MkdirAll(dstAbs, 0o755); err != nil {
			return rep, err
		}
	}
	r, err := os.OpenRoot(dstAbs)
	if errors.Is(err, fs.ErrNotExist) && opts.DryRun {
		r = nil // nothing there yet: everything would be copied
	} else if err != nil {
		return rep, err
	} else {
		defer r.Close()
	}
	rels := make([]string, 0, len(srcFiles))
	for rel := range srcFiles {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	for _, rel := range rels {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		fi := srcFiles[rel]
		name := filepath.FromSlash(rel)
		exists := false
		if r != nil {
			if cur, err := r.Lstat(name); err == nil {
				if cur.Mode().IsRegular() && cur.Size() == fi.Size() && sameTime(cur.ModTime(), fi.ModTime()) {
					rep.Unchanged++
					continue
				}
				exists = true
			}
		}
		if exists {
			rep.Updated = append(rep.Updated, rel)
		} else {
			rep.Copied = append(rep.Copied, rel)
		}
		rep.Bytes += fi.Size()
		if opts.DryRun {
			continue
		}
		if err := copyInto(r, filepath.Join(srcAbs, name), name, fi.ModTime()); err != nil {
			// One unreadable file is reported, the rest still copied.
			rep.Skipped = append(rep.Skipped, rel+": "+err.Error())
			if exists {
				rep.Updated = rep.Updated[:len(rep.Updated)-1]
			} else {
				rep.Copied = rep.Copied[:len(rep.Copied)-1]
			}
			rep.Bytes -= fi.Size()
			continue
		}
	}
	if opts.Mirror && r != nil {
		if err := mirrorRemove(ctx, r, srcFiles, opts.DryRun, &rep); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func copyInto(r *os.Root, src, name string, mtime time.Time) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDocBytes+1))
	if err != nil {
		return err
	}
	if len(data) > maxDocBytes {
		return fmt.Errorf("larger than %d MiB", maxDocBytes>>20)
	}
	if dir := filepath.Dir(name); dir != "." {
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return writeAtomic(r, name, data, mtime)
}

// mirrorRemove deletes the documents below r that src does not have.
func mirrorRemove(ctx context.Context, r *os.Root, srcFiles map[string]os.FileInfo, dryRun bool, rep *ImportReport) error {
	var gone []string
	err := fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() && ignoredName(d.Name()) {
			return fs.SkipDir
		}
		if d.IsDir() || !isDocPath(p) {
			return nil
		}
		if _, ok := srcFiles[p]; !ok {
			gone = append(gone, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range gone {
		rep.Removed = append(rep.Removed, p)
		if dryRun {
			continue
		}
		if err := r.Remove(filepath.FromSlash(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", p, err)
		}
	}
	return nil
}

func resolvedDir(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a folder", p)
	}
	return abs, nil
}

// within reports whether p is dir or below it.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(os.PathSeparator))
}
