package redact

import (
	"slices"
	"strings"
	"testing"
)

func TestURLCredentialsAreMaskedWhereverTheyAppear(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pw@host/v1": "http://user:***@host/v1",
		"provider returned 404; the base URL http://u:p%40ss@10.0.0.1:8080/nope (OPENAI_BASE_URL)": "provider returned 404; the base URL http://u:***@10.0.0.1:8080/nope (OPENAI_BASE_URL)",
		`{"baseURL":"https://alice:s3cret@api.example.com/v1","x":1}`:                              `{"baseURL":"https://alice:***@api.example.com/v1","x":1}`,
		"https://ghp_tokenvalue@github.com/x":                                                      "https://***@github.com/x",
		"https://example.com/v1?key=AIzaSECRET&alt=sse":                                            "https://example.com/v1?key=***&alt=sse",
		"GET /search?q=cats&api_key=abc123":                                                        "GET /search?q=cats&api_key=***",
		"https://example.com/path@with-at":                                                         "https://example.com/path@with-at",
		"mailto:someone@example.com and a@b":                                                       "mailto:someone@example.com and a@b",
		"no url here":                                                                              "no url here",
		"two: http://a:1@x and socks5://b:2@y":                                                     "two: http://a:***@x and socks5://b:***@y",
	} {
		if got := URLCredentials(in); got != want {
			t.Errorf("URLCredentials(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestSecretsOfAURL(t *testing.T) {
	for raw, want := range map[string][]string{
		"http://user:s3cret@host/v1":        {"s3cret"},
		"http://user:p@ss@host/v1":          {"p@ss", "p%40ss"},
		"https://tok123@host":               {"tok123"},
		"https://host/v1?key=abc&token=def": {"abc", "def"},
		"https://host/v1":                   nil,
		"not a url":                         nil,
	} {
		if got := Secrets(raw); !slices.Equal(got, want) {
			t.Errorf("Secrets(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestInRunsReplacesAsTheWholeTextWould checks InRuns against the
// expressions run over the whole text: texts and JSON with URLs, keys and
// separators at their edges give the same result.
func TestInRunsReplacesAsTheWholeTextWould(t *testing.T) {
	whole := func(s string) string {
		s = userinfoRe.ReplaceAllStringFunc(s, func(m string) string {
			sub := userinfoRe.FindStringSubmatch(m)
			if sub[2] == "" {
				return m
			}
			if user, _, ok := strings.Cut(sub[2], ":"); ok {
				return sub[1] + user + ":" + Mask + "@"
			}
			return sub[1] + Mask + "@"
		})
		return queryRe.ReplaceAllString(s, "${1}"+Mask)
	}
	texts := []string{
		`{"messages":[{"role":"user","content":"see http://a:pw@host/x?key=abc&b=1 and 'https://tok@h'"},` +
			`{"role":"assistant","content":"<https://u:p@h>\"http://x:y@z\" ?token=t>&api_key=k"}]}`,
		`"http://a:1@x"'socks5://b:2@y'<ftp://c:3@z>`,
		`text?key=v"&secret=s'<?pwd=p>`,
		`xhttp://a:1@b`, // no word boundary before the scheme
		`""''<<>>`, "", `"`,
	}
	big := strings.Repeat(`{"role":"user","content":"日本語と English の文。"},`, 2000) + `{"content":"http://u:p@h/?sig=zz"}`
	texts = append(texts, big)
	for _, s := range texts {
		if got, want := URLCredentials(s), whole(s); got != want {
			t.Errorf("URLCredentials(%.80q)\n got %.200q\nwant %.200q", s, got, want)
		}
	}
	if got := InRuns(big, func(string) bool { return false }, strings.ToUpper); got != big {
		t.Error("InRuns changed a text no run of which was picked")
	}
	if got := InRuns(`a"b'c`, func(string) bool { return true }, strings.ToUpper); got != `A"B'C` {
		t.Errorf("InRuns = %q", got)
	}
}
