package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"playchat/backend/config"
	"playchat/backend/mcpclient"
	"playchat/backend/store"
)

// SafetyDir is the folder of the data dir where a restore moves what it
// replaces (one subfolder per restore, named by its time).
const SafetyDir = "restore-safety"

// appliedMark, in the staged folder, says its database is in place already
// and holds the safety folder's path: the knowledge base comes next.
const appliedMark = "db-applied"

// Pending is a restore whose database is in place and whose knowledge
// base is still to be moved (ApplyStagedKB).
type Pending struct {
	Manifest Manifest
	// Safety is the folder holding what the restore replaced.
	Safety  string
	dataDir string
}

// ErrInUse means another playchat process has the database open, so a
// staged restore waits.
var ErrInUse = errors.New("another playchat process has the database open; the restore waits until it ends")

// ApplyStagedDB puts a staged restore's database, .env and MCP server
// configuration in place. The
// caller holds the data dir exclusively and has not opened the database.
// It returns nil when no restore is staged. The current database (with its
// WAL) and .env move to a new folder under SafetyDir first. When the
// archive has no secrets, the secrets of the current .env and saved
// settings are carried into the restored ones, so a restore on the same
// computer keeps the API keys in use.
func ApplyStagedDB(ctx context.Context, dataDir string) (*Pending, error) {
	staged := filepath.Join(dataDir, StagedDir)
	m := Staged(dataDir)
	if m == nil {
		return nil, nil
	}
	p := &Pending{Manifest: *m, dataDir: dataDir}
	if mark, err := os.ReadFile(filepath.Join(staged, appliedMark)); err == nil {
		p.Safety = string(mark) // the database step ran before a crash
		return p, nil
	}
	live := filepath.Join(dataDir, store.FileName)
	if store.InUse(live) {
		return nil, ErrInUse
	}
	p.Safety = filepath.Join(dataDir, SafetyDir, time.Now().UTC().Format("20060102-150405"))
	if err := os.MkdirAll(p.Safety, 0o700); err != nil {
		return nil, err
	}
	newDB := filepath.Join(staged, filepath.FromSlash(dbEntry))
	newEnv := filepath.Join(staged, filepath.FromSlash(envEntry))
	envPath := filepath.Join(dataDir, config.DotEnvFile)
	newMCP := filepath.Join(staged, filepath.FromSlash(mcpEntry))
	mcpPath := filepath.Join(dataDir, mcpclient.FileName)
	if !m.Secrets {
		if err := carrySecrets(ctx, live, newDB, envPath, newEnv); err != nil {
			return nil, fmt.Errorf("keep the current API keys: %w", err)
		}
		if err := carryMCPSecrets(mcpPath, newMCP); err != nil {
			return nil, fmt.Errorf("keep the current MCP server tokens: %w", err)
		}
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := moveIfExists(live+suffix, filepath.Join(p.Safety, store.FileName+suffix)); err != nil {
			return nil, err
		}
	}
	os.Remove(live + store.CleanSuffix)
	if err := moveIfExists(envPath, filepath.Join(p.Safety, config.DotEnvFile)); err != nil {
		return nil, err
	}
	if err := os.Rename(newDB, live); err != nil {
		return nil, err
	}
	if err := moveIfExists(newEnv, envPath); err != nil {
		return nil, err
	}
	// The MCP servers are the archive's (none when it has none); a
	// version 1 archive never held them and leaves the current file.
	if _, err := os.Stat(newMCP); err == nil || m.Version >= 2 {
		if err := moveIfExists(mcpPath, filepath.Join(p.Safety, mcpclient.FileName)); err != nil {
			return nil, err
		}
		if err := moveIfExists(newMCP, mcpPath); err != nil {
			return nil, err
		}
	}
	// The attachment files are the archive's: the current folder goes to
	// the safety folder with the database that refers to it (the start's
	// sweep would otherwise remove files the restored database does not
	// name), and the archive's files, if any, take its place.
	attPath := filepath.Join(dataDir, store.AttachmentsDir)
	if err := moveIfExists(attPath, filepath.Join(p.Safety, store.AttachmentsDir)); err != nil {
		return nil, err
	}
	if err := moveIfExists(filepath.Join(staged, strings.TrimSuffix(attPrefix, "/")), attPath); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(staged, appliedMark), []byte(p.Safety), 0o600); err != nil {
		return nil, err
	}
	return p, nil
}

// ApplyStagedKB moves the current knowledge base folder to the safety
// folder and the staged one into its place (kbDir, resolved from the
// restored settings), then drops the staged folder.
func ApplyStagedKB(p *Pending, kbDir string) error {
	staged := filepath.Join(p.dataDir, StagedDir)
	newKB := filepath.Join(staged, "kb")
	if err := moveIfExists(kbDir, filepath.Join(p.Safety, "knowledge_base")); err != nil {
		return err
	}
	if _, err := os.Stat(newKB); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(kbDir, 0o700); err != nil {
			return err
		}
	} else if err := move(newKB, kbDir); err != nil {
		return err
	}
	return os.RemoveAll(staged)
}

// carrySecrets copies the secret settings of the live database into the
// staged one and appends the secret statements of the live .env to the
// staged .env.
func carrySecrets(ctx context.Context, liveDB, newDB, liveEnv, newEnv string) error {
	if _, err := os.Stat(liveDB); err == nil {
		from, err := sql.Open("sqlite", "file:"+liveDB+"?mode=ro")
		if err != nil {
			return err
		}
		defer from.Close()
		secrets := map[string]string{}
		if rows, err := from.QueryContext(ctx, `SELECT key, value FROM app_settings`); err == nil {
			for rows.Next() {
				var k, v string
				if rows.Scan(&k, &v) == nil && config.IsSecretKey(k) {
					secrets[k] = v
				}
			}
			rows.Close()
		}
		if len(secrets) > 0 {
			to, err := sql.Open("sqlite", "file:"+newDB)
			if err != nil {
				return err
			}
			defer to.Close()
			for k, v := range secrets {
				if _, err := to.ExecContext(ctx, `INSERT INTO app_settings (key, value) VALUES (?, ?)
					ON CONFLICT (key) DO NOTHING`, k, v); err != nil {
					return err
				}
			}
			if err := to.Close(); err != nil {
				return err
			}
		}
	}
	cur, err := os.ReadFile(liveEnv)
	if err != nil {
		return nil
	}
	_, sec := config.SplitDotEnvSecrets(cur)
	if len(sec) == 0 {
		return nil
	}
	f, err := os.OpenFile(newEnv, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append([]byte("\n# API keys kept from before the restore\n"), sec...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func moveIfExists(from, to string) error {
	if _, err := os.Lstat(from); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return move(from, to)
}

// move renames from to to, copying across file systems.
func move(from, to string) error {
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	if err := os.Rename(from, to); err == nil {
		return nil
	}
	if err := copyTree(from, to); err != nil {
		return err
	}
	return os.RemoveAll(from)
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return err
	})
}
