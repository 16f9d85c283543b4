package config

import (
	"bytes"
	"strings"

	"playchat/backend/redact"
)

// IsSecretKey reports whether key holds a secret: a key marked Secret, or a
// PLAYCHAT_* key whose name contains KEY, TOKEN, SECRET or PASSWORD. A
// backup without API keys leaves these out (backend/backup).
func IsSecretKey(key string) bool { return isSecretKey(key) }

// DotEnvWithoutSecrets returns the .env file data without the statements
// that set a secret key (IsSecretKey) or carry a credential inside a URL;
// comments, blank lines and the other statements are kept as written. A
// quoted value spanning lines is dropped or kept whole.
func DotEnvWithoutSecrets(data []byte) []byte {
	plain, _ := SplitDotEnvSecrets(data)
	return plain
}

// SplitDotEnvSecrets splits .env file data into what DotEnvWithoutSecrets
// keeps and the secret statements it drops (a restore of a backup without
// secrets keeps the secrets of the .env it replaces).
func SplitDotEnvSecrets(data []byte) (plain, secret []byte) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var out, sec []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimLeft(lines[i], " \t\v\f\r")
		loc := dotEnvKeyRE.FindStringIndex(line)
		if line == "" || line[0] == '#' || loc == nil {
			out = append(out, lines[i])
			continue
		}
		stmt := []string{lines[i]}
		value := strings.TrimLeft(line[loc[1]:], " \t\v\f")
		if value != "" && (value[0] == '"' || value[0] == '\'') {
			quote, rest, prev := value[0], value[1:], value[0]
			for closingQuote(rest, quote, prev) < 0 && i+1 < len(lines) {
				i++
				prev, rest = '\n', lines[i]
				stmt = append(stmt, lines[i])
			}
		}
		key := strings.TrimSpace(strings.TrimRight(line[:loc[1]], "=:"))
		key = strings.TrimSpace(strings.TrimPrefix(key, "export"))
		text := strings.Join(stmt, "\n")
		if isSecretKey(key) || redact.URLCredentials(text) != text {
			sec = append(sec, stmt...)
			continue
		}
		out = append(out, stmt...)
	}
	plain = []byte(strings.Join(out, "\n"))
	if len(sec) > 0 {
		secret = []byte(strings.Join(sec, "\n") + "\n")
	}
	return plain, secret
}
