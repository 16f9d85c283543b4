package tokens

import (
	"strings"
	"sync"
	"testing"
)

func TestEstimateCountsASCIIByFourAndEachNonASCIIRuneAsOne(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"hello world", 3},              // 11 bytes → ceil(11/4)
		{"こんにちは", 5},                    // 5 kana
		{"日本語のテキスト", 8},                 // kanji and kana alike
		{"GPTは便利", 1 + 3},               // "GPT" + 3 runes
		{"abcdeこんにちはabcde", 2 + 5 + 2},  // each ASCII run rounds up on its own
		{"café", 1 + 1},                 // "caf" + "é"
		{"👍", 1},                        // one rune, however many bytes
		{"\xff\xfe", 2},                 // invalid UTF-8: one per byte
		{strings.Repeat("x", 400), 100}, // long ASCII
		{strings.Repeat("漢", 400), 400}, // long CJK
		{"line one\nline two\n", 5},     // newlines are ASCII
	}
	for _, tt := range tests {
		if got := Estimate.Count(tt.text); got != tt.want {
			t.Errorf("Estimate.Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
	if Estimate.Name() != "estimate" {
		t.Errorf("Estimate.Name() = %q", Estimate.Name())
	}
}

func TestEstimateIsNotBelowTheRealTokenizerForJapanese(t *testing.T) {
	// o200k is among the most efficient tokenizers for Japanese; the
	// estimate must not promise more room than it gives.
	for _, text := range []string{
		"吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。",
		"東京都の明日の天気は晴れのち曇り、最高気温は二十五度の予想です。",
		"The quick brown fox jumps over the lazy dog.",
	} {
		est, real := Estimate.Count(text), ForModel("openai/gpt-4o").Count(text)
		if est < real {
			t.Errorf("estimate %d < o200k %d for %q", est, real, text)
		}
	}
}

func TestTiktokenCountsKnownStrings(t *testing.T) {
	tests := []struct {
		model string
		name  string
		text  string
		want  int
	}{
		{"openai/gpt-4o", "o200k_base", "hello world", 2},
		{"openai/gpt-4o", "o200k_base", "Hello, world!", 4},
		{"openai/gpt-4o", "o200k_base", "", 0},
		{"openai/gpt-4", "cl100k_base", "hello world", 2},
		{"openai/gpt-4", "cl100k_base", "Hello, world!", 4},
	}
	for _, tt := range tests {
		c := ForModel(tt.model)
		if c.Name() != tt.name {
			t.Fatalf("ForModel(%q).Name() = %q, want %q", tt.model, c.Name(), tt.name)
		}
		if got := c.Count(tt.text); got != tt.want {
			t.Errorf("%s.Count(%q) = %d, want %d", tt.name, tt.text, got, tt.want)
		}
	}
}

func TestForModelPicksTheTokenizer(t *testing.T) {
	tests := map[string]string{
		"openai/gpt-4o":                   "o200k_base",
		"openai/gpt-4o-mini":              "o200k_base",
		"openai/chatgpt-4o-latest":        "o200k_base",
		"openai/gpt-4.1-nano":             "o200k_base",
		"openai/GPT-5":                    "o200k_base",
		"openai/gpt-5-mini":               "o200k_base",
		"openai/o1":                       "o200k_base",
		"openai/o3-mini":                  "o200k_base",
		"openai/o4-mini":                  "o200k_base",
		"openrouter/openai/gpt-4o":        "o200k_base",
		"ollama/gpt-oss:20b":              "o200k_base",
		"gpt-4o":                          "o200k_base",
		"openai/gpt-4":                    "cl100k_base",
		"openai/gpt-4-turbo":              "cl100k_base",
		"openai/gpt-3.5-turbo":            "cl100k_base",
		"azure/gpt-35-turbo":              "cl100k_base",
		"openai/text-embedding-3-small":   "cl100k_base",
		"openai/text-embedding-ada-002":   "cl100k_base",
		"anthropic/claude-sonnet-4-5":     "estimate",
		"openrouter/anthropic/claude-3.5": "estimate",
		"ollama/llama3.1:8b":              "estimate",
		"ollama/qwen3:8b":                 "estimate",
		"lm_studio/gemma-3-12b-it":        "estimate",
		"ollama/o1x":                      "estimate",
		"openai/omni-moderation-latest":   "estimate",
		"":                                "estimate",
	}
	for model, want := range tests {
		if got := ForModel(model).Name(); got != want {
			t.Errorf("ForModel(%q) = %s, want %s", model, got, want)
		}
	}
}

func TestForModelReturnsSharedCounters(t *testing.T) {
	if ForModel("openai/gpt-4o") != ForModel("openai/gpt-5") {
		t.Error("o200k counters differ: the encoding would load twice")
	}
}

func TestCountIsSafeForConcurrentUse(t *testing.T) {
	text := strings.Repeat("concurrent 同時 counting テスト. ", 20)
	want := ForModel("openai/gpt-4o").Count(text)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				for _, m := range []string{"openai/gpt-4o", "openai/gpt-4", "ollama/qwen3"} {
					ForModel(m).Count(text)
				}
				if got := ForModel("openai/gpt-4o").Count(text); got != want {
					t.Errorf("concurrent count = %d, want %d", got, want)
				}
			}
		})
	}
	wg.Wait()
}

func TestContextWindow(t *testing.T) {
	tests := []struct {
		model    string
		override int
		want     int
	}{
		{"openai/gpt-4o", 0, 128000},
		{"openai/gpt-4o-mini", 0, 128000},
		{"openai/gpt-4.1", 0, 1047576},
		{"openai/gpt-4.1-mini", 0, 1047576},
		{"openai/gpt-5", 0, 400000},
		{"openai/gpt-5-nano", 0, 400000},
		{"openai/o1", 0, 200000},
		{"openai/o3-mini", 0, 200000},
		{"openai/o4-mini", 0, 200000},
		{"openai/gpt-4", 0, 8192},
		{"openai/gpt-4-turbo", 0, 128000},
		{"openai/gpt-3.5-turbo", 0, 16385},
		{"anthropic/claude-3-5-sonnet-latest", 0, 200000},
		{"openrouter/anthropic/claude-sonnet-4", 0, 200000},
		{"openrouter/meta-llama/llama-3.1-8b-instruct", 0, 131072},
		{"openrouter/meta-llama/llama-3-8b-instruct", 0, 8192},
		{"lm_studio/meta-llama-3.1-8b-instruct", 0, 131072},
		{"ollama/llama3", 0, 8192},
		{"ollama/llama3:8b", 0, 8192},
		{"ollama/llama3.1:8b", 0, 131072},
		{"ollama/llama3.2", 0, 131072},
		{"ollama/llama3.3:70b", 0, 131072},
		{"ollama/qwen2.5:7b", 0, 32768},
		{"ollama/qwen3:8b", 0, 40960},
		{"ollama/gemma2:9b", 0, 8192},
		{"ollama/gemma3:12b", 0, 131072},
		{"ollama/gemma3:1b", 0, 32768},
		{"ollama/mistral", 0, 32768},
		{"ollama/phi3", 0, 16384},
		{"ollama/phi4:14b", 0, 16384},
		{"ollama/deepseek-r1:8b", 0, 65536},
		{"OLLAMA/QWEN3:8B", 0, 40960},
		{"qwen3", 0, 40960},
		{"ollama/some-unknown-model", 0, DefaultContextWindow},
		{"", 0, 8192},
		{"ollama/qwen3:8b", 12345, 12345},
		{"ollama/some-unknown-model", 100000, 100000},
		{"openai/gpt-4o", -1, 128000},
	}
	for _, tt := range tests {
		if got := ContextWindow(tt.model, tt.override); got != tt.want {
			t.Errorf("ContextWindow(%q, %d) = %d, want %d", tt.model, tt.override, got, tt.want)
		}
	}
}

// mixedText returns about n bytes of alternating Japanese and English prose.
func mixedText(n int) string {
	const para = "チャットの履歴を要約して長期記憶に保存します。" +
		"The context builder keeps the whole prompt within the model's token budget. " +
		"ローカルの知識ベースから関連する文書を選び、システムメッセージとして渡します。" +
		"Tool calls stream as deltas and are accumulated before they run.\n"
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(para)
	}
	return b.String()
}

func BenchmarkCount(b *testing.B) {
	text := mixedText(10 << 10)
	for _, model := range []string{"ollama/qwen3", "openai/gpt-4o", "openai/gpt-4"} {
		c := ForModel(model)
		c.Count("warm up") // load the encoding outside the timer
		b.Run(c.Name(), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c.Count(text)
			}
		})
	}
}
