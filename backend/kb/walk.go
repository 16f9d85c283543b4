package kb

import (
	"context"
	"io/fs"
	"path/filepath"
)

// walkFiles walks the folder root for candidate documents, as the importer
// and drag and drop both do: it skips root itself, ignored names (dot
// files, editor backups: ignoredName) with their subtrees and symlinks, and
// reports what it cannot read. For each other non-directory entry it calls
// file with its path and its path relative to root (slash-separated). An
// unreadable entry or a symlink goes to skip with the same relative path and
// the reason ("symlink" or the error's text); an unreadable directory is
// skipped whole. It stops with ctx's error when ctx ends, or with the error
// file or skip return.
func walkFiles(ctx context.Context, root string, skip func(p, rel, reason string), file func(p, rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			skip(p, rel, err.Error())
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == root {
			return nil
		}
		if ignoredName(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			skip(p, rel, "symlink")
			return nil
		}
		if d.IsDir() {
			return nil
		}
		return file(p, rel, d)
	})
}
