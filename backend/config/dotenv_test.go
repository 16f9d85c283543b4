package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMissingDotEnvIsAnEmptyLayer(t *testing.T) {
	l, err := LoadLayers(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.DotEnv) != 0 {
		t.Errorf("DotEnv = %v, want empty", l.DotEnv)
	}
}

func TestDotEnvSyntaxGodotenvAccepts(t *testing.T) {
	dir := t.TempDir()
	writeDotEnv(t, dir, "\uFEFF"+strings.Join([]string{
		`# settings`,
		`export DEFAULT_MODEL=openai/gpt-4o  # inline comment`,
		`OPENAI_API_KEY="sk-quoted-0123456789"`,
		`TAVILY_API_KEY='tvly-single'   # trailing comment`,
		`LOG_LEVEL: debug`,
		`PLAYCHAT_MULTI="line one`,
		`line two"`,
		`PLAYCHAT_ESCAPED="say \"hi\" twice"`,
		"OLLAMA_API_BASE=http://localhost:11434\r",
		`PLAYCHAT_REF=${OLLAMA_API_BASE}/api`,
		``,
	}, "\n"))
	l, err := LoadLayers(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"DEFAULT_MODEL":    "openai/gpt-4o",
		"OPENAI_API_KEY":   "sk-quoted-0123456789",
		"TAVILY_API_KEY":   "tvly-single",
		"LOG_LEVEL":        "debug",
		"PLAYCHAT_MULTI":   "line one\nline two",
		"PLAYCHAT_ESCAPED": `say "hi" twice`,
		"OLLAMA_API_BASE":  "http://localhost:11434",
		"PLAYCHAT_REF":     "http://localhost:11434/api",
	}
	for k, v := range want {
		if l.DotEnv[k] != v {
			t.Errorf("%s = %q, want %q", k, l.DotEnv[k], v)
		}
	}
	if len(l.DotEnv) != len(want) {
		t.Errorf("DotEnv has %d keys, want %d: %v", len(l.DotEnv), len(want), l.DotEnv)
	}
}

func TestMalformedDotEnvNamesTheLineNotItsContent(t *testing.T) {
	const secret = "sk-SECRET-abcdef0123456789"
	tests := []struct {
		name     string
		content  string
		wantLine int
	}{
		{"line without =", "DEBUG=true\n\nthis is not a setting\n", 3},
		{"bad character in the key", "# c\nOPENAI-API-KEY=" + secret + "\n", 2},
		{"unterminated double quote", "DEBUG=true\nOPENAI_API_KEY=\"" + secret + "\nLOG_LEVEL=info\n", 2},
		{"unterminated single quote", "OPENAI_API_KEY='" + secret + "\n", 1},
		{"text after the closing quote", "DEBUG=true\nOPENAI_API_KEY=\"" + secret + "\" junk\n", 2},
		{"text after a multi-line value", "PLAYCHAT_X=\"a\nb\" " + secret + "\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeDotEnv(t, dir, tt.content)
			_, err := LoadLayers(dir, nil)
			var de *DotEnvError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a *DotEnvError", err)
			}
			if de.Line != tt.wantLine {
				t.Errorf("line = %d, want %d (%v)", de.Line, tt.wantLine, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, fmt.Sprintf(".env:%d:", tt.wantLine)) {
				t.Errorf("error %q does not name .env:%d", msg, tt.wantLine)
			}
			if strings.Contains(msg, "SECRET") {
				t.Errorf("error %q leaks the file's content", msg)
			}
		})
	}
}

func TestUnreadableDotEnvIsAnError(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, DotEnvFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLayers(dir, nil); err == nil {
		t.Fatal("LoadLayers with .env a directory: want an error")
	}
}
