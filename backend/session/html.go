package session

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"

	"playchat/backend/redact"
	"playchat/backend/store"
)

// The HTML export is one self-contained file: inline CSS like the window's
// light theme, no script, no external resource (it opens offline and in
// any browser; the browser's print dialog makes a PDF of it). Markdown is
// rendered with goldmark (CommonMark plus GFM tables, strikethrough and
// autolinks); raw HTML in a message is left out and dangerous link
// schemes are dropped (goldmark's safe mode). Math is not typeset — KaTeX
// needs a script or a JavaScript engine — it is kept as its TeX source in
// a styled <span class="math"> (or <div class="math"> for display math),
// so nothing is lost and it reads like the source a person typed.

var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
	goldmark.WithRendererOptions(gmhtml.WithHardWraps()),
)

// mathRE finds math outside code: $$…$$, \[…\], \(…\) and $…$ (an inline
// $ span does not start or end with a space, and a closing $ is not
// followed by a digit, so "$5 and $6" stays text).
var mathRE = regexp.MustCompile(`(?s)\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)|\$([^\s$](?:[^$\n]*[^\s$])?)\$(?:[^0-9]|$)`)

// placeholder marks the i-th math span in the Markdown before rendering;
// letters and digits only, so goldmark passes it through unchanged.
func placeholder(i int) string { return fmt.Sprintf("PCMATHX%dX", i) }

var (
	placeholderRE     = regexp.MustCompile(`PCMATHX(\d+)X`)
	lonePlaceholderRE = regexp.MustCompile(`<p>PCMATHX\d+X</p>`)
)

// protectMath replaces math outside code blocks and inline code with
// placeholders, returning the rewritten text and the math spans (HTML).
func protectMath(src string, spans *[]string) string {
	var out strings.Builder
	lines := strings.SplitAfter(src, "\n")
	fence := ""
	var chunk strings.Builder
	flush := func() {
		out.WriteString(protectInline(chunk.String(), spans))
		chunk.Reset()
	}
	for _, line := range lines {
		t := strings.TrimLeft(line, " ")
		isFence := len(line)-len(t) <= 3 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"))
		switch {
		case fence == "" && isFence:
			flush()
			fence = t[:3]
			out.WriteString(line)
		case fence != "":
			out.WriteString(line)
			if isFence && strings.HasPrefix(t, fence) && strings.TrimSpace(strings.TrimLeft(t, fence[:1])) == "" {
				fence = ""
			}
		default:
			chunk.WriteString(line)
		}
	}
	flush()
	return out.String()
}

var inlineCodeRE = regexp.MustCompile("(`+)(?s:.+?)(`+)")

func protectInline(s string, spans *[]string) string {
	var out strings.Builder
	last := 0
	for _, loc := range inlineCodeRE.FindAllStringIndex(s, -1) {
		out.WriteString(replaceMath(s[last:loc[0]], spans))
		out.WriteString(s[loc[0]:loc[1]])
		last = loc[1]
	}
	out.WriteString(replaceMath(s[last:], spans))
	return out.String()
}

func replaceMath(s string, spans *[]string) string {
	return mathRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := mathRE.FindStringSubmatch(m)
		trail := ""
		var tex, tag string
		switch {
		case sub[1] != "":
			tex, tag = sub[1], "div"
		case sub[2] != "":
			tex, tag = sub[2], "div"
		case sub[3] != "":
			tex, tag = sub[3], "span"
		default:
			tex, tag = sub[4], "span"
			trail = m[len(sub[4])+2:]
		}
		open, closeDelim := "$", "$"
		if tag == "div" {
			open, closeDelim = "$$", "$$"
		}
		*spans = append(*spans, fmt.Sprintf(`<%s class="math" title="TeX">%s%s%s</%s>`, tag, open, html.EscapeString(strings.TrimSpace(tex)), closeDelim, tag))
		return placeholder(len(*spans)-1) + trail
	})
}

// renderMarkdown renders one message's Markdown to safe HTML.
func renderMarkdown(src string) (string, error) {
	var spans []string
	text := protectMath(src, &spans)
	if open := openFence(src); open != "" {
		text += "\n" + open + "\n"
	}
	var buf bytes.Buffer
	if err := md.Convert([]byte(text), &buf); err != nil {
		return "", err
	}
	out := lonePlaceholderRE.ReplaceAllStringFunc(buf.String(), func(p string) string {
		// Display math alone in its paragraph: the <div> takes the <p>'s place.
		var i int
		fmt.Sscanf(strings.TrimPrefix(p, "<p>"), "PCMATHX%dX", &i)
		if i < len(spans) && strings.HasPrefix(spans[i], "<div") {
			return strings.TrimSuffix(strings.TrimPrefix(p, "<p>"), "</p>")
		}
		return p
	})
	return placeholderRE.ReplaceAllStringFunc(out, func(p string) string {
		var i int
		fmt.Sscanf(p, "PCMATHX%dX", &i)
		if i < len(spans) {
			return spans[i]
		}
		return p
	}), nil
}

const htmlStyle = `:root{color-scheme:light dark}
body{margin:0;background:#f6f7f9;color:#1f2328;font:15px/1.65 system-ui,-apple-system,"Segoe UI","Hiragino Sans","Noto Sans CJK JP","Yu Gothic",sans-serif}
main{max-width:860px;margin:0 auto;padding:32px 20px 64px}
header h1{font-size:1.5em;margin:0 0 4px}
header p{color:#656d76;margin:0 0 24px;font-size:.9em}
article{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:12px 18px;margin:0 0 14px}
article.user{background:#eef4ff;border-color:#c8d8f5}
article h2{font-size:.85em;font-weight:600;color:#656d76;margin:0 0 6px}
pre{background:#f0f2f4;border-radius:6px;padding:10px 12px;overflow:auto;font-size:.9em;line-height:1.45}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Noto Sans Mono CJK JP",monospace;font-size:.92em}
:not(pre)>code{background:#f0f2f4;border-radius:4px;padding:.1em .35em}
table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d0d7de;padding:4px 10px}th{background:#f6f8fa}
blockquote{margin:8px 0;padding:0 12px;border-left:3px solid #d0d7de;color:#57606a}
.math{font-family:"Latin Modern Math","Cambria Math","STIX Two Math",serif;background:#fff8e6;border-radius:4px;padding:0 .25em;white-space:pre-wrap}
div.math{display:block;text-align:center;padding:6px;margin:8px 0}
.note{color:#9a6700;font-style:italic}
.sources{font-size:.88em}
img{max-width:100%}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}article{background:#161b22;border-color:#30363d}article.user{background:#132339;border-color:#1f3a5f}
pre,:not(pre)>code{background:#1f242c}th{background:#1f242c}th,td{border-color:#30363d}.math{background:#2b2410}header p,article h2{color:#8d96a0}}
@media print{body{background:#fff}article{break-inside:avoid}}`

// ExportHTML writes the branch shown as one self-contained HTML page.
func ExportHTML(ctx context.Context, db *store.DB, id string, o ExportOptions) ([]byte, error) {
	r, err := loadReadable(ctx, db, id)
	if err != nil {
		return nil, err
	}
	title := r.s.Title
	if strings.TrimSpace(title) == "" {
		title = "Untitled chat"
	}
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	b.WriteString(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` + "\n")
	b.WriteString(`<meta name="generator" content="playchat">` + "\n")
	fmt.Fprintf(&b, "<title>%s</title>\n<style>\n%s\n</style>\n</head>\n<body>\n<main>\n", html.EscapeString(title), htmlStyle)
	meta := []string{}
	if r.s.Model != "" {
		meta = append(meta, html.EscapeString(r.s.Model))
	}
	meta = append(meta, "created "+o.local(r.s.CreatedAt), "updated "+o.local(r.s.UpdatedAt),
		fmt.Sprintf("%d messages", len(r.msgs)), "exported "+o.local(o.now()))
	fmt.Fprintf(&b, "<header>\n<h1>%s</h1>\n<p>%s</p>\n</header>\n", html.EscapeString(title), strings.Join(meta, " · "))
	for _, m := range r.msgs {
		who := "User"
		if m.Role == store.RoleAssistant {
			who = "Assistant"
			if m.Model != "" {
				who += " (" + m.Model + ")"
			}
		}
		body, err := renderMarkdown(m.Content)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "<article class=\"%s\">\n<h2>%s · %s</h2>\n%s", m.Role, html.EscapeString(who), o.local(m.CreatedAt), body)
		switch m.Status {
		case store.StatusPartial, store.StatusStreaming:
			b.WriteString("<p class=\"note\">(reply cut off)</p>\n")
		case store.StatusError:
			fmt.Fprintf(&b, "<p class=\"note\">(no reply: %s)</p>\n", html.EscapeString(oneLine(redact.URLCredentials(m.Error))))
		}
		if srcs := sourcesOf(m); len(srcs) > 0 {
			b.WriteString("<ol class=\"sources\">\n")
			for _, s := range srcs {
				t := s.Title
				if t == "" {
					t = s.URL
				}
				fmt.Fprintf(&b, "<li><a href=\"%s\">%s</a></li>\n", html.EscapeString(s.URL), html.EscapeString(t))
			}
			b.WriteString("</ol>\n")
		}
		b.WriteString("</article>\n")
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	return []byte(b.String()), nil
}
