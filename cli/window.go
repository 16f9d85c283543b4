package cli

import (
	"errors"
	"fmt"
	"strings"
)

// commands are the CLI's top-level commands, as usage lists them.
var commands = []string{"ask", "sessions", "kb", "reminders", "knowledge", "weather", "discord", "mcp", "serve", "assistants", "version", "help"}

// IsCommand reports whether args (without the program name) are for the CLI
// rather than the window. Only an empty argument list opens the window, and
// so do arguments starting with "-" that are not the CLI's own (-h, --help,
// --version): `wails dev` and the bindings generator pass their flags that
// way, and macOS adds -psn_…. Any other first word — a command, or a typo of
// one — goes to the CLI, which refuses unknown commands with exit status 2
// instead of opening a window nobody asked for.
func IsCommand(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-h", "--help", "-help", "--version", "-version":
		return true
	}
	return !strings.HasPrefix(args[0], "-")
}

// unknownCommand words the refusal of an unknown command, with the nearest
// known command when the word is a likely typo of it (sesions → sessions).
func unknownCommand(word string) string {
	msg := fmt.Sprintf("unknown command %q", word)
	if near := nearest(word, commands); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return msg + "; the commands are " + strings.Join(commands, ", ") + " (run playchat without arguments to open the window)"
}

// nearest returns the candidate within edit distance 2 of word (1 for words
// of up to 4 letters) that is closest, or "".
func nearest(word string, candidates []string) string {
	best, bestD := "", 3
	if len([]rune(word)) <= 4 {
		bestD = 2
	}
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(word), c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the number of single-rune insertions, deletions,
// substitutions and swaps of neighbours that turn a into b (optimal string
// alignment distance): aks → ask is 1.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// ErrNoDisplay means the window cannot open because the session has no
// graphical display. main prints it as one line and exits 1.
var ErrNoDisplay = errors.New("cannot open the window: no display (DISPLAY and WAYLAND_DISPLAY are not set); " +
	"start playchat from a desktop session, or use the terminal commands (playchat help)")

// CheckDisplay reports whether the window can open on this system: on Linux
// and the BSDs it needs DISPLAY (X11) or WAYLAND_DISPLAY in environ, else it
// returns ErrNoDisplay. Other systems (goos "windows", "darwin") always have
// one.
func CheckDisplay(goos string, environ []string) error {
	switch goos {
	case "windows", "darwin":
		return nil
	}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if (k == "DISPLAY" || k == "WAYLAND_DISPLAY") && v != "" {
			return nil
		}
	}
	return ErrNoDisplay
}

// WindowPanic turns a panic of the window toolkit at start-up into an error
// a person can read, when it is one: Wails panics with "failed to init GTK"
// when the display is set but cannot be opened (a dead X server, no
// permission). It returns nil for any other panic value, which main re-raises
// so real bugs keep their stack trace.
func WindowPanic(v any) error {
	var msg string
	switch x := v.(type) {
	case error:
		msg = x.Error()
	case string:
		msg = x
	default:
		return nil
	}
	if !strings.Contains(msg, "failed to init GTK") {
		return nil
	}
	return fmt.Errorf("cannot open the window: the display could not be opened (%s); "+
		"check DISPLAY or WAYLAND_DISPLAY, or use the terminal commands (playchat help)", msg)
}
