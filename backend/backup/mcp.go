package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"playchat/backend/atomicfile"
	"playchat/backend/mcpclient"
	"playchat/backend/redact"
)

// The user's MCP server configuration (mcpclient.FileName in the data
// dir) follows the rule of .env: an archive with secrets holds it as it
// is; one without has every secret env and header value removed (the
// names mcpclient.IsSecret masks in the window; a pure "${env:X}"
// reference holds no secret and stays), URL credentials masked, and the
// imported extra keys named like secrets dropped. A restore without
// secrets carries the values of the current file into the restored one
// (same server, same name, where the restored one has none), as it does
// for the API keys of .env.

// readMCP reads the data dir's MCP configuration for an archive: nil when
// there is none. Without secrets, a file that is not valid JSON is left out
// (it cannot be cleaned, so it is never archived in clear).
func readMCP(dataDir string, keepSecrets bool) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, mcpclient.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil || keepSecrets {
		return b, err
	}
	var c mcpclient.Config
	if json.Unmarshal(b, &c) != nil {
		return nil, nil
	}
	for i := range c.Servers {
		s := &c.Servers[i]
		s.Env = withoutSecrets(s.Env)
		s.Headers = withoutSecrets(s.Headers)
		s.URL = redact.URLCredentials(s.URL)
		for k := range s.Extra {
			if mcpclient.IsSecret(k, "") {
				delete(s.Extra, k)
			}
		}
	}
	out, err := json.MarshalIndent(c, "", "  ")
	return append(out, '\n'), err
}

// withoutSecrets is m without the values mcpclient masks as secrets.
func withoutSecrets(m map[string]string) map[string]string {
	masked := mcpclient.MaskedMap(m)
	for k, v := range masked {
		if v == mcpclient.Mask {
			delete(m, k)
		}
	}
	return m
}

// carryMCPSecrets adds to the staged MCP configuration newPath the secret
// env and header values of the live one livePath that it lacks (a restore
// of an archive without secrets keeps the tokens in use). A live file that
// is missing or not valid JSON carries nothing.
func carryMCPSecrets(livePath, newPath string) error {
	lb, err := os.ReadFile(livePath)
	if err != nil {
		return nil
	}
	var live mcpclient.Config
	if json.Unmarshal(lb, &live) != nil {
		return nil
	}
	nb, err := os.ReadFile(newPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // the archive has no MCP servers: nothing to carry them into
	}
	if err != nil {
		return err
	}
	var next mcpclient.Config
	if err := json.Unmarshal(nb, &next); err != nil {
		return fmt.Errorf("the restored %s: %w", mcpclient.FileName, err)
	}
	changed := false
	for i := range next.Servers {
		s := &next.Servers[i]
		old, ok := live.Find(s.Name)
		if !ok {
			continue
		}
		s.Env, changed = carry(s.Env, old.Env, changed)
		s.Headers, changed = carry(s.Headers, old.Headers, changed)
	}
	if !changed {
		return nil
	}
	out, err := json.MarshalIndent(next, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(newPath, append(out, '\n'), 0o600)
}

// carry copies into to the secret values of from under keys to lacks.
func carry(to, from map[string]string, changed bool) (map[string]string, bool) {
	for k, v := range from {
		if _, has := to[k]; has || mcpclient.MaskedMap(map[string]string{k: v})[k] != mcpclient.Mask {
			continue
		}
		if to == nil {
			to = map[string]string{}
		}
		to[k] = v
		changed = true
	}
	return to, changed
}
