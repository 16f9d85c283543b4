package backup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"time"

	"playchat/backend/atomicfile"
)

// StatusFile, in the data dir, holds the last backup's and restore's
// results. It is not in the database, so a restore does not overwrite it
// and a damaged database does not hide it.
const StatusFile = "backup-status.json"

// Result is how one backup went.
type Result struct {
	At time.Time `json:"at"`
	OK bool      `json:"ok"`
	// Error is why it failed (English), "" when OK.
	Error string `json:"error,omitempty"`
	// Path is the archive written (a file path, or a WebDAV URL).
	Path string `json:"path,omitempty"`
	Size int64  `json:"size,omitempty"`
	// Auto is true for a scheduled backup.
	Auto bool `json:"auto"`
}

// RestoreResult is how the last restore went.
type RestoreResult struct {
	At               time.Time `json:"at"`
	ArchiveCreatedAt time.Time `json:"archiveCreatedAt"`
	OK               bool      `json:"ok"`
	Error            string    `json:"error,omitempty"`
	// Safety is the folder holding what the restore replaced.
	Safety string `json:"safety"`
}

// Status is the content of StatusFile.
type Status struct {
	LastBackup *Result `json:"lastBackup,omitempty"`
	// LastSuccess is the last backup that worked (the daily schedule
	// counts from it).
	LastSuccess *Result        `json:"lastSuccess,omitempty"`
	LastRestore *RestoreResult `json:"lastRestore,omitempty"`
}

var statusMu sync.Mutex

// ReadStatus reads the data dir's StatusFile (zero when there is none).
func ReadStatus(dataDir string) Status {
	var s Status
	if b, err := os.ReadFile(filepath.Join(dataDir, StatusFile)); err == nil {
		_ = json.Unmarshal(b, &s)
	}
	return s
}

// UpdateStatus changes the data dir's StatusFile with fn.
func UpdateStatus(dataDir string, fn func(*Status)) error {
	statusMu.Lock()
	defer statusMu.Unlock()
	s := ReadStatus(dataDir)
	fn(&s)
	b, _ := json.MarshalIndent(s, "", "  ")
	return atomicfile.Write(filepath.Join(dataDir, StatusFile), b, 0o600)
}

// RecordBackup stores r as the last backup (and the last success if OK).
func RecordBackup(dataDir string, r Result) error {
	return UpdateStatus(dataDir, func(s *Status) {
		s.LastBackup = &r
		if r.OK {
			s.LastSuccess = &r
		}
	})
}
