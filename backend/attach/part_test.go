package attach

import (
	"strings"
	"testing"

	"playchat/backend/attach/attachtest"
)

func TestFirstPagesKeepsWholePagesInOrder(t *testing.T) {
	p, err := Prepare("r.pdf", attachtest.PDF(
		attachtest.Page{Latin: "alpha"}, attachtest.Page{Image: true}, attachtest.Page{Latin: "gamma [page 9]"}, attachtest.Page{Latin: "delta"}))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[int]string{
		0: "",
		1: "[page 1]\nalpha",
		2: "[page 1]\nalpha", // page 2 has no text
		3: "[page 1]\nalpha\n\n[page 3]\ngamma [page 9]",
		4: p.Text,
		9: p.Text,
	}
	for n, want := range cases {
		if got := FirstPages(p.Text, n); got != want {
			t.Errorf("FirstPages(%d) = %q, want %q", n, got, want)
		}
	}
	// A line in a page's text that looks like a heading with a lower
	// number is text, not a page.
	text := "[page 1]\none\n\n[page 1]\nstill one\n\n[page 2]\ntwo"
	if got := FirstPages(text, 1); got != "[page 1]\none\n\n[page 1]\nstill one" {
		t.Errorf("a repeated heading: %q", got)
	}
}

func TestFirstCharsCountsRunesNotBytes(t *testing.T) {
	if got := FirstChars("日本語のテキスト", 3); got != "日本語" {
		t.Errorf("got %q", got)
	}
	if got := FirstChars("ab", 5); got != "ab" {
		t.Errorf("got %q", got)
	}
	if got := FirstChars("ab", 0); got != "" {
		t.Errorf("got %q", got)
	}
}

func TestAPartBlockSaysWhichPartItIs(t *testing.T) {
	b := PartBlock("r.pdf", "application/pdf", "[page 1]\nalpha", PagesPart(1, 4))
	for _, want := range []string{`<attachment name="r.pdf" type="application/pdf" chars="14" part="page 1 of 4">`,
		"\n[page 1]\nalpha\n", "[this is page 1 of 4 only: the rest of the document was left out", "\n</attachment>"} {
		if !strings.Contains(b, want) {
			t.Errorf("block lacks %q:\n%s", want, b)
		}
	}
	if !strings.HasPrefix(b, BlockPrefix) {
		t.Error("a part block must count as an attachment's")
	}
	if PagesPart(3, 10) != "pages 1-3 of 10" || CharsPart(5000, 12000) != "characters 1-5000 of 12000" {
		t.Errorf("parts %q %q", PagesPart(3, 10), CharsPart(5000, 12000))
	}
}

func TestAPDFGoesToTheKnowledgeBaseWithAHeadingPerPage(t *testing.T) {
	p, err := Prepare("Q3 report.pdf", attachtest.PDF(attachtest.Page{Latin: "alpha"}, attachtest.Page{Latin: "beta"}))
	if err != nil {
		t.Fatal(err)
	}
	name, body := KnowledgeDocument(p)
	if name != "Q3 report.md" || body != "# Q3 report.pdf\n\n## Page 1\n\nalpha\n\n## Page 2\n\nbeta\n" {
		t.Fatalf("%q %q", name, body)
	}
	md, _ := Prepare("notes.md", []byte("# Notes\n\ntext"))
	if name, body := KnowledgeDocument(md); name != "notes.md" || body != "# Notes\n\ntext\n" {
		t.Fatalf("%q %q", name, body)
	}
	log, _ := Prepare("server.log", []byte("line 1\n"))
	if name, body := KnowledgeDocument(log); name != "server.md" || body != "# server.log\n\nline 1\n" {
		t.Fatalf("%q %q", name, body)
	}
}
