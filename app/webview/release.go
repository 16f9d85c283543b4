package webview

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Release is one release the web extension (webext/playchat-webext.c)
// ran in the web process and reported.
type Release struct {
	// How is "webkit" when WebKit's own release ran
	// (WTF::MemoryPressureHandler::releaseMemory, critical and
	// synchronous), "unavailable" when this WebKit does not export it.
	How string
	// Millis is how long the release held the web process's main
	// thread, in milliseconds.
	Millis float64
	// RSSBeforeKiB and RSSAfterKiB are the web process's resident set
	// around the release, in KiB (-1 when /proc could not be read).
	RSSBeforeKiB, RSSAfterKiB int64
}

// String is the release as the debug log and the self-test print it.
func (r Release) String() string {
	return fmt.Sprintf("%s in %.1f ms, web process RSS %d → %d MiB", r.How, r.Millis, r.RSSBeforeKiB/1024, r.RSSAfterKiB/1024)
}

// releaseReports carries the extension's reports from GTK's main thread
// (playchatWebReleased, a cgo export, which cannot be handed anything) to
// WatchReleases. It is the package's one registry for the C side: a
// process has one web context, so one channel.
var releaseReports = make(chan Release, 16)

// extensionFile is the extension's file name in webext/ and on disk.
const extensionFile = "libplaychat-webext.so"

// writeExtension copies the extension from src (webext/ embedded) into
// a directory of its own under dir, named by its SHA-256 (WebKit loads
// every .so in the directory it is given), and returns that directory. An
// identical file already there is kept; other builds' directories under
// dir are removed once no window can still need them
// (removeOldExtensions). Errors: no extension in src (a
// binary built without make), or dir not writable.
func writeExtension(src fs.FS, dir string) (string, error) {
	so, err := fs.ReadFile(src, "webext/"+extensionFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", errors.New("this binary was built without the web extension (build it with make)")
	} else if err != nil {
		return "", err
	}
	sum := sha256.Sum256(so)
	out := filepath.Join(dir, hex.EncodeToString(sum[:6]))
	path := filepath.Join(out, extensionFile)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, so) {
		now := time.Now()
		os.Chtimes(out, now, now) // in use: see removeOldExtensions
		removeOldExtensions(dir, filepath.Base(out), now)
		return out, nil
	}
	removeOldExtensions(dir, filepath.Base(out), time.Now())
	if err := os.MkdirAll(out, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(out, ".tmp-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(so); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	// A name without .so while it is written: a web process starting
	// meanwhile must not load half a file.
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", err
	}
	return out, nil
}

// ExtensionGrace is how long another build's extension directory is
// kept after its window last started: a window started a moment earlier
// may not have started its web process yet (which loads the extension).
// A window already running keeps the extension it loaded: it is mapped,
// not read again.
const ExtensionGrace = 10 * time.Minute

// removeOldExtensions removes the directories under dir other than
// keep whose modification time is ExtensionGrace before now or older.
func removeOldExtensions(dir, keep string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == keep {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) >= ExtensionGrace {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// ExtensionDir is where Prepare puts the extension: playchat/webext under
// the user's cache directory.
func ExtensionDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "playchat", "webext"), nil
}

// WatchReleases passes the extension's reports on until ctx ends: to log
// as "WEBRELEASE …" lines when log is not nil (the app gives stderr when
// MemStatsEnv is set), and to out when it has room (a waiting self-test;
// a report nobody waits for is dropped).
func WatchReleases(ctx context.Context, log io.Writer, out chan<- Release) {
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-releaseReports:
			if log != nil {
				fmt.Fprintf(log, "WEBRELEASE %s\n", r)
			}
			select {
			case out <- r:
			default:
			}
		}
	}
}
