package kb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Why a dropped file was not copied (DropSkip.Reason).
const (
	// DropUnsupported: not a .md or .txt file.
	DropUnsupported = "unsupported"
	// DropTooBig: larger than the index takes (8 MiB).
	DropTooBig = "too_big"
	// DropDuplicate: the knowledge base already holds the same text at
	// that path, or the same drop already brought a file there.
	DropDuplicate = "duplicate"
	// DropExists: a different document of that name is already there; it
	// is never overwritten (rename the file and drop it again).
	DropExists = "exists"
	// DropUnreadable: the file could not be read, is not UTF-8 text, or is
	// a symlink.
	DropUnreadable = "unreadable"
	// DropLimit: beyond MaxDropFiles.
	DropLimit = "limit"
)

// MaxDropFiles caps the documents one drop copies; maxDropSkips caps the
// skipped entries listed (the rest are counted in SkippedMore), so a folder
// dropped by mistake neither floods the knowledge base nor the window.
const (
	MaxDropFiles = 5000
	maxDropSkips = 200
)

// DropSkip is one dropped file that was not copied.
type DropSkip struct {
	// Path is the file as dropped (absolute), or below a dropped folder.
	Path string `json:"path"`
	// Reason is one of the Drop constants.
	Reason string `json:"reason"`
	// Detail says more for DropUnreadable (the error).
	Detail string `json:"detail"`
}

// DropReport is what a drop into the knowledge base did.
type DropReport struct {
	// Copied lists the documents written, relative to the knowledge base
	// (slash-separated); a .txt file is stored as .md.
	Copied []string `json:"copied"`
	// Skipped lists what was not copied and why (at most 200 entries).
	Skipped []DropSkip `json:"skipped"`
	// SkippedMore counts skipped files beyond the listed ones.
	SkippedMore int `json:"skippedMore"`
	// Bytes is the size of the copied documents.
	Bytes int64 `json:"bytes"`
}

// dropItem is one planned copy: a source file and its name in the KB.
type dropItem struct {
	src, name string
	info      fs.FileInfo
}

// ImportDropped copies files and folders dropped on the Knowledge panel
// into the knowledge base, with the importer's rules (hidden and temporary
// entries ignored, symlinks not followed, atomic writes through an os.Root
// on the KB folder, sources' mtimes kept): a dropped file goes to the KB's
// root, a dropped folder keeps its name and structure below it. Only .md and
// .txt files are taken (a .txt file is stored as .md so it is indexed); an
// existing document is never overwritten. progress, when set, is called with
// (done, total) as files are copied. The running watcher indexes the copies.
func (s *Service) ImportDropped(ctx context.Context, paths []string, progress func(done, total int)) (DropReport, error) {
	rep := DropReport{Copied: []string{}, Skipped: []DropSkip{}}
	skip := func(p, reason, detail string) {
		if len(rep.Skipped) < maxDropSkips {
			rep.Skipped = append(rep.Skipped, DropSkip{Path: p, Reason: reason, Detail: detail})
		} else {
			rep.SkippedMore++
		}
	}
	root := s.Root()
	if root == "" {
		root = s.o.Settings().Dir
	}
	if root == "" {
		return rep, errors.New("the knowledge base has no folder")
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return rep, err
	}
	rootAbs, err := resolvedDir(root)
	if err != nil {
		return rep, err
	}

	var plan []dropItem
	add := func(src, name string, fi fs.FileInfo) {
		ext := strings.ToLower(path.Ext(name))
		switch {
		case ext != ".md" && ext != ".txt":
			skip(src, DropUnsupported, "")
		case fi.Size() > maxDocBytes:
			skip(src, DropTooBig, "")
		case len(plan) >= MaxDropFiles:
			skip(src, DropLimit, "")
		default:
			if ext == ".txt" {
				name = strings.TrimSuffix(name, path.Ext(name)) + ".md"
			}
			plan = append(plan, dropItem{src: src, name: name, info: fi})
		}
	}
	for _, p := range paths {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			skip(p, DropUnreadable, err.Error())
			continue
		}
		fi, err := os.Lstat(abs)
		switch {
		case err != nil:
			skip(p, DropUnreadable, err.Error())
			continue
		case fi.Mode()&fs.ModeSymlink != 0:
			skip(p, DropUnreadable, "symlink")
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		switch {
		case err != nil:
			skip(p, DropUnreadable, err.Error())
			continue
		case within(rootAbs, real):
			skip(p, DropDuplicate, "") // already in the knowledge base
			continue
		case !fi.IsDir() && (!fi.Mode().IsRegular() || ignoredName(fi.Name())):
			skip(p, DropUnsupported, "")
			continue
		case !fi.IsDir():
			add(real, fi.Name(), fi)
			continue
		case within(real, rootAbs):
			skip(p, DropUnreadable, "the folder holds the knowledge base")
			continue
		}
		abs, base := real, filepath.Base(abs)
		err = walkFiles(ctx, abs, func(q, _, reason string) { skip(q, DropUnreadable, reason) }, func(q, rel string, d fs.DirEntry) error {
			info, err := d.Info()
			if err != nil {
				skip(q, DropUnreadable, err.Error())
				return nil
			}
			if !info.Mode().IsRegular() {
				return nil
			}
			add(q, path.Join(base, rel), info)
			return nil
		})
		if err != nil {
			return rep, err
		}
	}

	r, err := os.OpenRoot(rootAbs)
	if err != nil {
		return rep, err
	}
	defer r.Close()
	taken := map[string]bool{}
	for i, it := range plan {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		if progress != nil {
			progress(i, len(plan))
		}
		if taken[strings.ToLower(it.name)] {
			skip(it.src, DropDuplicate, "")
			continue
		}
		data, err := readDropped(it.src)
		if err != nil {
			skip(it.src, DropUnreadable, err.Error())
			continue
		}
		name := filepath.FromSlash(it.name)
		if cur, err := r.ReadFile(name); err == nil {
			if bytes.Equal(cur, data) {
				skip(it.src, DropDuplicate, "")
			} else {
				skip(it.src, DropExists, "")
			}
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			skip(it.src, DropExists, "") // a folder, or unreadable: not overwritten
			continue
		}
		if dir := filepath.Dir(name); dir != "." {
			if err := r.MkdirAll(dir, 0o755); err != nil {
				skip(it.src, DropUnreadable, err.Error())
				continue
			}
		}
		if err := writeAtomic(r, name, data, it.info.ModTime()); err != nil {
			skip(it.src, DropUnreadable, err.Error())
			continue
		}
		taken[strings.ToLower(it.name)] = true
		rep.Copied = append(rep.Copied, it.name)
		rep.Bytes += int64(len(data))
	}
	if progress != nil {
		progress(len(plan), len(plan))
	}
	return rep, nil
}

// readDropped reads a dropped document: at most maxDocBytes of UTF-8 text.
func readDropped(src string) ([]byte, error) {
	f, err := os.Open(src)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxDocBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxDocBytes {
		return nil, fmt.Errorf("larger than %d MiB", maxDocBytes>>20)
	}
	if !utf8.Valid(data) {
		return nil, errors.New("not UTF-8 text")
	}
	return data, nil
}
