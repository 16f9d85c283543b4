package llmtest

import (
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// HashEmbedding is the fake server's default embedding: a deterministic,
// unit-length vector of dimension dim (at least 1) built by feature hashing.
// Each token of text (lower-cased runs of letters and digits; every Han,
// Hiragana or Katakana rune is a token of its own) adds ±1 to one component
// chosen by its FNV-1a hash. Equal texts give equal vectors, texts sharing
// words give similar ones, and a text without tokens gives (1, 0, …, 0).
func HashEmbedding(text string, dim int) []float32 {
	dim = max(dim, 1)
	acc := make([]float64, dim)
	for _, tok := range tokens(text) {
		h := fnv.New64a()
		_, _ = h.Write([]byte(tok))
		sum := h.Sum64()
		sign := 1.0
		if sum>>63 == 1 {
			sign = -1
		}
		acc[int(sum%uint64(dim))] += sign
	}
	var norm float64
	for _, v := range acc {
		norm += v * v
	}
	out := make([]float32, dim)
	if norm == 0 {
		out[0] = 1
		return out
	}
	norm = math.Sqrt(norm)
	for i, v := range acc {
		out[i] = float32(v / norm)
	}
	return out
}

// tokens splits text into the tokens HashEmbedding hashes.
func tokens(text string) []string {
	var out []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}
