package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ClientConfig is one ready-to-copy configuration that lets another tool
// use playchat's MCP server (Settings → Use from other tools).
type ClientConfig struct {
	// Client names the tool: "claude-desktop", "vscode", "cursor",
	// "claude-code", "vscode-http", "open-webui" (MCP), "open-webui-api",
	// "openai-python" or "openai-js" (the OpenAI-compatible API).
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
	// APIURL and APIToken are the OpenAI-compatible API's base URL
	// (".../v1") and token while the window runs it (without a URL its
	// configurations are left out); APILAN is its local-network mode, in
	// which Open WebUI in Docker reaches it as host.docker.internal.
	APIURL, APIToken string
	APILAN           bool
	// Model is the model the SDK examples ask for (DEFAULT_MODEL; its
	// playchat/ alias answers with playchat's context).
	Model string
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
	// Structs, not maps: the keys keep the order people read them in.
	type stdioEntry struct {
		Type    string   `json:"type,omitempty"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	stdio := stdioEntry{Command: o.Binary, Args: args}
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
			"playchat": stdioEntry{Type: "stdio", Command: o.Binary, Args: args}}})},
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
	if o.APIURL != "" {
		out = append(out, apiConfigs(o)...)
	}
	return out
}

// apiConfigs are the OpenAI-compatible API's: Open WebUI's connection
// (Settings → Connections → OpenAI API) and the official SDKs.
func apiConfigs(o ClientConfigOptions) []ClientConfig {
	model := "playchat/" + o.Model
	if o.Model == "" {
		model = "playchat/openai/gpt-4o-mini"
	}
	webui := fmt.Sprintf("URL: %s\nKey: %s", o.APIURL, o.APIToken)
	if o.APILAN {
		if i := strings.LastIndex(o.APIURL, ":"); i > 0 {
			webui = fmt.Sprintf("URL (Open WebUI in Docker): http://host.docker.internal%s\nKey: %s", o.APIURL[i:], o.APIToken)
		}
	}
	py := fmt.Sprintf("from openai import OpenAI\n\nclient = OpenAI(base_url=%q, api_key=%q)\n"+
		"r = client.chat.completions.create(model=%q, messages=[{\"role\": \"user\", \"content\": \"こんにちは\"}])\n"+
		"print(r.choices[0].message.content)", o.APIURL, o.APIToken, model)
	js := fmt.Sprintf("import OpenAI from 'openai'\n\nconst client = new OpenAI({ baseURL: '%s', apiKey: '%s' })\n"+
		"const r = await client.chat.completions.create({ model: '%s', messages: [{ role: 'user', content: 'こんにちは' }] })\n"+
		"console.log(r.choices[0].message.content)", o.APIURL, o.APIToken, model)
	return []ClientConfig{
		{Client: "open-webui-api", Text: webui},
		{Client: "openai-python", Text: py},
		{Client: "openai-js", Text: js},
	}
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
// quotes (with ' as '\”) elsewhere, nothing when it needs none.
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
