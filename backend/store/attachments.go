package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/atomicfile"
)

// AttachmentsDir is the folder, beside the database file, that holds the
// attachments' files: <sha[:2]>/<sha>, the hex SHA-256 of the bytes.
const AttachmentsDir = "attachments"

// strayFileAge is how old a file in AttachmentsDir without a row must be
// before SweepAttachments removes it: a message being stored writes its
// files just before the transaction that records them.
const strayFileAge = time.Hour

// MessageFile is one attachment of a message: a link (name, position)
// to a stored file with what is known of it.
type MessageFile struct {
	// Name is the file name the user gave (display only).
	Name string `json:"name"`
	// Kind is "image" or "text" (backend/attach).
	Kind string `json:"kind"`
	// MIME is the stored bytes' media type.
	MIME string `json:"mime"`
	// SHA256 is the hex SHA-256 of the stored bytes: the file's name.
	SHA256 string `json:"sha256"`
	// Size is the stored file's size in bytes; OriginalSize the size of the
	// file as the user gave it (an image is re-encoded, so they differ).
	Size         int64 `json:"size"`
	OriginalSize int64 `json:"originalSize"`
	// Width and Height are an image's pixel size (0 for a document).
	Width  int `json:"width"`
	Height int `json:"height"`
	// Text is a document's text ("" for an image).
	Text string `json:"text"`
	// Pages is a PDF's page count (0 for other kinds, and for files stored
	// before it was recorded).
	Pages int `json:"pages,omitempty"`
	// SentPages, when > 0, is how many of a PDF's pages the message sent
	// (pages 1..SentPages of Pages): the user chose to send the part of a
	// document that fits the model. 0 sends the whole document.
	SentPages int `json:"sentPages,omitempty"`
	// SentChars, when > 0, is how many characters (runes) of a document's
	// text without pages the message sent (the first SentChars). 0 sends
	// the whole text.
	SentChars int `json:"sentChars,omitempty"`
	// Data, given to InsertMessage or InsertBranch, is the bytes to store
	// (their SHA-256 must be SHA256). nil links a file already stored
	// (the copy of an edited message's attachments). Never loaded.
	Data []byte `json:"-"`
}

var shaRe = regexp.MustCompile(`^[0-9a-f]{64}$`)

// blobMu serialises, within the process, storing a message's files with
// the sweep that removes unreferenced ones, so a file is never removed
// between being written and being linked.
var blobMu sync.Mutex

func (d *DB) blobPath(sha string) (string, error) {
	if !shaRe.MatchString(sha) {
		return "", fmt.Errorf("attachment %q: not a SHA-256", sha)
	}
	return filepath.Join(filepath.Dir(d.path), AttachmentsDir, sha[:2], sha), nil
}

// writeFiles stores the bytes of fs that carry Data (content-addressed;
// a file already there is kept). Each Data must hash to its SHA256.
func (d *DB) writeFiles(files []MessageFile) error {
	for i := range files {
		f := &files[i]
		if f.Data == nil {
			continue
		}
		h := sha256.Sum256(f.Data)
		if hex.EncodeToString(h[:]) != f.SHA256 {
			return fmt.Errorf("attachment %s: its bytes do not match its SHA-256", f.Name)
		}
		f.Size = int64(len(f.Data))
		p, err := d.blobPath(f.SHA256)
		if err != nil {
			return err
		}
		if st, err := os.Stat(p); err == nil && st.Size() == f.Size {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return fmt.Errorf("attachment folder: %w", err)
		}
		if err := atomicfile.Write(p, f.Data, 0o600); err != nil {
			return fmt.Errorf("store attachment %s: %w", f.Name, err)
		}
	}
	return nil
}

// linkFiles records files as message id's attachments, in order, inside tx.
// A file given without Data must already be stored.
func linkFiles(ctx context.Context, tx bun.Tx, id int64, files []MessageFile) error {
	for i, f := range files {
		if f.Data != nil {
			if _, err := tx.NewRaw(`INSERT OR IGNORE INTO attachments (sha256, kind, mime, size, width, height, text, pages, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, f.SHA256, f.Kind, f.MIME, f.Size, f.Width, f.Height, f.Text, f.Pages, now()).Exec(ctx); err != nil {
				return fmt.Errorf("record attachment: %w", err)
			}
		}
		if _, err := tx.NewRaw(`INSERT INTO message_attachments (message_id, sha256, name, original_size, position, sent_pages, sent_chars)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, f.SHA256, f.Name, f.OriginalSize, i, f.SentPages, f.SentChars).Exec(ctx); err != nil {
			return fmt.Errorf("link attachment %s: %w", f.Name, err)
		}
	}
	return nil
}

// LoadFiles sets the Files of each message of ms that has attachments
// (without Data; ReadAttachment reads the bytes). It reads them in one
// query over the range of ms's ids — not a list of thousands of ids, which
// SQLite would have to parse and sort each turn — keeping those of ms; when
// ms are all of one session, the links of other sessions' messages in the
// range are skipped by the query itself.
func (d *DB) LoadFiles(ctx context.Context, ms []Message) error {
	if len(ms) == 0 {
		return nil
	}
	lo, hi, session := ms[0].ID, ms[0].ID, ms[0].SessionID
	for _, m := range ms {
		lo, hi = min(lo, m.ID), max(hi, m.ID)
		if m.SessionID != session {
			session = ""
		}
	}
	where, args := "l.message_id BETWEEN ? AND ?", []any{lo, hi}
	if session != "" {
		where += " AND EXISTS (SELECT 1 FROM messages m WHERE m.id = l.message_id AND m.session_id = ?)"
		args = append(args, session)
	}
	byID, err := d.filesWhere(ctx, where, args...)
	if err != nil {
		return err
	}
	for i := range ms {
		ms[i].Files = byID[ms[i].ID]
	}
	return nil
}

// FilesOf returns the attachments of the given messages, keyed by message
// id, each message's in order. Messages without any are absent.
func (d *DB) FilesOf(ctx context.Context, ids []int64) (map[int64][]MessageFile, error) {
	if len(ids) == 0 {
		return map[int64][]MessageFile{}, nil
	}
	return d.filesWhere(ctx, "l.message_id IN (?)", bun.In(ids))
}

// filesWhere returns the attachments of the links matching where (on
// message_attachments l, with args), keyed by message id, each message's
// in order.
func (d *DB) filesWhere(ctx context.Context, where string, args ...any) (map[int64][]MessageFile, error) {
	out := map[int64][]MessageFile{}
	var rows []struct {
		MessageID int64 `bun:"message_id"`
		MessageFile
	}
	err := d.bun.NewRaw(`SELECT l.message_id, l.name, l.original_size, l.sent_pages, l.sent_chars, a.sha256, a.kind, a.mime, a.size,
			a.width, a.height, a.text, a.pages
		FROM message_attachments l JOIN attachments a ON a.sha256 = l.sha256
		WHERE `+where+` ORDER BY l.message_id, l.position`, args...).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.MessageID] = append(out[r.MessageID], r.MessageFile)
	}
	return out, nil
}

// ReadAttachment returns the stored bytes of file sha (hex SHA-256). A
// file that is recorded but missing on disk is a coded AttachMissing
// error; a sha that is not one is refused.
func (d *DB) ReadAttachment(sha string) ([]byte, error) {
	p, err := d.blobPath(sha)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, apperr.Wrap(apperr.AttachMissing, err, map[string]any{"sha": sha})
	}
	return b, err
}

// SweepAttachments removes the files no message refers to any more (their
// rows first, in one transaction, then the files), and files in the
// attachments folder without a row that are older than an hour (left by a
// store that failed). It returns how many files it removed.
func (d *DB) SweepAttachments(ctx context.Context) (int, error) {
	blobMu.Lock()
	defer blobMu.Unlock()
	var gone []string
	err := d.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		if err := tx.NewRaw(`SELECT sha256 FROM attachments a
			WHERE NOT EXISTS (SELECT 1 FROM message_attachments l WHERE l.sha256 = a.sha256)`).Scan(ctx, &gone); err != nil {
			return err
		}
		if len(gone) == 0 {
			return nil
		}
		_, err := tx.NewRaw(`DELETE FROM attachments WHERE sha256 IN (?)`, bun.In(gone)).Exec(ctx)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sweep attachments: %w", err)
	}
	removed := 0
	for _, sha := range gone {
		if p, err := d.blobPath(sha); err == nil && os.Remove(p) == nil {
			removed++
		}
	}
	n, err := d.sweepStrays(ctx)
	return removed + n, err
}

// sweepStrays removes files of the attachments folder that no row names
// and that are older than strayFileAge.
func (d *DB) sweepStrays(ctx context.Context) (int, error) {
	root := filepath.Join(filepath.Dir(d.path), AttachmentsDir)
	var known []string
	if err := d.bun.NewRaw(`SELECT sha256 FROM attachments`).Scan(ctx, &known); err != nil {
		return 0, err
	}
	keep := make(map[string]bool, len(known))
	for _, k := range known {
		keep[k] = true
	}
	removed := 0
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if e.IsDir() || keep[e.Name()] {
			return nil
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > strayFileAge {
			if os.Remove(p) == nil {
				removed++
			}
		}
		return nil
	})
	return removed, err
}

// sweepQuietly runs SweepAttachments after a delete of messages or
// sessions (they remove their links by cascade). Its failure does not fail the delete: the files stay until a
// later sweep (every start runs one) removes them.
func (d *DB) sweepQuietly(ctx context.Context) {
	_, _ = d.SweepAttachments(context.WithoutCancel(ctx))
}

// AttachmentMIME returns the media type of stored file sha; a file no row
// records is a coded AttachMissing error.
func (d *DB) AttachmentMIME(ctx context.Context, sha string) (string, error) {
	var mimes []string
	if err := d.bun.NewRaw(`SELECT mime FROM attachments WHERE sha256 = ?`, sha).Scan(ctx, &mimes); err != nil {
		return "", err
	}
	if len(mimes) == 0 {
		return "", apperr.New(apperr.AttachMissing, map[string]any{"sha": sha})
	}
	return mimes[0], nil
}

// AttachmentText returns the text of stored document sha as it went to
// the model (a PDF's with its "[page N]" markers; "" for an image); a file
// no row records is a coded AttachMissing error.
func (d *DB) AttachmentText(ctx context.Context, sha string) (string, error) {
	var texts []string
	if err := d.bun.NewRaw(`SELECT text FROM attachments WHERE sha256 = ?`, sha).Scan(ctx, &texts); err != nil {
		return "", err
	}
	if len(texts) == 0 {
		return "", apperr.New(apperr.AttachMissing, map[string]any{"sha": sha})
	}
	return texts[0], nil
}

// StoreFiles writes the bytes of files (content-addressed, as InsertMessage
// does) and then runs fn, which links them to messages in its transaction
// (LinkFiles); no sweep runs in between. A session import stores many
// messages' files this way.
func (d *DB) StoreFiles(files []MessageFile, fn func() error) error {
	blobMu.Lock()
	defer blobMu.Unlock()
	if err := d.writeFiles(files); err != nil {
		return err
	}
	return fn()
}

// LinkFiles records files as message id's attachments inside tx (files
// given with Data are recorded too; their bytes must have been stored by
// StoreFiles).
func LinkFiles(ctx context.Context, tx bun.Tx, id int64, files []MessageFile) error {
	for i := range files {
		if files[i].Data != nil {
			files[i].Size = int64(len(files[i].Data))
		}
	}
	return linkFiles(ctx, tx, id, files)
}
