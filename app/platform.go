package app

import (
	"context"
	"os"
	"strings"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Platform is the one seam to the Wails runtime — events, native dialogs and
// the window itself — so services, the tray and the self-tests can be tested
// with a fake. Nothing else in app/ calls the runtime (main.go builds the
// window).
type Platform interface {
	// Emit sends an event to the frontend.
	Emit(name string, data any)
	// SaveFile asks where to save; "" means the user cancelled.
	SaveFile(title, defaultName string) (string, error)
	// OpenFile asks for a file to open; "" means the user cancelled.
	// Without filters the dialog shows JSON files.
	OpenFile(title string, filters ...runtime.FileFilter) (string, error)
	// OpenDocuments asks for Markdown or text files to add to the knowledge
	// base (several at once); none means the user cancelled.
	OpenDocuments(title string) ([]string, error)
	// OpenAttachments asks for files to attach to a message (several at
	// once; images, text, any file); none means the user cancelled.
	OpenAttachments(title string) ([]string, error)
	// Show brings the window to the front (unminimised, shown).
	Show()
	// Hide hides the window (to the tray).
	Hide()
	// Quit ends the app: Wails runs OnShutdown.
	Quit()
	// ExecJS runs js in the page (self-tests, the memory probe).
	ExecJS(js string)
	// OnEvent calls fn with the data of every event the page emits on
	// name; the returned func stops it.
	OnEvent(name string, fn func(data ...any)) (off func())
	// SetSize asks for a window size in pixels (the header self-test).
	SetSize(width, height int)
	// ReloadApp loads the app's page again (a self-test).
	ReloadApp()
	// OpenURL opens a URL (or a file:// folder) with the system's handler.
	OpenURL(u string)
	// Fatal hides the window, shows an error dialog, then ends the process
	// with status 1.
	Fatal(title, message string)
}

type desktopPlatform struct{ ctx context.Context }

func newDesktopPlatform(ctx context.Context) Platform { return desktopPlatform{ctx} }

func (p desktopPlatform) Emit(name string, data any) { runtime.EventsEmit(p.ctx, name, data) }

func (p desktopPlatform) SaveFile(title, defaultName string) (string, error) {
	return runtime.SaveFileDialog(p.ctx, runtime.SaveDialogOptions{
		Title: title, DefaultFilename: defaultName, Filters: saveFilters(defaultName),
	})
}

func (p desktopPlatform) OpenFile(title string, filters ...runtime.FileFilter) (string, error) {
	if len(filters) == 0 {
		filters = []runtime.FileFilter{jsonFilter}
	}
	return runtime.OpenFileDialog(p.ctx, runtime.OpenDialogOptions{Title: title, Filters: filters})
}

var jsonFilter = runtime.FileFilter{DisplayName: "JSON (*.json)", Pattern: "*.json"}

// BackupFilters are the open dialog's filters for a backup archive.
var BackupFilters = []runtime.FileFilter{
	{DisplayName: "playchat backups (*.tar.gz, *.tar.gz.age)", Pattern: "*.tar.gz;*.tar.gz.age"},
	{DisplayName: "All files", Pattern: "*"},
}

// saveFilters is the save dialog's filter for a file named name, by its
// extension (it was JSON for every file: a Markdown export or a backup
// was saved under a "JSON (*.json)" filter).
func saveFilters(name string) []runtime.FileFilter {
	for _, f := range []runtime.FileFilter{
		{DisplayName: "playchat backups (*.tar.gz.age)", Pattern: "*.tar.gz.age"},
		{DisplayName: "playchat backups (*.tar.gz)", Pattern: "*.tar.gz"},
		{DisplayName: "Zip archives (*.zip)", Pattern: "*.zip"},
		{DisplayName: "Markdown (*.md)", Pattern: "*.md"},
		{DisplayName: "Web pages (*.html)", Pattern: "*.html"},
		jsonFilter,
	} {
		if strings.HasSuffix(strings.ToLower(name), strings.TrimPrefix(f.Pattern, "*")) {
			return []runtime.FileFilter{f}
		}
	}
	return nil
}

func (p desktopPlatform) OpenDocuments(title string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(p.ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "Markdown / text (*.md, *.markdown, *.txt)", Pattern: "*.md;*.markdown;*.txt"},
			{DisplayName: "All files", Pattern: "*"},
		},
	})
}

func (p desktopPlatform) OpenAttachments(title string) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(p.ctx, runtime.OpenDialogOptions{
		Title: title,
		Filters: []runtime.FileFilter{
			{DisplayName: "All files", Pattern: "*"},
			{DisplayName: "Images (*.png, *.jpg, *.jpeg, *.gif, *.webp)", Pattern: "*.png;*.jpg;*.jpeg;*.gif;*.webp"},
			{DisplayName: "Text (*.txt, *.md, *.csv, *.json, source code)", Pattern: "*.txt;*.md;*.markdown;*.csv;*.json;*.go;*.py;*.js;*.ts;*.rs;*.java;*.c;*.h;*.cpp;*.rb;*.sh;*.yaml;*.yml;*.toml;*.xml;*.html;*.css"},
		},
	})
}

func (p desktopPlatform) Show() {
	runtime.WindowUnminimise(p.ctx)
	runtime.WindowShow(p.ctx)
}

func (p desktopPlatform) Hide() { runtime.WindowHide(p.ctx) }
func (p desktopPlatform) Quit() { runtime.Quit(p.ctx) }

func (p desktopPlatform) ExecJS(js string) { runtime.WindowExecJS(p.ctx, js) }

func (p desktopPlatform) OnEvent(name string, fn func(data ...any)) func() {
	return runtime.EventsOn(p.ctx, name, fn)
}

func (p desktopPlatform) SetSize(width, height int) { runtime.WindowSetSize(p.ctx, width, height) }
func (p desktopPlatform) ReloadApp()                { runtime.WindowReloadApp(p.ctx) }

func (p desktopPlatform) OpenURL(u string) { runtime.BrowserOpenURL(p.ctx, u) }

func (p desktopPlatform) Fatal(title, message string) {
	runtime.WindowHide(p.ctx)
	_, _ = runtime.MessageDialog(p.ctx, runtime.MessageDialogOptions{Type: runtime.ErrorDialog, Title: title, Message: message})
	os.Exit(1)
}
