// Package tokens counts tokens for the context budget (DESIGN.md §5): with
// the model's real tokenizer where one is known (OpenAI's BPE encodings,
// embedded in the binary), with a documented estimate otherwise, and knows
// each model's context window.
package tokens

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Counter counts tokens of a text. Implementations are safe for concurrent
// use.
type Counter interface {
	// Count returns the number of tokens text encodes to (0 for ""),
	// without any per-message framing (see MessageOverhead).
	Count(text string) int
	// Name names the tokenizer: "o200k_base", "cl100k_base" or "estimate".
	Name() string
}

// MessageOverhead is the per-message framing cost in tokens (role and
// separators), to add once per chat message on top of Count of its content:
// 4, per OpenAI's cookbook "How to count tokens with tiktoken".
const MessageOverhead = 4

// Estimate is the fallback Counter (Name "estimate") for models whose
// tokenizer is not embedded (Claude, Llama, Qwen, Gemma, Mistral, …).
//
// It counts each maximal run of ASCII bytes as ceil(bytes/4) tokens and every
// non-ASCII rune (kana, kanji, hangul, accented letters, emoji; each invalid
// UTF-8 byte too) as 1 token. Why: English and code average about 4
// characters per token in BPE tokenizers, while CJK text averages about one
// token per character in the Llama 3, Claude and Qwen tokenizers (often a
// little less, as common words merge). Rounding each ASCII run up and
// charging a full token per non-ASCII character make it over-estimate
// slightly on purpose: the budget should overflow the window never, and
// waste a little room rather than that.
var Estimate Counter = estimate{}

type estimate struct{}

func (estimate) Name() string { return "estimate" }

func (estimate) Count(text string) int {
	n, run := 0, 0
	for i := 0; i < len(text); {
		if c := text[i]; c < utf8.RuneSelf {
			run++
			i++
			continue
		}
		n += (run + 3) / 4
		run = 0
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
		n++
	}
	return n + (run+3)/4
}

// bpe is a Counter over a tiktoken encoding, loaded on first use.
type bpe struct {
	enc   tokenizer.Encoding
	once  sync.Once
	codec tokenizer.Codec // nil if loading failed: then Count estimates
}

func (b *bpe) Name() string { return string(b.enc) }

func (b *bpe) Count(text string) int {
	if text == "" {
		return 0
	}
	b.once.Do(func() {
		if c, err := tokenizer.Get(b.enc); err == nil {
			b.codec = c
		}
	})
	if b.codec == nil {
		return Estimate.Count(text)
	}
	n, err := b.codec.Count(text)
	if err != nil {
		return Estimate.Count(text)
	}
	return n
}

// The two encodings ForModel hands out, each loaded once, on first Count
// (building the vocabulary takes a few hundred milliseconds).
var (
	o200k  = &bpe{enc: tokenizer.O200kBase}
	cl100k = &bpe{enc: tokenizer.Cl100kBase}
)

// ForModel returns the Counter for a "provider/model" string (a bare model
// name works too). The provider prefix, and for openrouter/… the vendor
// prefix, are ignored: only the name after the last "/" is matched, case
// insensitively.
//
//   - gpt-4o*, chatgpt-4o*, gpt-4.1*, gpt-5*, gpt-oss*, o1*, o3*, o4* → o200k_base
//   - gpt-4*, gpt-3.5*, gpt-35*, text-embedding-3*, text-embedding-ada-002 → cl100k_base
//   - anything else → Estimate
//
// The tokenizer tables are embedded in the binary: no network is used.
func ForModel(model string) Counter {
	name := baseName(model)
	for _, p := range []string{"gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-5", "gpt-oss"} {
		if strings.HasPrefix(name, p) {
			return o200k
		}
	}
	for _, p := range []string{"o1", "o3", "o4"} {
		if name == p || strings.HasPrefix(name, p+"-") {
			return o200k
		}
	}
	for _, p := range []string{"gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002"} {
		if strings.HasPrefix(name, p) {
			return cl100k
		}
	}
	return Estimate
}

// baseName returns the lower-cased part of model after its last "/".
func baseName(model string) string {
	model = strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(model, '/'); i >= 0 {
		model = model[i+1:]
	}
	return model
}
