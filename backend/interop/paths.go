package interop

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"playchat/backend/apperr"
)

// maxSegmentBytes caps one path element (most file systems allow 255).
const maxSegmentBytes = 255

// maxPathBytes caps a whole document path.
const maxPathBytes = 1024

// windowsReserved are the device names Windows refuses as file names, with
// or without an extension (CON, con.md, COM1.txt).
var windowsReserved = func() map[string]bool {
	m := map[string]bool{"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true}
	for _, p := range []string{"COM", "LPT"} {
		for _, d := range []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"} {
			m[p+d] = true
		}
	}
	return m
}()

// segmentProblem says, in English, why s cannot be one element of a path
// under the knowledge base on every system playchat runs on; "" when it
// can. It refuses the empty name, "." and "..", separators of any system,
// NUL and other control characters, characters Windows forbids in names,
// names ending in a dot or space (Windows drops them), Windows device names
// and names too long for a file system.
func segmentProblem(s string) string {
	switch {
	case s == "":
		return "empty path element"
	case s == "." || s == "..":
		return "\".\" and \"..\" are not allowed"
	case !utf8.ValidString(s):
		return "not valid UTF-8"
	case len(s) > maxSegmentBytes:
		return "a path element is longer than " + itoa(maxSegmentBytes) + " bytes"
	}
	for _, r := range s {
		switch {
		case r == 0:
			return "contains a NUL character"
		case r == '/' || r == '\\':
			return "contains a path separator"
		case unicode.IsControl(r):
			return "contains a control character"
		case strings.ContainsRune(`<>:"|?*`, r):
			return "contains a character Windows does not allow in names (<>:\"|?*)"
		}
	}
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, " ") {
		return "ends in a dot or a space"
	}
	base, _, _ := strings.Cut(s, ".")
	if windowsReserved[strings.ToUpper(strings.TrimRight(base, " "))] {
		return "a device name reserved on Windows"
	}
	return ""
}

// checkDomain validates a domain: one path element (see segmentProblem),
// or "" when allowEmpty (the knowledge base's root).
func checkDomain(domain string, allowEmpty bool) error {
	if domain == "" && allowEmpty {
		return nil
	}
	if p := segmentProblem(domain); p != "" {
		return apperr.New(apperr.InteropBadDomain, map[string]any{"domain": domain, "reason": p})
	}
	return nil
}

// docRel validates {domain, path} and returns the document's path relative
// to the knowledge base's root (slash-separated). path must be relative,
// use "/" only, and every element must pass segmentProblem: "..", absolute
// paths, drive letters, backslashes, NUL, empty elements ("a//b", a leading
// or trailing "/") and Windows device names are refused with
// InteropBadPath. Symlinks are checked when the document is opened (kb.Read
// refuses one that leads out of the root).
func docRel(domain, path string) (string, error) {
	if err := checkDomain(domain, true); err != nil {
		return "", err
	}
	bad := func(reason string) error {
		return apperr.New(apperr.InteropBadPath, map[string]any{"path": path, "reason": reason})
	}
	switch {
	case path == "":
		return "", bad("empty path")
	case len(path) > maxPathBytes:
		return "", bad("longer than " + itoa(maxPathBytes) + " bytes")
	case strings.HasPrefix(path, "/") || strings.HasPrefix(path, `\`):
		return "", bad("an absolute path")
	case len(path) >= 2 && path[1] == ':':
		return "", bad("a Windows drive path")
	}
	for el := range strings.SplitSeq(path, "/") {
		if p := segmentProblem(el); p != "" {
			return "", bad(p)
		}
	}
	if domain == "" {
		return path, nil
	}
	return domain + "/" + path, nil
}

// splitRel turns a path relative to the knowledge base's root into its
// {domain, path} address: the first element is the domain when there is
// more than one.
func splitRel(rel string) (domain, path string) {
	if d, p, ok := strings.Cut(rel, "/"); ok {
		return d, p
	}
	return "", rel
}

func itoa(n int) string { return strconv.Itoa(n) }
