package session

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// An archive export (issue 27) is one zip file holding several chats — a
// folder's, or a multi-selection's:
//
//	<title>.md       one readable file per chat in the format asked for (md,
//	                 html or json), named after its title ("chat" when it has
//	                 none; a repeated name gets " (2)", " (3)", …)
//	json/<title>.json the lossless JSON of each chat (what Import reads), when
//	                 the readable files are Markdown or HTML
//
// Every entry is written with the export time. Ids are checked before
// anything is written: an unknown one fails the whole export.

// ArchiveExt is the extension of an archive export.
const ArchiveExt = ".zip"

// ArchiveJSONDir is the folder of an archive export that holds each chat's
// lossless JSON beside its Markdown or HTML file.
const ArchiveJSONDir = "json/"

// maxFileNameRunes bounds a chat's file name in an archive (before the extension).
const maxFileNameRunes = 80

var unsafeFileName = regexp.MustCompile(`[\\/:*?"<>|\x00-\x1f\x7f]+`)

// FileNameOf is a file name (without extension) for a chat titled title:
// characters no file system takes become "_", at most 80 characters,
// "chat" when nothing is left.
func FileNameOf(title string) string {
	name := strings.TrimSpace(unsafeFileName.ReplaceAllString(title, "_"))
	name = strings.Trim(name, ". ")
	if utf8.RuneCountInString(name) > maxFileNameRunes {
		name = strings.TrimSpace(string([]rune(name)[:maxFileNameRunes]))
	}
	if name == "" {
		name = "chat"
	}
	return name
}

// ArchiveResult says what an archive export wrote.
type ArchiveResult struct {
	// Chats is how many chats are in the archive.
	Chats int `json:"chats"`
	// Files are the entry names, in the order written.
	Files []string `json:"files"`
}

// ExportArchive writes the chats ids (in that order; a repeated id counts
// once) to w as one zip archive, each in format (md, html or json). No
// ids, an unknown format or an id that is not a chat fail before anything
// is written (apperr.ExportNothing, apperr.ExportFormat, an error wrapping
// store.ErrNotFound).
func ExportArchive(ctx context.Context, db *store.DB, ids []string, format string, w io.Writer, o ExportOptions) (ArchiveResult, error) {
	format = strings.ToLower(format)
	switch format {
	case FormatJSON, FormatMarkdown, FormatHTML:
	default:
		return ArchiveResult{}, apperr.New(apperr.ExportFormat, map[string]any{"format": format})
	}
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return ArchiveResult{}, apperr.New(apperr.ExportNothing, nil)
	}
	titles := make([]string, len(ids))
	for i, id := range ids {
		s, err := db.GetSession(ctx, id)
		if err != nil {
			return ArchiveResult{}, fmt.Errorf("export chat %s: %w", id, err)
		}
		titles[i] = s.Title
	}
	// Render everything first: a chat that fails leaves w untouched.
	type entry struct {
		name string
		data []byte
	}
	var entries []entry
	used := map[string]bool{}
	for i, id := range ids {
		name := uniqueName(FileNameOf(titles[i]), used)
		data, ext, err := ExportAs(ctx, db, id, format, o)
		if err != nil {
			return ArchiveResult{}, fmt.Errorf("export chat %s: %w", id, err)
		}
		entries = append(entries, entry{name + ext, data})
		if format != FormatJSON {
			js, err := ExportJSON(ctx, db, id)
			if err != nil {
				return ArchiveResult{}, fmt.Errorf("export chat %s: %w", id, err)
			}
			entries = append(entries, entry{ArchiveJSONDir + name + ".json", js})
		}
	}
	zw := zip.NewWriter(w)
	mod := o.now().Truncate(time.Second)
	res := ArchiveResult{Chats: len(ids)}
	for _, e := range entries {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mod})
		if err != nil {
			return ArchiveResult{}, err
		}
		if _, err := f.Write(e.data); err != nil {
			return ArchiveResult{}, err
		}
		res.Files = append(res.Files, e.name)
	}
	if err := zw.Close(); err != nil {
		return ArchiveResult{}, err
	}
	return res, nil
}

// FolderChats returns the ids of the chats in folder id, most recently
// updated first, archived ones included (an export of a folder is all of
// it). An unknown folder is apperr.FolderNotFound.
func FolderChats(ctx context.Context, db *store.DB, folderID int64) ([]string, error) {
	fs, err := db.Folders(ctx)
	if err != nil {
		return nil, err
	}
	found := false
	for _, f := range fs {
		found = found || f.ID == folderID
	}
	if !found {
		return nil, apperr.Wrap(apperr.FolderNotFound, store.ErrNotFound, map[string]any{"id": folderID})
	}
	ss, err := db.ListPlacedSessions(ctx, store.SessionFilter{All: true, Folder: &folderID})
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ss))
	for i, s := range ss {
		ids[i] = s.ID
	}
	return ids, nil
}

func uniqueIDs(ids []string) []string {
	seen := map[string]bool{}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	return out
}

// uniqueName returns name, or name (2), name (3)… when it is taken
// (compared without case: not every file system tells case apart).
func uniqueName(name string, used map[string]bool) string {
	try := name
	for n := 2; used[strings.ToLower(try)]; n++ {
		try = fmt.Sprintf("%s (%d)", name, n)
	}
	used[strings.ToLower(try)] = true
	return try
}
