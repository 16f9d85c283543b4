package knowledge

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"playchat/backend/apperr"
	"playchat/backend/llm"
	"playchat/backend/websearch"
)

// Summary is the structured entry the model writes from a search's results.
type Summary struct {
	// Heading is one line, at most maxHeadingRunes runes.
	Heading string
	// Points are the key facts (at least one), each citing sources as [n].
	Points []string
	// Dates are dated facts ("2026-12-01: …"); may be empty.
	Dates []string
	// Used are the 1-based numbers of the results the summary used, in
	// order, each once.
	Used []int
}

const (
	maxHeadingRunes = 120
	maxPoints       = 12
	maxItemRunes    = 600
	// summaryMaxTokens caps the summary reply.
	summaryMaxTokens = 900
)

// summaryPrompt asks for a fixed Markdown layout (no JSON mode needed: every
// provider and local model can follow it) that parseSummary validates.
const summaryPrompt = `You turn web search results into a short, reusable knowledge entry.
Answer with exactly this Markdown layout and nothing else:

# <one-line heading naming the topic, in the language of the query>

## Key points
- <a fact from the results, citing its result numbers like [1] or [2][3]>
- <more facts: 1 to 8 bullets>

## Dates
- <YYYY-MM-DD or the date as written>: <what happened or applies then> [n]
(write "- none" when the results give no dates)

## Sources
- [n] for each result number you used

Use only what the results say. Keep each bullet to one or two sentences.`

// summaryRequest is the conversation that asks the model for a summary.
func summaryRequest(model, query string, results []websearch.Result, retryWhy string) llm.Request {
	var b strings.Builder
	fmt.Fprintf(&b, "Query: %s\n\nResults:\n", query)
	for i, r := range results {
		fmt.Fprintf(&b, "\n[%d] %s\nURL: %s\n", i+1, r.Title, r.URL)
		if r.Published != "" {
			fmt.Fprintf(&b, "Published: %s\n", r.Published)
		}
		fmt.Fprintf(&b, "%s\n", r.Snippet)
	}
	msgs := []llm.Message{{Role: "system", Content: summaryPrompt}, {Role: "user", Content: b.String()}}
	if retryWhy != "" {
		msgs = append(msgs, llm.Message{Role: "user", Content: "Your previous answer could not be used (" + retryWhy +
			"). Answer again with exactly the layout asked for."})
	}
	return llm.Request{Model: model, Messages: msgs, MaxTokens: summaryMaxTokens, Purpose: llm.PurposeKnowledge}
}

var citeRe = regexp.MustCompile(`\[(\d{1,2})\]`)

// parseSummary reads the model's answer in the layout of summaryPrompt and
// checks it: a heading, at least one key point, and source numbers within
// 1…n (n results). Sources come from the Sources section, else from the
// [n] citations in the points and dates, else all n results. Text around
// the layout (a preamble, a code fence) is ignored.
func parseSummary(text string, n int) (Summary, error) {
	bad := func(detail string) (Summary, error) {
		return Summary{}, apperr.New(apperr.KnowledgeBadSummary, map[string]any{"detail": detail})
	}
	var s Summary
	section := ""
	var sourceLines []string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "```"):
			continue
		case strings.HasPrefix(t, "# ") && s.Heading == "":
			s.Heading = websearch.Clean(strings.TrimPrefix(t, "# "), maxHeadingRunes)
			section = ""
			continue
		case strings.HasPrefix(t, "## "):
			section = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(t, "## ")))
			continue
		}
		item, ok := bullet(t)
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(section, "key point"):
			if len(s.Points) < maxPoints {
				s.Points = append(s.Points, websearch.Clean(item, maxItemRunes))
			}
		case strings.HasPrefix(section, "date"):
			if l := strings.ToLower(item); l != "none" && l != "なし" && len(s.Dates) < maxPoints {
				s.Dates = append(s.Dates, websearch.Clean(item, maxItemRunes))
			}
		case strings.HasPrefix(section, "source"):
			sourceLines = append(sourceLines, item)
		}
	}
	if s.Heading == "" {
		return bad(`no "# " heading line`)
	}
	if len(s.Points) == 0 {
		return bad(`no bullet under "## Key points"`)
	}
	cited := func(lines []string) ([]int, error) {
		var out []int
		seen := map[int]bool{}
		for _, l := range lines {
			for _, m := range citeRe.FindAllStringSubmatch(l, -1) {
				k, _ := strconv.Atoi(m[1])
				if k < 1 || k > n {
					return nil, fmt.Errorf("source [%d] is not one of the %d results", k, n)
				}
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
		return out, nil
	}
	used, err := cited(sourceLines)
	if err != nil {
		return bad(err.Error())
	}
	if len(used) == 0 {
		if used, err = cited(append(append([]string{}, s.Points...), s.Dates...)); err != nil {
			return bad(err.Error())
		}
	}
	if len(used) == 0 {
		for k := 1; k <= n; k++ {
			used = append(used, k)
		}
	}
	s.Used = used
	return s, nil
}

// bullet returns the text of a "- ", "* " or "1. " list item.
func bullet(t string) (string, bool) {
	for _, p := range []string{"- ", "* ", "• "} {
		if strings.HasPrefix(t, p) {
			return strings.TrimSpace(t[len(p):]), true
		}
	}
	if i := strings.Index(t, ". "); i > 0 && i <= 3 {
		if _, err := strconv.Atoi(t[:i]); err == nil {
			return strings.TrimSpace(t[i+2:]), true
		}
	}
	return "", false
}

// Body renders the summary's sections (without heading or sources) as the
// entry's Markdown body, citations renumbered to the order of Used, so
// [1] is the entry's first source.
func (s Summary) Body() string {
	renum := map[int]int{}
	for i, k := range s.Used {
		renum[k] = i + 1
	}
	fix := func(t string) string {
		return citeRe.ReplaceAllStringFunc(t, func(m string) string {
			k, _ := strconv.Atoi(m[1 : len(m)-1])
			if j, ok := renum[k]; ok {
				return "[" + strconv.Itoa(j) + "]"
			}
			return ""
		})
	}
	var b strings.Builder
	b.WriteString("## Key points\n\n")
	for _, p := range s.Points {
		b.WriteString("- " + strings.TrimSpace(fix(p)) + "\n")
	}
	if len(s.Dates) > 0 {
		b.WriteString("\n## Dates\n\n")
		for _, d := range s.Dates {
			b.WriteString("- " + strings.TrimSpace(fix(d)) + "\n")
		}
	}
	return b.String()
}

// fallbackSummary is the entry built from the results themselves when the
// model's summary cannot be used: the query as heading, each result's
// title and snippet as a point citing it, its date (when the provider
// gave one) as a dated fact, every result as a source.
func fallbackSummary(query string, results []websearch.Result) Summary {
	s := Summary{Heading: websearch.Clean(query, maxHeadingRunes)}
	for i, r := range results {
		n := strconv.Itoa(i + 1)
		point := strings.TrimSpace(r.Title)
		if snip := strings.TrimSpace(r.Snippet); snip != "" {
			if point != "" {
				point += ": "
			}
			point += snip
		}
		if point == "" {
			point = r.URL
		}
		if len(s.Points) < maxPoints {
			s.Points = append(s.Points, websearch.Clean(point, maxItemRunes)+" ["+n+"]")
		}
		if p := strings.TrimSpace(r.Published); p != "" && len(s.Dates) < maxPoints {
			s.Dates = append(s.Dates, websearch.Clean(p+": "+r.Title, maxItemRunes)+" ["+n+"]")
		}
		s.Used = append(s.Used, i+1)
	}
	return s
}

// summarize asks model for a summary of results, once more with the reason
// when the first answer does not follow the layout.
func (s *Service) summarize(ctx context.Context, model, query string, results []websearch.Result) (Summary, error) {
	why := ""
	for attempt := 0; ; attempt++ {
		text, err := s.llm.Complete(ctx, summaryRequest(model, query, results, why))
		if err != nil {
			return Summary{}, err
		}
		sum, err := parseSummary(text, len(results))
		if err == nil || attempt == 1 {
			return sum, err
		}
		why = err.Error()
		s.log.Info("knowledge summary did not follow the layout; asking again", "why", why)
	}
}
