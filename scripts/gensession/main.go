// Command gensession writes a playchat session document (backend/session
// format) with N messages, for benchmarks and manual testing:
//
//	go run ./scripts/gensession -n 1000 > long.json && playchat sessions import long.json
//
// With -long-bytes the last message is an assistant reply of that many bytes
// of the -long-kind text (a reply at the 1 MiB limit: -long-bytes 1048576):
//
//	go run ./scripts/gensession -n 2 -long-bytes 1048576 -long-kind mixed > big.json
//
// With -images every user message carries a picture of its own (a PNG of
// 1280×960, the kind of screenshot a user pastes), for the idle memory of a
// chat with hundreds of images (scripts/bench-images.sh):
//
//	go run ./scripts/gensession -n 400 -images > pictures.json
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/session"
	"playchat/backend/store"
)

// longUnits are the repeated pieces of each -long-kind.
var longUnits = map[string][]string{
	// plain: one paragraph of prose lines with no blank line at all.
	"plain": {"The quick brown fox jumps over the lazy dog, again and again.\n"},
	// paragraphs: short English paragraphs.
	"paragraphs": {"The quick brown fox jumps over the lazy dog, and **the dog** does not mind at all.\n\n"},
	// japanese: Japanese paragraphs.
	"japanese": {"吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。\n\n"},
	// code: one fenced Go block (opened before the units, closed after).
	"code": {"func add(a, b int) int { return a + b } // keep adding\n"},
	// mixed: paragraphs, lists, code, tables and math, in both languages.
	"mixed": {
		"The quick brown fox jumps over the lazy dog, and **the dog** does not mind at all.\n\n",
		"吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\n\n",
		"- first point with `inline code`\n- second point\n- third point\n\n",
		"```go\nfunc add(a, b int) int {\n\treturn a + b\n}\n```\n\n",
		"| key | value |\n|---|---|\n| 東京 | 晴れ |\n| 大阪 | 雨 |\n\n",
		"二次方程式 $ax^2+bx+c=0$ の解:\n\n$$\nx = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\n$$\n\n",
		"## A heading\n\nSome closing words for this part of the reply.\n\n",
	},
}

// longText is a text of at most n bytes (cut at a character boundary, so up
// to 3 bytes less) of the kind's units, with a numbered marker every unit so
// the place in it can be told on screen.
func longText(kind string, n int) (string, error) {
	units, ok := longUnits[kind]
	if !ok {
		return "", fmt.Errorf("unknown -long-kind %q (plain, paragraphs, japanese, code, mixed)", kind)
	}
	var b strings.Builder
	head, tail := "LONGSTART\n\n", "\n\nLONGEND"
	if kind == "code" {
		head, tail = "LONGSTART\n\n```go\n", "```\n\nLONGEND"
	}
	b.WriteString(head)
	for i := 0; b.Len() < n-len(tail); i++ {
		b.WriteString(units[i%len(units)])
	}
	s := b.String()
	cut := n - len(tail)
	if kind == "code" {
		cut-- // room for the line break before the closing fence
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if cut < len(s) {
		s = s[:cut]
	}
	if kind == "code" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + tail, nil
}

// picture is a distinct PNG of w×h for message i: bands of colour that
// move with i, so no two messages share a file.
func picture(i, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			copy(row[4*x:], []byte{uint8(x/8 + i), uint8(y/8 + 3*i), uint8((x+y)/16 + 7*i), 255})
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func main() {
	n := flag.Int("n", 1000, "number of messages")
	title := flag.String("title", "長いセッション (benchmark)", "session title")
	longBytes := flag.Int("long-bytes", 0, "make the last message an assistant reply of this many bytes (0: none)")
	longKind := flag.String("long-kind", "mixed", "the long reply's text: plain, paragraphs, japanese, code or mixed")
	images := flag.Bool("images", false, "every user message carries a PNG of its own (1280×960)")
	flag.Parse()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	doc := session.Document{Format: session.Format, Version: session.Version, ExportedAt: t0,
		Session: session.Summary{ID: "bench", Title: *title, Model: "openai/gpt-4o-mini", CreatedAt: t0, UpdatedAt: t0}}
	for i := 0; i < *n; i++ {
		role, content := store.RoleUser, fmt.Sprintf("質問 %d: 東京の明日の天気と洗濯指数を教えてください。", i)
		if i%2 == 1 {
			role = store.RoleAssistant
			content = fmt.Sprintf("回答 %d:\n\n## 明日の天気\n\n- 晴れ時々くもり\n- 降水確率 **20%%**\n\n```go\nfmt.Println(%d)\n```\n\n%s",
				i, i, strings.Repeat("洗濯物は外に干せそうです。", 4))
		}
		if *longBytes > 0 && i == *n-1 {
			text, err := longText(*longKind, *longBytes)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			role, content = store.RoleAssistant, text
		}
		dm := session.DocMessage{ID: int64(i + 1), Role: role, Content: content,
			Status: store.StatusComplete, CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
		if *images && role == store.RoleUser {
			const w, h = 1280, 960
			data := picture(i, w, h)
			sum := sha256.Sum256(data)
			sha := hex.EncodeToString(sum[:])
			if doc.Files == nil {
				doc.Files = map[string]string{}
			}
			doc.Files[sha] = base64.StdEncoding.EncodeToString(data)
			dm.Attachments = []session.DocAttachment{{SHA256: sha, Name: fmt.Sprintf("screenshot-%d.png", i), Kind: "image",
				MIME: "image/png", Width: w, Height: h, OriginalSize: int64(len(data))}}
		}
		doc.Messages = append(doc.Messages, dm)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
