package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/joho/godotenv"
)

// DotEnvFile is the name of the settings file read from the data dir.
const DotEnvFile = ".env"

// DotEnvError reports a malformed .env file. It names the file and the
// 1-based line of the first bad statement, never the line's content (which
// may hold a secret).
type DotEnvError struct {
	Path   string // the file read
	Line   int    // 1-based line of the first bad statement; 0 if unknown
	Reason string // what is wrong, e.g. "unterminated quoted value"
}

// Error renders e as "config: <path>:<line>: <reason>".
func (e *DotEnvError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("config: %s:%d: %s", e.Path, e.Line, e.Reason)
	}
	return fmt.Sprintf("config: %s: %s", e.Path, e.Reason)
}

// readDotEnv reads and parses the .env file at path. A missing file gives an
// empty map.
func readDotEnv(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: read %s: %w", filepath.Base(path), err)
	}
	return parseDotEnv(path, data)
}

// parseDotEnv checks data statement by statement (so an error can name its
// line), then lets godotenv produce the values (quoting, escapes, comments,
// ${VAR} expansion from earlier lines of the file).
func parseDotEnv(path string, data []byte) (map[string]string, error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF")) // Windows editors write a BOM
	if line, reason := scanDotEnv(string(data)); reason != "" {
		return nil, &DotEnvError{Path: path, Line: line, Reason: reason}
	}
	m, err := godotenv.UnmarshalBytes(data)
	if err != nil {
		// godotenv's messages quote the file's content: keep them out.
		return nil, &DotEnvError{Path: path, Reason: "cannot be parsed"}
	}
	return m, nil
}

var dotEnvKeyRE = regexp.MustCompile(`^(?:export[ \t]+)?[A-Za-z0-9_.]+[ \t]*[=:]`)

// scanDotEnv walks the statements of a .env file with the grammar godotenv
// accepts, and returns the 1-based line and a reason for the first bad one
// ("" if none).
func scanDotEnv(src string) (int, string) {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t\v\f\r")
		if line == "" || line[0] == '#' {
			continue
		}
		loc := dotEnvKeyRE.FindStringIndex(line)
		if loc == nil {
			return i + 1, "expected KEY=VALUE"
		}
		value := strings.TrimLeft(line[loc[1]:], " \t\v\f")
		if value == "" || (value[0] != '"' && value[0] != '\'') {
			continue // unquoted: runs to the end of the line
		}
		// A quoted value may span lines; find its closing quote.
		quote := value[0]
		start := i
		rest := value[1:]
		prev := value[0]
		for {
			end := closingQuote(rest, quote, prev)
			if end >= 0 {
				after := strings.TrimSpace(rest[end+1:])
				if after != "" && after[0] != '#' {
					return i + 1, "unexpected text after the closing quote"
				}
				break
			}
			prev = '\n' // the byte before the next line's first
			i++
			if i >= len(lines) {
				return start + 1, "unterminated quoted value"
			}
			rest = lines[i]
		}
	}
	return 0, ""
}

// closingQuote returns the index in s of the first quote not preceded by a
// backslash (prev is the byte before s), or -1.
func closingQuote(s string, quote, prev byte) int {
	for j := 0; j < len(s); j++ {
		if s[j] == quote && prev != '\\' {
			return j
		}
		prev = s[j]
	}
	return -1
}
