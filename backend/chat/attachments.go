package chat

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/llm"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

// Attachments in a request (issue 25). A message with files goes to the
// model as content parts (go-openai's MultiContent, OpenAI's
// "content": [...] form, which Anthropic's and Ollama's OpenAI-compatible
// endpoints, OpenRouter and LM Studio take as well): first the typed text,
// then one text part per document (attach.Block: delimited, with its name
// and type), then one image_url part per image with a data URL.
//
// While the context is built an image part holds a reference
// (imageRefPrefix + sha;mime;WxH) instead of the bytes, so building and
// previewing read no files; resolveImages swaps in the data URLs just
// before the request is sent.

// MissingImageText replaces an image whose stored file is missing from the
// data folder (resolveImages): the request still goes, without it.
const MissingImageText = "[an image was attached here, but its file is missing from playchat's data folder]"

// imageRefPrefix starts the placeholder URL of an image part.
const imageRefPrefix = "playchat-attachment:"

// filesOf turns prepared files into the files a new message stores.
func filesOf(ps []attach.Prepared) []store.MessageFile {
	out := make([]store.MessageFile, len(ps))
	for i, p := range ps {
		out[i] = store.MessageFile{Name: p.Name, Kind: p.Kind, MIME: p.MIME, SHA256: p.SHA256, Size: int64(len(p.Data)),
			OriginalSize: p.OriginalSize, Width: p.Width, Height: p.Height, Text: p.Text, Pages: p.Pages, Data: p.Data}
	}
	return out
}

// filesTokens is what files add to a message in tokens: their text blocks
// (fileBlock, each counted as the request's part it becomes) and their
// images (ImageTokens).
func filesTokens(counter tokens.Counter, files []store.MessageFile) int {
	n := 0
	for _, f := range files {
		if f.Kind == attach.KindImage {
			n += ImageTokens(f.Width, f.Height)
		} else {
			n += counter.Count(fileBlock(f))
		}
	}
	return n
}

// ImageTokens estimates what an image of w×h pixels costs in a request, by
// OpenAI's published rule for detail "high" (the default for large
// images): fit in 2048×2048, shrink the short side to 768, then 85 tokens
// plus 170 per 512-pixel tile. Anthropic charges about w·h/750, which for
// the sizes sent here is of the same order. An unknown size counts as
// 1024×1024 (765 tokens).
func ImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		w, h = 1024, 1024
	}
	fw, fh := float64(w), float64(h)
	if s := 2048 / math.Max(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	if s := 768 / math.Min(fw, fh); s < 1 {
		fw, fh = fw*s, fh*s
	}
	tiles := math.Ceil(fw/512) * math.Ceil(fh/512)
	return 85 + 170*int(tiles)
}

// withFiles returns the request message of a stored message: its text
// alone, or content parts when it has files.
func withFiles(role, content string, files []store.MessageFile) llm.Message {
	if len(files) == 0 {
		return llm.Message{Role: role, Content: content}
	}
	parts := []openai.ChatMessagePart{}
	if strings.TrimSpace(content) != "" {
		parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: content})
	}
	for _, f := range files {
		if f.Kind != attach.KindImage {
			parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: fileBlock(f)})
		}
	}
	for _, f := range files {
		if f.Kind == attach.KindImage {
			parts = append(parts, openai.ChatMessagePart{Type: openai.ChatMessagePartTypeImageURL, ImageURL: &openai.ChatMessageImageURL{
				URL: fmt.Sprintf("%s%s;%s;%dx%d", imageRefPrefix, f.SHA256, f.MIME, f.Width, f.Height)}})
		}
	}
	return llm.Message{Role: role, MultiContent: parts}
}

// joinMessages appends b's content to a (two messages of one role in a
// row, from an import): text to text, or parts to parts when either has
// parts.
func joinMessages(a, b llm.Message) llm.Message {
	if len(a.MultiContent) == 0 && len(b.MultiContent) == 0 {
		a.Content += "\n\n" + b.Content
		return a
	}
	parts := func(m llm.Message) []openai.ChatMessagePart {
		if len(m.MultiContent) > 0 {
			return m.MultiContent
		}
		return []openai.ChatMessagePart{{Type: openai.ChatMessagePartTypeText, Text: m.Content}}
	}
	a.MultiContent = append(append([]openai.ChatMessagePart{}, parts(a)...), parts(b)...)
	a.Content = ""
	return a
}

// messageTokens counts a request message: its text, or each of its parts
// (an image by ImageTokens of its size), plus the per-message overhead.
// attached is the share of it that is attachments (document blocks and
// images).
func messageTokens(counter tokens.Counter, m llm.Message) (total, attached int) {
	if len(m.MultiContent) == 0 {
		return counter.Count(m.Content) + tokens.MessageOverhead, 0
	}
	total = tokens.MessageOverhead
	for _, p := range m.MultiContent {
		switch {
		case p.Type == openai.ChatMessagePartTypeImageURL && p.ImageURL != nil:
			w, h := refSize(p.ImageURL.URL)
			c := ImageTokens(w, h)
			total += c
			attached += c
		case strings.HasPrefix(p.Text, attach.BlockPrefix):
			c := counter.Count(p.Text)
			total += c
			attached += c
		default:
			total += counter.Count(p.Text)
		}
	}
	return total, attached
}

// refSize reads the pixel size of an image reference URL (0×0 when it is
// not one).
func refSize(url string) (int, int) {
	var w, h int
	if i := strings.LastIndexByte(url, ';'); strings.HasPrefix(url, imageRefPrefix) && i > 0 {
		_, _ = fmt.Sscanf(url[i+1:], "%dx%d", &w, &h)
	}
	return w, h
}

// resolveImages returns msgs with every image reference replaced by a data
// URL of the stored bytes (read by read, store.DB.ReadAttachment); an
// image whose file is missing (apperr.AttachMissing) becomes a text part,
// MissingImageText. The messages given are not changed.
func resolveImages(ctx context.Context, msgs []llm.Message, read func(sha string) ([]byte, error)) ([]llm.Message, error) {
	out := msgs
	copied := false
	for i, m := range msgs {
		for j, p := range m.MultiContent {
			if p.ImageURL == nil || !strings.HasPrefix(p.ImageURL.URL, imageRefPrefix) {
				continue
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ref := strings.Split(strings.TrimPrefix(p.ImageURL.URL, imageRefPrefix), ";")
			if len(ref) != 3 {
				return nil, fmt.Errorf("bad image reference %q", p.ImageURL.URL)
			}
			b, err := read(ref[0])
			missing := apperr.CodeOf(err) == apperr.AttachMissing
			if err != nil && !missing {
				return nil, err
			}
			if !copied {
				out = append([]llm.Message(nil), msgs...)
				copied = true
			}
			if len(out[i].MultiContent) > 0 && &out[i].MultiContent[0] == &msgs[i].MultiContent[0] {
				out[i].MultiContent = append([]openai.ChatMessagePart(nil), m.MultiContent...)
			}
			if missing {
				// The file is gone from the data folder (a backup restored
				// without it): the model is told, the chat goes on.
				out[i].MultiContent[j] = openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: MissingImageText}
				continue
			}
			out[i].MultiContent[j].ImageURL = &openai.ChatMessageImageURL{
				URL: "data:" + ref[1] + ";base64," + base64.StdEncoding.EncodeToString(b)}
		}
	}
	return out, nil
}
