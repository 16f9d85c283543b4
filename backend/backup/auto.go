package backup

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/redact"
)

// Interval is how often automatic backups run.
const Interval = 24 * time.Hour

// Entry is one archive in a place backups go to.
type Entry struct {
	Name string    `json:"name"`
	Size int64     `json:"size"`
	At   time.Time `json:"at"`
	// Where is the folder path or the WebDAV URL of the archive.
	Where string `json:"where"`
}

// Target is a place automatic backups go to.
type Target interface {
	// Where names the place (a folder, or a WebDAV URL without credentials).
	Where() string
	Put(ctx context.Context, name string, r io.Reader, size int64) error
	List(ctx context.Context) ([]Entry, error)
	Delete(ctx context.Context, name string) error
}

// IsArchiveName reports whether name is one FileName gives.
func IsArchiveName(name string) bool {
	return strings.HasPrefix(name, "playchat-backup-") && (strings.HasSuffix(name, Ext) || strings.HasSuffix(name, EncryptedExt))
}

// Folder is a Target in a local folder.
type Folder struct{ Dir string }

func (f Folder) Where() string { return f.Dir }

func (f Folder) Put(ctx context.Context, name string, r io.Reader, size int64) error {
	if err := os.MkdirAll(f.Dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(f.Dir, ".playchat-backup-*.part")
	if err != nil {
		return err
	}
	_, err = io.Copy(tmp, r)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(f.Dir, name))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func (f Folder) List(ctx context.Context) ([]Entry, error) {
	des, err := os.ReadDir(f.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, d := range des {
		if !d.Type().IsRegular() || !IsArchiveName(d.Name()) {
			continue
		}
		if info, err := d.Info(); err == nil {
			out = append(out, Entry{Name: d.Name(), Size: info.Size(), At: info.ModTime().UTC(), Where: f.Dir})
		}
	}
	return out, nil
}

func (f Folder) Delete(ctx context.Context, name string) error {
	return os.Remove(filepath.Join(f.Dir, filepath.Base(name)))
}

// WebDAV is a Target in a WebDAV folder (Nextcloud, ownCloud, a NAS).
type WebDAV struct {
	URL, User, Password string
	Client              *http.Client
}

func (w WebDAV) Where() string { return redact.URL(w.URL) }

func (w WebDAV) client() *http.Client {
	if w.Client != nil {
		return w.Client
	}
	return &http.Client{Timeout: 30 * time.Minute}
}

func (w WebDAV) fileURL(name string) string {
	return strings.TrimRight(w.URL, "/") + "/" + url.PathEscape(name)
}

func (w WebDAV) do(ctx context.Context, method, u string, body io.Reader, size int64, hdr map[string]string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.ContentLength = size
	}
	if w.User != "" || w.Password != "" {
		req.SetBasicAuth(w.User, w.Password)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := w.client().Do(req)
	if err != nil {
		return nil, errors.New(redact.URLCredentials(err.Error()))
	}
	return resp, nil
}

func statusErr(method string, resp *http.Response) error {
	return fmt.Errorf("WebDAV %s answered %s", method, resp.Status)
}

func (w WebDAV) Put(ctx context.Context, name string, r io.Reader, size int64) error {
	// The folder may not exist yet: MKCOL it (405 when it does).
	if resp, err := w.do(ctx, "MKCOL", strings.TrimRight(w.URL, "/")+"/", nil, 0, nil); err == nil {
		resp.Body.Close()
	}
	resp, err := w.do(ctx, http.MethodPut, w.fileURL(name), r, size, map[string]string{"Content-Type": "application/octet-stream"})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusErr("PUT", resp)
	}
	return nil
}

type multistatus struct {
	Responses []struct {
		Href string `xml:"href"`
		Prop struct {
			Length   int64  `xml:"getcontentlength"`
			Modified string `xml:"getlastmodified"`
		} `xml:"propstat>prop"`
	} `xml:"response"`
}

func (w WebDAV) List(ctx context.Context) ([]Entry, error) {
	body := `<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:prop><d:getcontentlength/><d:getlastmodified/></d:prop></d:propfind>`
	resp, err := w.do(ctx, "PROPFIND", strings.TrimRight(w.URL, "/")+"/", strings.NewReader(body), int64(len(body)),
		map[string]string{"Depth": "1", "Content-Type": "application/xml"})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, nil
	}
	if resp.StatusCode != http.StatusMultiStatus {
		return nil, statusErr("PROPFIND", resp)
	}
	var ms multistatus
	if err := xml.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&ms); err != nil {
		return nil, fmt.Errorf("WebDAV PROPFIND: %w", err)
	}
	var out []Entry
	for _, r := range ms.Responses {
		p, err := url.PathUnescape(r.Href)
		if err != nil {
			continue
		}
		name := path.Base(strings.TrimRight(p, "/"))
		if !IsArchiveName(name) {
			continue
		}
		at, _ := http.ParseTime(r.Prop.Modified)
		out = append(out, Entry{Name: name, Size: r.Prop.Length, At: at.UTC(), Where: w.Where()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (w WebDAV) Delete(ctx context.Context, name string) error {
	resp, err := w.do(ctx, http.MethodDelete, w.fileURL(name), nil, 0, nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusNotFound {
		return statusErr("DELETE", resp)
	}
	return nil
}

// Test checks that the WebDAV folder answers with these credentials (a
// listing works).
func (w WebDAV) Test(ctx context.Context) error {
	_, err := w.List(ctx)
	return err
}

// Rotate deletes the oldest archives of t beyond keep (by name, which
// sorts by time).
func Rotate(ctx context.Context, t Target, keep int) error {
	es, err := t.List(ctx)
	if err != nil {
		return err
	}
	sort.Slice(es, func(i, j int) bool { return es[i].Name > es[j].Name })
	var errs []error
	for i := keep; i < len(es); i++ {
		if err := t.Delete(ctx, es[i].Name); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Due reports whether an automatic backup should run at now, given the
// last successful one.
func Due(s Status, now time.Time) bool {
	return s.LastSuccess == nil || now.Sub(s.LastSuccess.At) >= Interval || s.LastSuccess.At.After(now)
}

// RunToTargets writes one archive (without secrets) and puts it to every
// target, then keeps the newest keep of each. The archive is built once,
// in the data dir, and removed after. The result, recorded in the status
// file, names the first target; a failure of any target fails the result.
func RunToTargets(ctx context.Context, src Source, targets []Target, keep int, auto bool, now time.Time) Result {
	res := Result{At: now.UTC(), Auto: auto}
	fail := func(target string, err error) Result {
		res.OK = false
		res.Error = apperr.Wrap(apperr.BackupFailed, err, map[string]any{"target": target, "detail": redact.URLCredentials(err.Error())}).Error()
		RecordBackup(src.DataDir, res)
		return res
	}
	tmp, err := os.MkdirTemp(src.DataDir, ".auto-backup-")
	if err != nil {
		return fail(src.DataDir, err)
	}
	defer os.RemoveAll(tmp)
	name := FileName(now, false)
	p, _, err := CreateFile(ctx, src, filepath.Join(tmp, name), CreateOptions{Now: func() time.Time { return now }})
	if err != nil {
		return fail(src.DataDir, err)
	}
	st, err := os.Stat(p)
	if err != nil {
		return fail(src.DataDir, err)
	}
	res.Size = st.Size()
	for i, t := range targets {
		f, err := os.Open(p)
		if err != nil {
			return fail(t.Where(), err)
		}
		err = t.Put(ctx, name, f, st.Size())
		f.Close()
		if err != nil {
			return fail(t.Where(), err)
		}
		if i == 0 {
			res.Path = strings.TrimRight(t.Where(), "/") + "/" + name
			if _, ok := t.(Folder); ok {
				res.Path = filepath.Join(t.Where(), name)
			}
		}
		if err := Rotate(ctx, t, keep); err != nil {
			return fail(t.Where(), err)
		}
	}
	res.OK = true
	RecordBackup(src.DataDir, res)
	return res
}
