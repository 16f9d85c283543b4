package kb

import (
	"strings"
	"testing"

	"playchat/backend/jatext"
)

// issue 8: a hit shows the section's heading, so its excerpt must not open
// with the same heading again.
func TestExcerptDoesNotRepeatTheSectionHeading(t *testing.T) {
	terms, _ := jatext.QueryTerms("所有権")
	md := "## 所有権\n\n所有権（ownership）は、Rustの最もユニークな機能です。\n\n### 所有権規則\n\nまず、所有権のルールについて見ていきましょう。\n"
	got := excerpt(md, terms, 160)
	if strings.HasPrefix(got, "«所有権» «所有権»") || strings.HasPrefix(got, "所有権 ") || !strings.HasPrefix(got, "«所有権»（ownership）") {
		t.Errorf("excerpt = %q, want it to open with the body, not the heading", got)
	}
	if !strings.Contains(got, "«所有権»規則") {
		t.Errorf("excerpt = %q: a sub-heading inside the section is content and stays", got)
	}
	if got := excerpt("所有権\n======\n\n所有権（ownership）は、Rustの機能です。\n", terms, 160); !strings.HasPrefix(got, "«所有権»（ownership）") {
		t.Errorf("setext heading: excerpt = %q, want it to open with the body", got)
	}
	if got := excerpt("## 所有権\n", terms, 160); got != "«所有権»" {
		t.Errorf("a section holding only its heading: excerpt = %q, want the heading", got)
	}
}
