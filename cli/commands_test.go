package cli

import (
	"errors"
	"strings"
	"testing"
)

// issue 8: only no arguments (or the flags Wails and macOS pass to the
// window) open the window; any word goes to the CLI.
func TestOnlyNoArgumentsOrWindowFlagsOpenTheWindow(t *testing.T) {
	for _, tt := range []struct {
		args []string
		cli  bool
	}{
		{nil, false},
		{[]string{"-assetdir", "frontend/dist"}, false}, // wails dev
		{[]string{"-tsprefix", ""}, false},              // wails generate bindings
		{[]string{"-psn_0_12345"}, false},               // macOS Finder
		{[]string{"weather"}, true},
		{[]string{"sesions", "list"}, true},
		{[]string{"ask", "hi"}, true},
		{[]string{"--help"}, true},
		{[]string{"--version"}, true},
	} {
		if got := IsCommand(tt.args); got != tt.cli {
			t.Errorf("IsCommand(%q) = %v, want %v", tt.args, got, tt.cli)
		}
	}
}

func TestUnknownCommandListsTheCommandsAndExits2(t *testing.T) {
	for args, hint := range map[string]string{
		"forecast":     "",
		"sesions list": `did you mean "sessions"?`,
		"aks hello":    `did you mean "ask"?`,
	} {
		r := runCLI(t, []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}, "", strings.Fields(args)...)
		if r.code != 2 {
			t.Errorf("%s: exit %d, want 2", args, r.code)
		}
		first := strings.SplitN(r.stderr, "\n", 2)[0]
		if !strings.Contains(first, "unknown command") || !strings.Contains(first, "ask, sessions, kb") {
			t.Errorf("%s: first line %q does not name the command as unknown and list the commands", args, first)
		}
		if hint != "" && !strings.Contains(first, hint) {
			t.Errorf("%s: %q lacks the hint %q", args, first, hint)
		}
		if hint == "" && strings.Contains(first, "did you mean") {
			t.Errorf("%s: %q suggests a command for an unrelated word", args, first)
		}
		if !strings.Contains(r.stderr, "playchat sessions list") || r.stdout != "" {
			t.Errorf("%s: usage not on stderr (stdout %q)", args, r.stdout)
		}
	}
}

func TestWindowNeedsADisplay(t *testing.T) {
	for _, tt := range []struct {
		goos    string
		environ []string
		ok      bool
	}{
		{"linux", []string{"HOME=/root"}, false},
		{"linux", []string{"DISPLAY="}, false},
		{"linux", []string{"DISPLAY=:0"}, true},
		{"linux", []string{"WAYLAND_DISPLAY=wayland-0"}, true},
		{"freebsd", nil, false},
		{"windows", nil, true},
		{"darwin", nil, true},
	} {
		err := CheckDisplay(tt.goos, tt.environ)
		if (err == nil) != tt.ok {
			t.Errorf("CheckDisplay(%s, %q) = %v, want ok %v", tt.goos, tt.environ, err, tt.ok)
		}
		if err != nil && (strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "DISPLAY")) {
			t.Errorf("CheckDisplay message %q is not one line naming DISPLAY", err)
		}
	}
}

func TestOnlyTheGTKStartPanicBecomesAMessage(t *testing.T) {
	err := WindowPanic(errors.New("failed to init GTK"))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "display") {
		t.Errorf("WindowPanic(GTK) = %v, want a one-line message about the display", err)
	}
	for _, v := range []any{errors.New("index out of range"), "nil map", 42} {
		if err := WindowPanic(v); err != nil {
			t.Errorf("WindowPanic(%v) = %v, want nil (re-raised with its stack)", v, err)
		}
	}
}

// issue 8, fault 11: --help is not an error.
func TestHelpPrintsUsageAndExits0(t *testing.T) {
	env := []string{"PLAYCHAT_DATA_DIR=" + t.TempDir()}
	for args, want := range map[string][]string{
		"ask --help":              {"playchat ask", "-model", "-session"},
		"ask -h":                  {"playchat ask", "-json"},
		"kb --help":               {"playchat kb search", "playchat kb import"},
		"kb help":                 {"playchat kb status"},
		"kb search --help":        {"playchat kb search", "-limit"},
		"sessions --help":         {"playchat sessions list", "playchat sessions import"},
		"sessions list --help":    {"playchat sessions list", "-json"},
		"--help":                  {"playchat ask", "playchat kb"},
		"kb import --source x -h": {"playchat kb import", "-mirror"},
	} {
		r := runCLI(t, env, "", strings.Fields(args)...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing on stderr", args, r.code, r.stderr)
		}
		for _, w := range want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", args, w, r.stdout)
			}
		}
	}
	if r := runCLI(t, env, "", "kb", "--help"); strings.Contains(r.stdout, "playchat ask") {
		t.Errorf("kb --help lists other commands:\n%s", r.stdout)
	}
	r := runCLI(t, env, "", "ask", "--bogus", "x")
	if r.code != 2 || strings.Count(r.stderr, "bogus") != 1 || !strings.Contains(r.stderr, "--help") {
		t.Errorf("ask --bogus: exit %d, stderr %q; want 2 and the error once with a pointer to --help", r.code, r.stderr)
	}
}
