package store

import (
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"

	"playchat/backend/atomicfile"
	"playchat/backend/filelock"
)

// When the start-up check may skip PRAGMA quick_check (issue 21). The full
// check reads and verifies every page: at 100,000 messages (a 315 MB file)
// it costs seconds (BenchmarkOpenCheck100k), too much for every `playchat
// ask`. So it runs only when the file is not known to be sound:
//
//   - Another playchat process has the database open (a live stream owner
//     in run/, say the window while `playchat ask` starts): that process
//     checked the file when it started, and its connections stop at the
//     first sign of damage (health.go). No check.
//   - The file is byte for byte what a playchat process left when it closed
//     the database last, cleanly, as its last user (the WAL checkpointed and
//     removed): that process wrote the clean marker beside the database —
//     size, modification time and CRC-32C of the file. A start that finds
//     the marker matching reads the file once for its CRC (about 20× faster
//     than quick_check) and skips quick_check.
//   - Anything else — no marker (the first start after an upgrade, a crash,
//     a kill -9 or a power cut after the last checkpoint), or a file that
//     changed since (garbage written into it, a restored copy) — runs the
//     full quick_check.
//
// The header and the schema version are checked at every start either way.

// CleanSuffix names the clean marker beside the database
// (playchat.db-clean).
const CleanSuffix = "-clean"

// cleanMark identifies a database file as it was when it was closed cleanly.
type cleanMark struct {
	Size    int64  `json:"size"`
	ModTime int64  `json:"mtimeNs"`
	CRC32C  uint32 `json:"crc32c"`
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// markOf reads the file at path for its mark.
func markOf(path string) (cleanMark, error) {
	f, err := os.Open(path)
	if err != nil {
		return cleanMark{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return cleanMark{}, err
	}
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, f); err != nil {
		return cleanMark{}, err
	}
	return cleanMark{Size: st.Size(), ModTime: st.ModTime().UnixNano(), CRC32C: h.Sum32()}, nil
}

// knownClean reports whether the database file at path is what the last
// clean close left (its marker matches: size and time first, which cost a
// stat, then the CRC).
func knownClean(path string) bool {
	b, err := os.ReadFile(path + CleanSuffix)
	if err != nil {
		return false
	}
	var want cleanMark
	if json.Unmarshal(b, &want) != nil {
		return false
	}
	st, err := os.Stat(path)
	if err != nil || st.Size() != want.Size || st.ModTime().UnixNano() != want.ModTime {
		return false
	}
	got, err := markOf(path)
	return err == nil && got == want
}

// writeCleanMark records the database file at path as cleanly closed, when
// it is: this was its last connection (SQLite removed the WAL on close)
// and no damage was seen. Otherwise it removes a stale marker. Failures
// only cost a full check at the next start.
func writeCleanMark(path string, damaged bool) {
	if _, err := os.Stat(path + "-wal"); damaged || !errors.Is(err, os.ErrNotExist) {
		os.Remove(path + CleanSuffix)
		return
	}
	m, err := markOf(path)
	if err != nil {
		os.Remove(path + CleanSuffix)
		return
	}
	b, err := json.Marshal(m)
	if err == nil {
		err = atomicfile.Write(path+CleanSuffix, b, 0o600)
	}
	if err != nil {
		os.Remove(path + CleanSuffix)
	}
}

// anotherOwnerAlive reports whether a process other than the caller has
// the database at path open (its stream-owner lock in run/ is held).
func anotherOwnerAlive(path string) bool {
	dir := filepath.Join(filepath.Dir(path), OwnerDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			continue
		}
		l, err := filelock.TryLockExisting(filepath.Join(dir, e.Name()))
		if err == nil {
			l.Unlock()
			continue
		}
		if errors.Is(err, filelock.ErrLocked) {
			return true
		}
	}
	return false
}
