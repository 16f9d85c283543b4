package markdown

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// frontMatter is what a document's YAML front matter holds for the
// knowledge base.
type frontMatter struct {
	title    string
	tags     []string
	warnings []string
}

// splitFrontMatter reads a leading YAML front matter block (a first line
// "---", YAML, then a line "---" or "...") and returns it and the rest of s.
// A block that is not valid YAML is kept as text (without its delimiter
// lines, so the closing "---" does not turn the last line into a heading),
// with a warning; one that is valid YAML but not a mapping (a document that
// opens with a thematic break) is kept as text silently.
func splitFrontMatter(s string) (frontMatter, string) {
	if !strings.HasPrefix(s, "---\n") {
		return frontMatter{}, s
	}
	body, rest, ok := cutClosingLine(s[4:])
	if !ok {
		return frontMatter{}, s
	}
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(body), &node); err != nil {
		return frontMatter{warnings: []string{fmt.Sprintf("front matter is not valid YAML, indexed as text: %v", err)}},
			body + rest
	}
	if node.Kind == 0 { // empty ("---\n---") or only comments
		if strings.TrimSpace(body) == "" {
			return frontMatter{}, rest
		}
		return frontMatter{}, s
	}
	if node.Kind != yaml.DocumentNode || len(node.Content) != 1 || node.Content[0].Kind != yaml.MappingNode {
		return frontMatter{}, s
	}
	var fm frontMatter
	m := node.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i].Value, m.Content[i+1]
		switch strings.ToLower(key) {
		case "title":
			if val.Kind == yaml.ScalarNode {
				fm.title = strings.TrimSpace(val.Value)
			} else {
				fm.warnings = append(fm.warnings, fmt.Sprintf("front matter title at line %d is not text; ignored", val.Line))
			}
		case "tags":
			fm.tags = tagList(val)
		}
	}
	return fm, rest
}

// cutClosingLine finds the line "---" or "..." (trailing blanks allowed)
// that closes a front matter block and returns the text before it and the
// text after that line.
func cutClosingLine(s string) (body, rest string, ok bool) {
	pos := 0
	for pos <= len(s) {
		end := strings.IndexByte(s[pos:], '\n')
		line := s[pos:]
		next := len(s)
		if end >= 0 {
			line = s[pos : pos+end]
			next = pos + end + 1
		}
		if t := strings.TrimRight(line, " \t"); t == "---" || t == "..." {
			return s[:pos], s[next:], true
		}
		if end < 0 {
			break
		}
		pos = next
	}
	return "", s, false
}

// tagList reads tags given as a YAML list of scalars or as one string
// ("a, b"); empty entries go.
func tagList(n *yaml.Node) []string {
	var raw []string
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode {
				raw = append(raw, c.Value)
			}
		}
	case yaml.ScalarNode:
		raw = strings.Split(n.Value, ",")
	}
	var out []string
	for _, t := range raw {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}
