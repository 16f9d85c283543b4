package knowledge

import (
	"context"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/llm"
	"playchat/backend/websearch"
)

func TestParseSummaryReadsTheLayoutAndValidatesIt(t *testing.T) {
	good := "Sure!\n```markdown\n# Heading\n\n## Key points\n- one [2]\n* two [1][2]\n\n## Dates\n- none\n\n## Sources\n1. [2]\n2. [1]\n```"
	s, err := parseSummary(good, 3)
	if err != nil || s.Heading != "Heading" || len(s.Points) != 2 || len(s.Dates) != 0 || len(s.Used) != 2 || s.Used[0] != 2 || s.Used[1] != 1 {
		t.Fatalf("good: %+v, %v", s, err)
	}
	if body := s.Body(); !strings.Contains(body, "- one [1]\n- two [2][1]\n") || strings.Contains(body, "## Dates") {
		t.Errorf("citations not renumbered to the sources' order: %q", body)
	}
	// No Sources section: the citations in the points are the sources;
	// no citations either: every result.
	if s, _ := parseSummary("# H\n## Key points\n- a [3]\n## Dates\n- 2026-01-02: b [1]", 3); len(s.Used) != 2 || s.Used[0] != 3 || s.Used[1] != 1 {
		t.Errorf("cited: %+v", s.Used)
	}
	if s, _ := parseSummary("# H\n## Key points\n- a", 2); len(s.Used) != 2 {
		t.Errorf("uncited: %+v", s.Used)
	}
	for name, text := range map[string]string{
		"no heading":     "## Key points\n- a [1]",
		"no points":      "# H\n## Dates\n- 2026: x",
		"unknown source": "# H\n## Key points\n- a\n## Sources\n- [4]",
		"bad citation":   "# H\n## Key points\n- a [9]",
		"prose only":     "The weather is fine.",
	} {
		if _, err := parseSummary(text, 3); apperr.CodeOf(err) != apperr.KnowledgeBadSummary {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

type scripted struct {
	replies []string
	reqs    []llm.Request
}

func (s *scripted) Complete(_ context.Context, req llm.Request) (string, error) {
	s.reqs = append(s.reqs, req)
	if len(s.replies) == 0 {
		return "", errors.New("no reply scripted")
	}
	r := s.replies[0]
	s.replies = s.replies[1:]
	return r, nil
}

// A summary that misses the layout is asked for once more, with the reason.
func TestASummaryOffLayoutIsAskedForAgainOnce(t *testing.T) {
	results := []websearch.Result{{Title: "t", URL: "https://a.example/", Snippet: "s"}}
	llm := &scripted{replies: []string{"just prose", "# H\n## Key points\n- a [1]"}}
	svc := New(Options{LLM: llm, Settings: func() Settings { return Settings{} }})
	s, err := svc.summarize(context.Background(), "openai/m", "q", results)
	if err != nil || s.Heading != "H" || len(llm.reqs) != 2 {
		t.Fatalf("summary %+v, %v after %d requests", s, err, len(llm.reqs))
	}
	last := llm.reqs[1].Messages[len(llm.reqs[1].Messages)-1].Content
	if !strings.Contains(last, `no "# " heading line`) || llm.reqs[1].Model != "openai/m" {
		t.Errorf("retry message = %q", last)
	}
	llm = &scripted{replies: []string{"prose", "more prose"}}
	svc = New(Options{LLM: llm, Settings: func() Settings { return Settings{} }})
	if _, err := svc.summarize(context.Background(), "openai/m", "q", results); apperr.CodeOf(err) != apperr.KnowledgeBadSummary || len(llm.reqs) != 2 {
		t.Errorf("two bad answers: %v after %d requests", err, len(llm.reqs))
	}
}

func TestNormalizeQueryFoldsWidthCaseSpacesAndEndMarks(t *testing.T) {
	for _, q := range []string{"東京　天気？", " 東京 天気", "東京  天気!", "ＴＯＫＹＯ weather"} {
		n := NormalizeQuery(q)
		if strings.HasPrefix(q, "ＴＯＫＹＯ") {
			if n != "tokyo weather" {
				t.Errorf("%q → %q", q, n)
			}
			continue
		}
		if n != "東京 天気" {
			t.Errorf("%q → %q", q, n)
		}
	}
}

func TestMarkdownEscapesLinkTextAndHashesTheBody(t *testing.T) {
	e := Entry{ID: 3, Heading: "H: with colon", Query: "q \"quoted\"", Body: "## Key points\n\n- a [1]\n",
		Sources: []Source{{Title: "a [b]", URL: "https://x.example/"}}}
	text, hash := Markdown(e)
	if !strings.HasPrefix(text, "---\n") || !strings.Contains(text, "1. [a \\[b\\]](https://x.example/)") ||
		!strings.Contains(text, "title: 'H: with colon'") || !strings.HasPrefix(hash, "sha256:") {
		t.Errorf("markdown = %s", text)
	}
	if _, h2 := Markdown(e); h2 != hash {
		t.Error("hash is not stable")
	}
}
