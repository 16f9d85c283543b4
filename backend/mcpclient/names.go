package mcpclient

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"
)

// MaxNameLen is the longest function name providers accept (OpenAI:
// ^[A-Za-z0-9_-]{1,64}$).
const MaxNameLen = 64

// maxPrefixLen caps the server's part of a tool name.
const maxPrefixLen = 20

var badNameChars = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

func slug(s string) string {
	s = badNameChars.ReplaceAllString(s, "_")
	s = strings.Trim(s, "_")
	if s == "" {
		s = "x"
	}
	return s
}

func shortHash(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:])[:6]
}

// ModelName is the function name a server's tool is offered under:
// "<server>__<tool>", with characters providers refuse replaced by "_"
// and, when anything was replaced or cut, a short hash of the real names
// appended — so it is valid, stable across restarts (it depends on the two
// names only) and distinct for distinct tools.
func ModelName(server, tool string) string {
	p, t := slug(server), slug(tool)
	lossy := p != server || t != tool || strings.Contains(server, "__")
	if len(p) > maxPrefixLen {
		p, lossy = strings.TrimRight(p[:maxPrefixLen], "_-"), true
	}
	name := p + "__" + t
	if len(name) > MaxNameLen {
		lossy = true
	}
	if !lossy {
		return name
	}
	h := shortHash(server, tool)
	room := MaxNameLen - len(p) - 2 - 1 - len(h)
	if len(t) > room {
		t = strings.TrimRight(t[:room], "_-")
	}
	return p + "__" + t + "_" + h
}

// Names gives every (server, tool) a unique model name: ModelName, and
// for the rare pairs whose ModelName collides, the name with the hash of
// the real names (sorted order decides nothing: the hash is of the pair).
func Names(pairs [][2]string) map[[2]string]string {
	out := make(map[[2]string]string, len(pairs))
	by := map[string][][2]string{}
	for _, p := range pairs {
		n := ModelName(p[0], p[1])
		by[n] = append(by[n], p)
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, n := range keys {
		ps := by[n]
		if len(ps) == 1 {
			out[ps[0]] = n
			continue
		}
		for _, p := range ps {
			h := shortHash(p[0], p[1], "collision")
			base := n
			if len(base)+7 > MaxNameLen {
				base = strings.TrimRight(base[:MaxNameLen-7], "_-")
			}
			out[p] = base + "_" + h
		}
	}
	return out
}
