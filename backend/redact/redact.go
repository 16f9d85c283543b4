// Package redact takes credentials out of text bound for the screen, the
// database, exports and logs. A credential in a URL is a secret like an API
// key (issue 21: http://user:pw@host/v1 reached the error text, the stored
// message, api_logs and exports).
//
// It is a pure leaf: no I/O, no other playchat package.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mask is what stands in place of a credential, as in net/url's
// URL.Redacted.
const Mask = "***"

// userinfoRe finds the userinfo of a URL inside any text: a scheme, "//",
// then user[:password] up to the "@" that ends it. Its parts stop at
// whitespace, quotes and the characters that end a URL's authority.
var userinfoRe = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.\-]*://)([^\s/?#@"'<>\\]*)@`)

// queryRe finds query parameters that carry a credential
// (?key=…, &api_key=…, access_token=…, …) in any text.
var queryRe = regexp.MustCompile(`(?i)([?&](?:api[_-]?key|key|token|access[_-]?token|auth|password|passwd|pwd|secret|sig|signature)=)([^&#\s"'<>]+)`)

// URLCredentials returns s with the credentials of every URL in it masked:
// a password becomes Mask (http://user:***@host, as URL.Redacted writes
// it), a user name without a password — often a token — becomes Mask too,
// and the values of query parameters named like credentials (key, api_key,
// token, access_token, password, secret, sig, …) become Mask. Text without
// a URL comes back unchanged.
func URLCredentials(s string) string {
	if !strings.Contains(s, "://") && !strings.ContainsAny(s, "?&") {
		return s
	}
	// One pass over the runs for both expressions: a request logged in
	// api_logs is tens of kilobytes of JSON cut into thousands of runs.
	return InRuns(s, func(r string) bool { return hasUserinfo(r) || hasQueryParam(r) }, func(r string) string {
		if hasUserinfo(r) {
			r = userinfoRe.ReplaceAllStringFunc(r, maskUserinfo)
		}
		if hasQueryParam(r) {
			r = queryRe.ReplaceAllString(r, "${1}"+Mask)
		}
		return r
	})
}

// hasUserinfo reports whether run may hold a URL's userinfo.
func hasUserinfo(run string) bool { return strings.Contains(run, "://") && strings.Contains(run, "@") }

// hasQueryParam reports whether run may hold a query parameter.
func hasQueryParam(run string) bool {
	return strings.Contains(run, "=") && strings.ContainsAny(run, "?&")
}

// maskUserinfo masks one userinfoRe match: user:password@ becomes
// user:***@, a user name alone ***@.
func maskUserinfo(m string) string {
	sub := userinfoRe.FindStringSubmatch(m)
	scheme, info := sub[1], sub[2]
	if info == "" {
		return m
	}
	if user, _, ok := strings.Cut(info, ":"); ok {
		return scheme + user + ":" + Mask + "@"
	}
	return scheme + Mask + "@"
}

// RunSeparators are the bytes InRuns cuts text at: quotes and angle
// brackets, which end a URL, a key or a token in any text (and every JSON
// string).
const RunSeparators = "\"'<>"

// InRuns returns s with replace applied to each of its runs — the longest
// stretches without a byte of RunSeparators — for which has reports true;
// the other runs and the separators are kept as they are. For a regular
// expression none of whose matches can hold a separator (and which looks
// back no further than \b), replacing in the runs that can hold a match
// gives what replacing in the whole of s gives, without running the
// expression over all of a large text (a request of thousands of messages
// logged in api_logs, issue 29).
func InRuns(s string, has func(run string) bool, replace func(run string) string) string {
	var b strings.Builder
	done := 0 // s[:done] is in b (once b is used)
	for start := 0; start <= len(s); {
		end := strings.IndexAny(s[start:], RunSeparators)
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if run := s[start:end]; run != "" && has(run) {
			if r := replace(run); r != run {
				b.WriteString(s[done:start])
				b.WriteString(r)
				done = end
			}
		}
		start = end + 1
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// URL returns raw, a URL, with its credentials masked (URLCredentials); a
// value that does not parse is masked as text.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return URLCredentials(raw)
	}
	return URLCredentials(u.String())
}

// Secrets returns the credentials held by raw, a URL: its password, or its
// user name when it has no password, and the values of its credential-like
// query parameters — what a redactor that replaces known secret values (as
// config.Config.Redact) must look for. nil when raw holds none.
func Secrets(raw string) []string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" {
		return nil
	}
	var out []string
	if u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			out = append(out, pw)
			if enc := url.QueryEscape(pw); enc != pw {
				out = append(out, enc)
			}
		} else if name := u.User.Username(); name != "" {
			out = append(out, name)
		}
	}
	for _, m := range queryRe.FindAllStringSubmatch("?"+u.RawQuery, -1) {
		out = append(out, m[2])
	}
	return out
}
