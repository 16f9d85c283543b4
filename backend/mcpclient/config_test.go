package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestImportUnderstandsEachFormatAndKeepsUnknownKeys(t *testing.T) {
	cases := []struct {
		name, format, json string
		check              func(t *testing.T, ss []Server)
	}{
		{"claude desktop", "mcpServers", `{"mcpServers":{"filesystem":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/tmp"],"env":{"GITHUB_TOKEN":"ghp_x"},"alwaysAllow":["read"]}},"globalShortcut":"x"}`,
			func(t *testing.T, ss []Server) {
				s := ss[0]
				if s.Transport != TransportStdio || s.Command != "npx" || len(s.Args) != 3 || s.Env["GITHUB_TOKEN"] != "ghp_x" || string(s.Extra["alwaysAllow"]) != `["read"]` {
					t.Fatalf("%+v", s)
				}
			}},
		{"cursor url", "mcpServers", `{"mcpServers":{"remote":{"url":"https://example.com/mcp","headers":{"Authorization":"Bearer abc"}},"old":{"url":"https://example.com/sse"}}}`,
			func(t *testing.T, ss []Server) {
				if ss[0].Name != "old" || ss[0].Transport != TransportSSE || ss[1].Transport != TransportHTTP || ss[1].Headers["Authorization"] != "Bearer abc" {
					t.Fatalf("%+v", ss)
				}
			}},
		{"claude code .mcp.json", "mcpServers", `{"mcpServers":{"gh":{"type":"http","url":"https://api.githubcopilot.com/mcp/","headers":{"Authorization":"Bearer ${GITHUB_PAT}"}},"fetch":{"type":"stdio","command":"uvx","args":["mcp-server-fetch"],"env":{}}}}`,
			func(t *testing.T, ss []Server) {
				if ss[0].Name != "fetch" || ss[0].Command != "uvx" || ss[1].Transport != TransportHTTP || ss[1].Headers["Authorization"] != "Bearer ${GITHUB_PAT}" {
					t.Fatalf("%+v", ss)
				}
			}},
		{"vs code", "servers", `{
			// VS Code allows comments
			"servers": {
				"github": {"type": "stdio", "command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_PAT}"},},
			},
		}`,
			func(t *testing.T, ss []Server) {
				if ss[0].Command != "docker" || ss[0].Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "${env:GITHUB_PAT}" {
					t.Fatalf("%+v", ss)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse([]byte(c.json), func(Server) bool { return false })
			if err != nil || p.Format != c.format || len(p.Refused) != 0 || len(p.Servers) == 0 {
				t.Fatalf("parse = %+v, %v", p, err)
			}
			c.check(t, p.Servers)
		})
	}
}

func TestBrokenEntriesAreRefusedWithTheirReason(t *testing.T) {
	in := `{"mcpServers":{
		"ok":{"command":"node","args":["a.js"]},
		"nothing":{},
		"both":{"command":"x","url":"http://a"},
		"args":{"command":"x","args":"--flag"},
		"env":{"command":"x","env":{"A":1}},
		"type":{"type":"websocket","url":"ws://a"},
		"input":{"command":"x","env":{"K":"${input:api-key}"}},
		"badurl":{"url":"ftp://a"},
		"self":{"command":"/usr/local/bin/playchat","args":["mcp"]}
	}}`
	p, err := Parse([]byte(in), nil)
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string]string{}
	for _, r := range p.Refused {
		reasons[r.Name] = r.Reason
	}
	want := map[string]string{"nothing": "neither", "both": "both", "args": "list of strings", "env": "string values",
		"type": "websocket", "input": "${input:api-key}", "badurl": "not an http(s)", "self": "playchat's own"}
	for n, w := range want {
		if !strings.Contains(reasons[n], w) {
			t.Errorf("%s: reason %q, want it to mention %q", n, reasons[n], w)
		}
	}
	if len(p.Servers) != 1 || p.Servers[0].Name != "ok" {
		t.Fatalf("servers = %+v", p.Servers)
	}
	// The import changes nothing unless the refused entries are skipped.
	st := NewStore(t.TempDir())
	_, err = st.Import([]byte(in), nil, ImportOptions{})
	var re *RefusedError
	if !errors.As(err, &re) || len(re.Refused) != 8 {
		t.Fatalf("import err = %v", err)
	}
	if c, _ := st.Load(); len(c.Servers) != 0 {
		t.Fatal("a refused import wrote servers")
	}
	res, err := st.Import([]byte(in), nil, ImportOptions{SkipRefused: true})
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("skip refused: %+v %v", res, err)
	}
	if _, err := Parse([]byte(`[1,2]`), nil); err == nil {
		t.Fatal("an array was accepted")
	}
	if _, err := Parse([]byte(`{"foo":{}}`), nil); err == nil {
		t.Fatal("an unknown shape was accepted")
	}
}

func TestSecretsAreMaskedInTheViewAndKeptOnSave(t *testing.T) {
	m := New(Options{DataDir: t.TempDir()})
	s := Server{Name: "gh", Transport: TransportStdio, Command: "x",
		Env: map[string]string{"GITHUB_TOKEN": "ghp_secret", "LOG_LEVEL": "debug", "API_KEY": "${env:KEY}"}}
	if err := m.Save(s, ""); err != nil {
		t.Fatal(err)
	}
	defer m.Shutdown(context.Background())
	sts, _ := m.Statuses()
	env := sts[0].Config.Env
	if env["GITHUB_TOKEN"] != Mask || env["LOG_LEVEL"] != "debug" || env["API_KEY"] != "${env:KEY}" {
		t.Fatalf("view env = %v", env)
	}
	b, _ := json.Marshal(sts)
	if strings.Contains(string(b), "ghp_secret") {
		t.Fatal("the secret reached the view")
	}
	// The form comes back with the mask: the secret is kept.
	s.Env = env
	s.Args = []string{"--v"}
	if err := m.Save(s, "gh"); err != nil {
		t.Fatal(err)
	}
	c, _ := m.Store().Load()
	if c.Servers[0].Env["GITHUB_TOKEN"] != "ghp_secret" {
		t.Fatalf("stored = %v", c.Servers[0].Env)
	}
	fi, _ := os.Stat(m.Store().Path())
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode %v", fi.Mode())
	}
}

func TestToolNamesAreValidUniqueAndStable(t *testing.T) {
	valid := regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
	pairs := [][2]string{
		{"filesystem", "read_file"},
		{"my server", "read.file"},
		{"my_server", "read_file"},
		{"日本語サーバー", "検索"},
		{"a__b", "c"}, {"a", "b__c"},
		{strings.Repeat("long", 20), strings.Repeat("tool", 30)},
		{strings.Repeat("long", 20), strings.Repeat("tool", 30) + "2"},
	}
	names := Names(pairs)
	seen := map[string]bool{}
	for _, p := range pairs {
		n := names[p]
		if !valid.MatchString(n) || seen[n] {
			t.Fatalf("%v → %q (valid %v, seen %v)", p, n, valid.MatchString(n), seen[n])
		}
		seen[n] = true
		if again := Names(pairs)[p]; again != n {
			t.Fatalf("unstable: %q then %q", n, again)
		}
	}
	if names[pairs[0]] != "filesystem__read_file" {
		t.Fatalf("a clean name changed: %q", names[pairs[0]])
	}
}

func TestCapRunesCutsOnCharacterBoundaries(t *testing.T) {
	s, cut := CapRunes("日本語テキスト", 3)
	if !cut || !strings.HasPrefix(s, "日本語\n…(truncated: 3 of 7") {
		t.Fatalf("%q", s)
	}
	if s, cut := CapRunes("short", 10); cut || s != "short" {
		t.Fatalf("%q", s)
	}
}

// A stub npx that exists only on the login shell's PATH is found; with
// the app's own bare PATH alone it would not be.
func TestTheCommandIsFoundOnTheLoginShellsPath(t *testing.T) {
	home := t.TempDir()
	bin := filepath.Join(home, "nvm", "bin")
	os.MkdirAll(bin, 0o700)
	exe, _ := os.Executable()
	// The stub npx runs the fake server (the test binary).
	stub := "#!/bin/sh\nexec " + exe + " -test.run=^$\n"
	if err := os.WriteFile(filepath.Join(bin, "npx"), []byte(stub), 0o700); err != nil {
		t.Fatal(err)
	}
	// A profile that adds it, like nvm does; -i reads ENV for sh.
	profile := filepath.Join(home, ".profile")
	os.WriteFile(profile, []byte("export PATH=\""+bin+":$PATH\"\necho 'welcome!'\n"), 0o600)
	bare := t.TempDir() // the desktop's PATH: no npx on it
	base := []string{"HOME=" + home, "PATH=" + bare, fakeServerEnv + "=normal", "SHELL=/bin/sh"}
	if _, err := LookPath("npx", base); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), bare) {
		t.Fatalf("bare PATH: %v", err)
	}
	dir := t.TempDir()
	m := New(Options{DataDir: dir, Environ: base})
	m.Save(Server{Name: "fs", Transport: TransportStdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem"}}, "")
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	waitState(t, m, "fs", StateReady)
}

func TestAProfileThatHangsDoesNotHangTheProbe(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".profile"), []byte("sleep 30\n"), 0o600)
	e := &ShellEnv{Base: []string{"HOME=" + home, "PATH=/usr/bin:/bin"}, Shell: "/bin/sh", Timeout: 500 * time.Millisecond}
	start := time.Now()
	env, err := e.Environ()
	if err == nil || time.Since(start) > 3*time.Second || lookupEnv(env, "PATH") != "/usr/bin:/bin" {
		t.Fatalf("err %v after %s, env %v", err, time.Since(start), env)
	}
}

func TestANotFoundCommandNamesWhatWasSearched(t *testing.T) {
	// The probe fails (no such shell): the app's own PATH is searched.
	m := New(Options{DataDir: t.TempDir(), Environ: []string{"PATH=/nonexistent/a:/nonexistent/b", "HOME=" + t.TempDir()}, Shell: "/nonexistent/sh"})
	m.Save(Server{Name: "x", Transport: TransportStdio, Command: "uvx", Args: []string{"mcp-server-fetch"}}, "")
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	st := waitState(t, m, "x", StateFailed)
	if !strings.Contains(st.Reason, `"uvx" was searched for in /nonexistent/a:/nonexistent/b`) {
		t.Fatalf("reason = %q", st.Reason)
	}
}
