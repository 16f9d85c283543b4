package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ClientConfig is one ready-to-copy configuration that lets another tool
// use playchat's MCP server (Settings → Use from other tools).
type ClientConfig struct {
	// Client names the tool: "claude-desktop", "vscode", "cursor",
	// "claude-code", "vscode-http" or "open-webui".
	Client string `json:"client"`
	// File is where the text goes (a path with ~ or %APPDATA% for the
	// user's folders), or "" when it is typed somewhere else.
	File string `json:"file"`
	// Text is the configuration: JSON for the JSON files (paths
	// JSON-escaped: a Windows path's backslashes are doubled), a command
	// line or the fields of a form otherwise.
	Text string `json:"text"`
}

// ClientConfigOptions describe the running playchat the configurations
// point at.
type ClientConfigOptions struct {
	// Binary is the absolute path of the running playchat executable
	// (os.Executable).
	Binary string
	// GOOS picks the config file locations ("windows", "darwin", "linux").
	GOOS string
	// AllowWrite adds --allow-write to the stdio commands (the window's
	// INTEROP_ALLOW_WRITE applies to them anyway; the flag keeps writing
	// allowed if that setting is switched off later).
	AllowWrite bool
	// HTTPURL and Token are the HTTP server's endpoint and bearer token
	// while the window runs it; without a URL the HTTP configurations are
	// left out.
	HTTPURL, Token string
}

// ClientConfigs returns the configurations for Claude Desktop, VS Code
// (.vscode/mcp.json, "type": "stdio"), Cursor and Claude Code over stdio —
// the client starts `playchat mcp` itself, with whatever environment it
// has — and, while the HTTP server runs, VS Code and Open WebUI over
// streamable HTTP with the token. Formats: Claude Desktop's and Cursor's
// "mcpServers", VS Code's "servers" (code.visualstudio.com/docs/copilot/
// customization/mcp-servers), Claude Code's `claude mcp add`.
func ClientConfigs(o ClientConfigOptions) []ClientConfig {
	args := []string{"mcp"}
	if o.AllowWrite {
		args = append(args, "--allow-write")
	}
	stdio := map[string]any{"command": o.Binary, "args": args}
	claudeFile := "~/Library/Application Support/Claude/claude_desktop_config.json"
	cursorFile := "~/.cursor/mcp.json"
	switch o.GOOS {
	case "windows":
		claudeFile = `%APPDATA%\Claude\claude_desktop_config.json`
		cursorFile = `%USERPROFILE%\.cursor\mcp.json`
	case "linux":
		claudeFile = "~/.config/Claude/claude_desktop_config.json"
	}
	out := []ClientConfig{
		{Client: "claude-desktop", File: claudeFile, Text: jsonText(map[string]any{"mcpServers": map[string]any{"playchat": stdio}})},
		{Client: "vscode", File: ".vscode/mcp.json", Text: jsonText(map[string]any{"servers": map[string]any{
			"playchat": map[string]any{"type": "stdio", "command": o.Binary, "args": args}}})},
		{Client: "cursor", File: cursorFile, Text: jsonText(map[string]any{"mcpServers": map[string]any{"playchat": stdio}})},
		{Client: "claude-code", Text: "claude mcp add playchat -- " + shellWord(o.Binary, o.GOOS) + " " + joinArgs(args)},
	}
	if o.HTTPURL != "" {
		out = append(out,
			ClientConfig{Client: "vscode-http", File: ".vscode/mcp.json", Text: jsonText(map[string]any{"servers": map[string]any{
				"playchat": map[string]any{"type": "http", "url": o.HTTPURL,
					"headers": map[string]string{"Authorization": "Bearer " + o.Token}}}})},
			ClientConfig{Client: "open-webui", Text: fmt.Sprintf("Type: MCP (Streamable HTTP)\nURL: %s\nAuth: Bearer\nKey: %s", o.HTTPURL, o.Token)},
		)
	}
	return out
}

// jsonText is v as indented JSON, without HTML escaping (a path's "&" or
// "<" stays as typed).
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // maps of strings: cannot fail
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

// shellWord quotes s for the user's shell: double quotes on Windows, single
// quotes (with ' as '\'') elsewhere, nothing when it needs none.
func shellWord(s, goos string) string {
	plain := s != ""
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r == ':' || r == '\\' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			plain = false
			break
		}
	}
	if plain && (goos == "windows" || !bytes.ContainsRune([]byte(s), '\\')) {
		return s
	}
	if goos == "windows" {
		return `"` + s + `"`
	}
	return "'" + string(bytes.ReplaceAll([]byte(s), []byte("'"), []byte(`'\''`))) + "'"
}

func joinArgs(args []string) string {
	var b bytes.Buffer
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
