package backup

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"playchat/backend/mcpclient"
)

const mcpToken = "ghp_MCP-SECRET-0123456789"

// withMCP gives the fixture an MCP configuration: a stdio server with a
// token in env (and a reference that holds none), an HTTP server with an
// Authorization header and credentials in its URL.
func withMCP(t *testing.T, dir string) {
	t.Helper()
	c := mcpclient.Config{Servers: []mcpclient.Server{
		{Name: "github", Transport: mcpclient.TransportStdio, Command: "npx", Args: []string{"-y", "server-github"},
			Env: map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": mcpToken, "FROM_SHELL_TOKEN": "${env:GH}", "LOG_LEVEL": "debug"}},
		{Name: "remote", Transport: mcpclient.TransportHTTP, URL: "https://me:pw-MCP-SECRET@mcp.example/mcp",
			Headers: map[string]string{"Authorization": "Bearer " + mcpToken, "X-Team": "blue"}, AskFirst: true},
	}}
	b, _ := json.MarshalIndent(c, "", "  ")
	write(t, filepath.Join(dir, mcpclient.FileName), string(b))
}

func readMCPFile(t *testing.T, dir string) mcpclient.Config {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, mcpclient.FileName))
	if err != nil {
		t.Fatalf("no MCP configuration after the restore: %v", err)
	}
	var c mcpclient.Config
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMCPServersGoIntoABackupWithoutTheirSecretsAndComeBack(t *testing.T) {
	f := newFixture(t)
	withMCP(t, f.dir)
	archive := f.backup(t, CreateOptions{})
	all := unpacked(t, archive)
	for _, s := range []string{mcpToken, "pw-MCP-SECRET"} {
		if bytes.Contains(all, []byte(s)) {
			t.Errorf("%q is in an archive without secrets", s)
		}
	}
	// Another computer: the servers come back, without their tokens.
	dst := t.TempDir()
	restoreInto(t, dst, archive, OpenOptions{})
	c := readMCPFile(t, dst)
	gh, ok1 := c.Find("github")
	rm, ok2 := c.Find("remote")
	if !ok1 || !ok2 || len(c.Servers) != 2 {
		t.Fatalf("servers after the restore: %+v", c.Servers)
	}
	if _, has := gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"]; has || gh.Env["FROM_SHELL_TOKEN"] != "${env:GH}" || gh.Env["LOG_LEVEL"] != "debug" || gh.Command != "npx" {
		t.Errorf("github after the restore: %+v", gh)
	}
	if _, has := rm.Headers["Authorization"]; has || rm.Headers["X-Team"] != "blue" || !rm.AskFirst || rm.URL == "" || bytes.Contains([]byte(rm.URL), []byte("pw-MCP")) {
		t.Errorf("remote after the restore: %+v", rm)
	}

	// The same computer: the tokens in use are kept.
	here := t.TempDir()
	withMCP(t, here)
	restoreInto(t, here, archive, OpenOptions{})
	c = readMCPFile(t, here)
	gh, _ = c.Find("github")
	rm, _ = c.Find("remote")
	if gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != mcpToken || rm.Headers["Authorization"] != "Bearer "+mcpToken {
		t.Errorf("the current tokens were not kept: %+v %+v", gh.Env, rm.Headers)
	}
	if safety, _ := filepath.Glob(filepath.Join(here, SafetyDir, "*", mcpclient.FileName)); len(safety) != 1 {
		t.Errorf("no safety copy of the replaced MCP configuration: %v", safety)
	}
}

func TestMCPServersKeepTheirSecretsInAnEncryptedBackup(t *testing.T) {
	f := newFixture(t)
	withMCP(t, f.dir)
	ctx := context.Background()
	archive, _, err := CreateFile(ctx, f.src(), t.TempDir(), CreateOptions{IncludeSecrets: true, Passphrase: "correct horse battery"})
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := os.ReadFile(archive); bytes.Contains(raw, []byte(mcpToken)) || bytes.Contains(raw, []byte("GITHUB_PERSONAL")) {
		t.Error("the encrypted archive shows the MCP configuration in clear")
	}
	dst := t.TempDir()
	restoreInto(t, dst, archive, OpenOptions{Passphrase: "correct horse battery"})
	gh, _ := readMCPFile(t, dst).Find("github")
	if gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != mcpToken {
		t.Errorf("the token did not come back from the encrypted archive: %+v", gh.Env)
	}
}

func TestABackupWithoutMCPServersRestoresNone(t *testing.T) {
	f := newFixture(t)
	archive := f.backup(t, CreateOptions{})
	dst := t.TempDir()
	withMCP(t, dst)
	restoreInto(t, dst, archive, OpenOptions{})
	if _, err := os.Stat(filepath.Join(dst, mcpclient.FileName)); err == nil {
		t.Error("the servers configured before the restore are still there (the backup had none)")
	}
	if safety, _ := filepath.Glob(filepath.Join(dst, SafetyDir, "*", mcpclient.FileName)); len(safety) != 1 {
		t.Errorf("no safety copy of the replaced MCP configuration: %v", safety)
	}
}
