package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"
)

// ShellEnvTimeout bounds the login-shell probe: a profile that waits for
// input or hangs costs at most this once.
const ShellEnvTimeout = 5 * time.Second

const envMarker = "__PLAYCHAT_ENV_7f3a__"

// ShellEnv probes the user's login-shell environment once (the PATH of nvm,
// Homebrew, ~/.local/bin…) and remembers it. A program started from the
// desktop menu gets a bare PATH; servers are started as the terminal would.
type ShellEnv struct {
	// Shell is the shell to ask ("" = $SHELL, else /bin/sh); unused on
	// Windows, where the process environment is used as it is.
	Shell string
	// Base is the process environment (os.Environ()).
	Base []string
	// Timeout bounds the probe (0 = ShellEnvTimeout).
	Timeout time.Duration

	once   sync.Once
	env    []string
	err    error
	millis int64
}

// Environ returns the login shell's environment merged over Base (Base's
// values win only where the shell has none). A failed probe is reported
// once and Base is used.
func (e *ShellEnv) Environ() ([]string, error) {
	e.once.Do(func() {
		start := time.Now()
		e.env, e.err = e.probe()
		e.millis = time.Since(start).Milliseconds()
		if e.err != nil {
			e.env = append([]string(nil), e.Base...)
		}
	})
	return e.env, e.err
}

func (e *ShellEnv) probe() ([]string, error) {
	if runtime.GOOS == "windows" {
		return append([]string(nil), e.Base...), nil
	}
	shell := e.Shell
	if shell == "" {
		shell = lookupEnv(e.Base, "SHELL")
	}
	if shell == "" {
		shell = "/bin/sh"
	}
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = ShellEnvTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// -i as well as -l: nvm and most PATH edits live in ~/.bashrc or
	// ~/.zshrc, which non-interactive shells skip. stdin is empty, so a
	// profile that asks for input reads EOF instead of waiting.
	flags := []string{"-l", "-i", "-c"}
	if strings.HasSuffix(shell, "/sh") || strings.HasSuffix(shell, "/dash") {
		flags = []string{"-l", "-c"}
	}
	script := fmt.Sprintf("printf '%s'; env -0", envMarker)
	cmd := exec.Command(shell, append(flags, script)...)
	cmd.Env = e.Base
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = nil
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("login shell %s: %w", shell, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil && out.Len() == 0 {
			return nil, fmt.Errorf("login shell %s: %w", shell, err)
		}
	case <-ctx.Done():
		killTree(cmd)
		<-done
		return nil, fmt.Errorf("login shell %s did not answer within %s", shell, timeout)
	}
	b := out.Bytes()
	i := bytes.LastIndex(b, []byte(envMarker))
	if i < 0 {
		return nil, fmt.Errorf("login shell %s printed no environment", shell)
	}
	shellEnv := map[string]string{}
	var order []string
	for _, kv := range bytes.Split(b[i+len(envMarker):], []byte{0}) {
		k, v, ok := strings.Cut(string(kv), "=")
		if !ok || k == "" || !envName.MatchString(k) {
			continue
		}
		if _, seen := shellEnv[k]; !seen {
			order = append(order, k)
		}
		shellEnv[k] = v
	}
	if _, ok := shellEnv["PATH"]; !ok {
		return nil, fmt.Errorf("login shell %s printed no PATH", shell)
	}
	merged := MergeEnv(e.Base, nil)
	for _, k := range order {
		switch k {
		case "_", "SHLVL", "PWD", "OLDPWD":
			continue
		}
		merged = setEnv(merged, k, shellEnv[k])
	}
	return merged, nil
}

// Millis is how long the probe took (0 before it ran).
func (e *ShellEnv) Millis() int64 { return e.millis }

func lookupEnv(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && envKeyEqual(k, key) {
			v = val
		}
	}
	return v
}

func envKeyEqual(a, b string) bool {
	if runtime.GOOS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

func setEnv(env []string, key, val string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && envKeyEqual(k, key) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, key+"="+val)
}

// MergeEnv returns base with extra set over it.
func MergeEnv(base []string, extra map[string]string) []string {
	out := append([]string(nil), base...)
	for k, v := range extra {
		out = setEnv(out, k, v)
	}
	return out
}

var varRef = regexp.MustCompile(`\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}`)

// Expand fills ${VAR}, ${env:VAR} and ${VAR:-default} from env. A variable
// that is neither set nor defaulted is an error naming it.
func Expand(s string, env []string) (string, error) {
	var missing []string
	out := varRef.ReplaceAllStringFunc(s, func(m string) string {
		sub := varRef.FindStringSubmatch(m)
		if v := lookupEnv(env, sub[1]); v != "" {
			return v
		}
		if strings.Contains(m, ":-") {
			return sub[2]
		}
		missing = append(missing, sub[1])
		return ""
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("the variable %s is not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// ErrNotFound means a server's command is not on the searched PATH.
var ErrNotFound = errors.New("command not found")

// LookPath finds command on the PATH of env (not the process's own PATH).
// On Windows the PATHEXT extensions are tried, so "npx" finds npx.cmd. The
// error names every folder searched.
func LookPath(command string, env []string) (string, error) {
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = []string{""}
		pathext := lookupEnv(env, "PATHEXT")
		if pathext == "" {
			pathext = ".COM;.EXE;.BAT;.CMD"
		}
		if filepath.Ext(command) == "" {
			exts = nil
		}
		for _, e := range strings.Split(pathext, ";") {
			if e != "" {
				exts = append(exts, strings.ToLower(e))
			}
		}
	}
	try := func(p string) (string, bool) {
		for _, e := range exts {
			if isExecutable(p + e) {
				return p + e, true
			}
		}
		return "", false
	}
	if strings.ContainsAny(command, `/\`) {
		if p, ok := try(command); ok {
			return p, nil
		}
		return "", fmt.Errorf("%w: %s does not exist or is not executable", ErrNotFound, command)
	}
	dirs := filepath.SplitList(lookupEnv(env, "PATH"))
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if p, ok := try(filepath.Join(d, command)); ok {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w: %q was searched for in %s", ErrNotFound, command, strings.Join(dirs, string(os.PathListSeparator)))
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return false
	}
	if runtime.GOOS == "windows" {
		return true
	}
	return fi.Mode()&0o111 != 0
}

// utf8Env makes children speak UTF-8 (Python on Windows included), so
// Japanese arguments and results arrive intact.
func utf8Env(env []string) []string {
	env = setEnv(env, "PYTHONIOENCODING", "utf-8")
	env = setEnv(env, "PYTHONUTF8", "1")
	if runtime.GOOS != "windows" && lookupEnv(env, "LANG") == "" && lookupEnv(env, "LC_ALL") == "" && lookupEnv(env, "LC_CTYPE") == "" {
		env = setEnv(env, "LANG", "C.UTF-8")
	}
	return env
}
