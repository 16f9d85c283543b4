package kb

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"playchat/backend/apperr"
)

// TrashDir is the folder of the knowledge base's root that Delete moves
// documents into (".playchat-trash"; a dot folder, so neither the index nor
// the watcher reads it). Each deletion goes into a folder of its own named by
// the time (UTC, "20261202T013000.000"), with the document's path kept
// inside it, so nothing deleted from the window is lost: it is put back by
// moving the file out again.
const TrashDir = ".playchat-trash"

// Delete removes the document at relPath (relative to the root, either
// separator) from the knowledge base: the file is moved into TrashDir and its
// chunks leave the index, so layer 3 and search stop finding it at once.
// It returns the document's path inside the trash (relative to the root,
// slash-separated). Errors: ErrOutsideRoot for a path that leaves the root
// (absolute, "..", a symlink anywhere on the way), ErrNotDocument when it is
// not a visible .md file, fs.ErrNotExist when there is none; nothing is
// changed then.
func (s *Service) Delete(ctx context.Context, relPath string) (string, error) {
	rel, err := cleanRel(relPath)
	if err != nil {
		return "", err
	}
	if _, err := s.prepareRoot(); err != nil {
		return "", err
	}
	_, root := s.currentRoot()
	target, err := s.resolve(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
	} else if err != nil || target != rel {
		// Out of the root, or reached through a symlink: the window deletes
		// only a file that is where its path says.
		return "", fmt.Errorf("%s: %w", rel, ErrOutsideRoot)
	}
	name := filepath.FromSlash(rel)
	fi, err := root.Lstat(name)
	if err != nil {
		return "", fmt.Errorf("%s: %w", rel, err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %w", rel, ErrNotDocument)
	}
	trashed, err := freeTrashPath(root, rel, time.Now())
	if err != nil {
		return "", deleteFailed(rel, err)
	}
	if err := root.MkdirAll(filepath.Dir(filepath.FromSlash(trashed)), 0o755); err != nil {
		return "", deleteFailed(rel, err)
	}
	if err := root.Rename(name, filepath.FromSlash(trashed)); err != nil {
		return "", deleteFailed(rel, err)
	}
	// The index learns it as it learns any file gone (the watcher would
	// too, later): the job finds no file and deletes its rows.
	s.enqueue(job{rel: rel})
	return trashed, nil
}

// maxTrashTries bounds the search for a free folder name in the trash: a
// name is taken only by a deletion in the same millisecond.
const maxTrashTries = 1000

// freeTrashPath is where rel goes in the trash for a deletion at now:
// TrashDir/<time>/rel, or <time>-2, -3 … when that is taken. An error other
// than "does not exist" (TrashDir is a file, not a folder; no permission)
// ends the search: no free name would ever be found.
func freeTrashPath(root *os.Root, rel string, now time.Time) (string, error) {
	stamp := now.UTC().Format("20060102T150405.000")
	trashed := path.Join(TrashDir, stamp, rel)
	for i := 2; i <= maxTrashTries; i++ {
		_, err := root.Lstat(filepath.FromSlash(trashed))
		if errors.Is(err, fs.ErrNotExist) {
			return trashed, nil
		}
		if err != nil {
			return "", err
		}
		trashed = path.Join(TrashDir, stamp+"-"+strconv.Itoa(i), rel)
	}
	return "", fmt.Errorf("no free name after %d tries", maxTrashTries)
}

// deleteFailed is kb.deleteFailed for rel with err as its detail.
func deleteFailed(rel string, err error) error {
	return apperr.Wrap(apperr.KBDeleteFailed, err, map[string]any{"name": rel, "trash": TrashDir, "detail": err.Error()})
}
