package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"playchat/backend/core"
)

// fakePlatform answers dialogs with fixed paths and records events.
type fakePlatform struct {
	savePath, openPath string
	documents          []string
	attachments        []string
	events             []string
	// The window: what the tray and quit asked of it.
	hides, shows, quits int
	js                  []string
}

func (f *fakePlatform) Emit(name string, data any)                  { f.events = append(f.events, name) }
func (f *fakePlatform) SaveFile(title, name string) (string, error) { return f.savePath, nil }
func (f *fakePlatform) OpenFile(title string, _ ...runtime.FileFilter) (string, error) {
	return f.openPath, nil
}
func (f *fakePlatform) OpenDocuments(string) ([]string, error)   { return f.documents, nil }
func (f *fakePlatform) OpenAttachments(string) ([]string, error) { return f.attachments, nil }
func (f *fakePlatform) Show()                                    { f.shows++ }
func (f *fakePlatform) Hide()                                    { f.hides++ }
func (f *fakePlatform) Quit()                                    { f.quits++ }
func (f *fakePlatform) ExecJS(js string)                         { f.js = append(f.js, js) }
func (f *fakePlatform) OnEvent(string, func(...any)) func()      { return func() {} }
func (f *fakePlatform) SetSize(int, int)                         {}
func (f *fakePlatform) ReloadApp()                               {}
func (f *fakePlatform) OpenURL(string)                           {}
func (f *fakePlatform) Fatal(title, message string)              {}

func newTestApp(t *testing.T, env ...string) (*App, *fakePlatform) {
	t.Helper()
	c, err := core.Open(context.Background(), core.Options{DataDir: t.TempDir(), Environ: env, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := &fakePlatform{}
	return &App{core: c, platform: p}, p
}

func field(v SettingsView, key string) SettingField {
	for _, f := range v.Fields {
		if f.Key == key {
			return f
		}
	}
	return SettingField{}
}

func TestSettingsNeverShowASecretAndAnEmptySecretKeepsIt(t *testing.T) {
	a, _ := newTestApp(t)
	s := &SettingsService{a}
	const key = "sk-test-0123456789abcdefXYZ1"
	v, err := s.Save(SettingsUpdate{Values: map[string]string{"OPENAI_API_KEY": key, "DEFAULT_MODEL": "openai/gpt-4o-mini"}})
	if err != nil {
		t.Fatal(err)
	}
	f := field(v, "OPENAI_API_KEY")
	if !f.Secret || !f.IsSet || f.Source != "gui" || strings.Contains(f.Value, "0123456789") || !strings.HasSuffix(f.Value, "XYZ1") {
		t.Fatalf("secret field = %+v", f)
	}
	// Saving the form again with the secret left empty keeps it.
	if _, err := s.Save(SettingsUpdate{Values: map[string]string{"OPENAI_API_KEY": "", "DEFAULT_MODEL": "openai/gpt-4.1-mini"}}); err != nil {
		t.Fatal(err)
	}
	c, _ := a.backend()
	if c.Config().OpenAIKey != key || c.Config().DefaultModel != "openai/gpt-4.1-mini" {
		t.Fatalf("after a save with an empty secret: model %q, key kept %v", c.Config().DefaultModel, c.Config().OpenAIKey == key)
	}
	// Clearing removes the GUI value.
	v, _ = s.Save(SettingsUpdate{Clear: []string{"OPENAI_API_KEY"}})
	if f := field(v, "OPENAI_API_KEY"); f.IsSet || f.Source != "default" {
		t.Fatalf("cleared secret = %+v", f)
	}
	if _, err := s.Save(SettingsUpdate{Values: map[string]string{"MEMORY_SUMMARIZE_THRESHOLD": "abc"}}); err == nil {
		t.Fatal("an invalid value was saved")
	}
}

func TestExportAndImportThroughTheDialogs(t *testing.T) {
	a, p := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	sess, _ := c.DB.CreateSession(ctx, `a/b:c "d"`, "openai/x")
	svc := &SessionService{a}

	p.savePath = "" // the user cancels
	if path, err := svc.ExportToFile(sess.ID); err != nil || path != "" {
		t.Fatalf("cancelled export = %q, %v", path, err)
	}
	p.savePath = filepath.Join(t.TempDir(), "out.json")
	path, err := svc.ExportToFile(sess.ID)
	if err != nil || path != p.savePath {
		t.Fatalf("export = %q, %v", path, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("export mode = %v", st.Mode().Perm())
	}
	p.openPath = path
	res, err := svc.ImportFromFile()
	if err != nil || res.Session.ID == "" || res.Session.ID == sess.ID || res.Session.Title != sess.Title {
		t.Fatalf("import = %+v, %v", res, err)
	}
	list, _ := svc.List()
	if len(list) != 2 || list[0].ID != res.Session.ID {
		t.Fatalf("list = %+v", list)
	}
}

func TestNotesRenameKeepsTheStoredContent(t *testing.T) {
	a, _ := newTestApp(t)
	n := &NotesService{a}
	p, err := n.Create("旅行", "本文", "予定")
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.Rename(p.ID, "京都旅行")
	if err != nil || r.Title != "京都旅行" || r.Content != "本文" || r.Section != "予定" {
		t.Fatalf("rename = %+v, %v", r, err)
	}
	if _, err := n.Reorder(p.ID, "", []int64{p.ID, 999}); err == nil {
		t.Fatal("an order with an unknown id was accepted")
	}
}

func TestKBTreeAndSearchOverTheSeededGuide(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	if _, err := c.KB.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	k := &KBService{a}
	root, err := k.Tree("")
	if err != nil || len(root.Children) != 1 || root.Children[0].Path != "playchat-guide.md" {
		t.Fatalf("tree = %+v, %v", root, err)
	}
	hits, err := k.Search("データの場所はどこ？", 5)
	if err != nil || len(hits) == 0 || hits[0].Path != "playchat-guide.md" {
		t.Fatalf("search = %+v, %v", hits, err)
	}
	if _, err := k.Read("../playchat.db"); err == nil {
		t.Fatal("a path outside the knowledge base was read")
	}
}

// The self-test hooks are bound only in a process started for a self-test
// (issue 28): a normal start's API, and the generated bindings, lack them.
func TestSelfTestServiceIsBoundOnlyForASelfTest(t *testing.T) {
	bound := func(a *App) bool {
		for _, s := range a.Services() {
			if _, ok := s.(*SelfTestService); ok {
				return true
			}
		}
		return false
	}
	if bound(New(core.Options{DataDir: t.TempDir()})) {
		t.Fatal("a normal start binds the SelfTestService")
	}
	if !bound(New(core.Options{DataDir: t.TempDir(), Environ: []string{SelfTestEnv + "=header"}})) {
		t.Fatal("a self-test start does not bind the SelfTestService")
	}
}

func TestWindowSizeIsTheDefaultUnlessTheHeaderSelfTestAsks(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for _, c := range []struct {
		kv   map[string]string
		w, h int
	}{
		{map[string]string{}, 1200, 820},
		{map[string]string{SelfTestSizeEnv: "800x600"}, 1200, 820}, // not a self-test
		{map[string]string{SelfTestEnv: "panic", SelfTestSizeEnv: "800x600"}, 1200, 820},
		{map[string]string{SelfTestEnv: "header", SelfTestSizeEnv: "800x600"}, 800, 600},
		{map[string]string{SelfTestEnv: "header", SelfTestSizeEnv: "600x400"}, 1200, 820}, // under the minimum
		{map[string]string{SelfTestEnv: "header", SelfTestSizeEnv: "wide"}, 1200, 820},
	} {
		if w, h := WindowSize(env(c.kv)); w != c.w || h != c.h {
			t.Errorf("WindowSize(%v) = %dx%d, want %dx%d", c.kv, w, h, c.w, c.h)
		}
	}
}
