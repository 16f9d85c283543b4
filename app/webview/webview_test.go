package webview

import (
	"errors"
	"strings"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

// fakeInstallers records Prepare's steps; each error is what that step
// returns.
type fakeInstallers struct {
	steps                  []string
	memory                 Memory
	dirErr, limitErr, load error
}

func (f *fakeInstallers) installers() installers {
	return installers{
		reloadOnCrash:   func() { f.steps = append(f.steps, "reload") },
		guardNavigation: func() { f.steps = append(f.steps, "guard") },
		limitMemory: func(m Memory) error {
			f.steps = append(f.steps, "limit")
			f.memory = m
			return f.limitErr
		},
		extensionDir: func() (string, error) {
			f.steps = append(f.steps, "dir")
			return "/cache/playchat/webext", f.dirErr
		},
		loadExtension: func(dir string) error {
			f.steps = append(f.steps, "load "+dir)
			return f.load
		},
	}
}

func env(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }

func TestPrepareInstallsEverythingInOrderAndSaysNothing(t *testing.T) {
	f := &fakeInstallers{}
	var stderr strings.Builder
	p := prepare(env(nil), &stderr, f.installers())
	if got, want := strings.Join(f.steps, ", "), "reload, guard, limit, dir, load /cache/playchat/webext"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	if f.memory != DefaultMemory || p.Memory != DefaultMemory {
		t.Fatalf("memory given %+v, prepared %+v; want the default", f.memory, p.Memory)
	}
	if p.GPUPolicy != linux.WebviewGpuPolicyNever {
		t.Fatalf("GPU policy %v, want never", p.GPUPolicy)
	}
	if stderr.Len() != 0 {
		t.Fatalf("stderr %q, want nothing", stderr.String())
	}
}

func TestPrepareFollowsTheEnvironment(t *testing.T) {
	f := &fakeInstallers{}
	var stderr strings.Builder
	p := prepare(env(map[string]string{MemoryEnv: "off", GPUEnv: "1"}), &stderr, f.installers())
	if f.memory != (Memory{}) || p.Memory != (Memory{}) || p.GPUPolicy != linux.WebviewGpuPolicyAlways {
		t.Fatalf("memory %+v, prepared %+v", f.memory, p)
	}
	if stderr.Len() != 0 {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// Each failing step is one line on stderr; the others still run.
func TestPrepareReportsWhatFailedAndGoesOn(t *testing.T) {
	f := &fakeInstallers{limitErr: errors.New("old WebKit"), load: errors.New("read-only")}
	var stderr strings.Builder
	p := prepare(env(map[string]string{MemoryEnv: "lots"}), &stderr, f.installers())
	want := `playchat: PLAYCHAT_WEBVIEW_MEMORY_LIMIT_MB="lots": want a whole number of MiB from 64 to 65536, or off; using 200 MiB
playchat: web view memory limit not set: old WebKit
playchat: the web view's extension is not loaded: read-only
`
	if stderr.String() != want {
		t.Fatalf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
	if len(f.steps) != 5 || p.Memory != DefaultMemory {
		t.Fatalf("steps %v, memory %+v", f.steps, p.Memory)
	}

	f = &fakeInstallers{dirErr: errors.New("no home")}
	stderr.Reset()
	prepare(env(nil), &stderr, f.installers())
	if got := strings.Join(f.steps, ", "); got != "reload, guard, limit, dir" {
		t.Fatalf("steps %q: nothing may be loaded without a directory", got)
	}
	if stderr.String() != "playchat: the web view's extension is not loaded: no home\n" {
		t.Fatalf("stderr %q", stderr.String())
	}
}
