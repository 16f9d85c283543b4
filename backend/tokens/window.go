package tokens

import "strings"

// DefaultContextWindow is the window, in tokens, that ContextWindow assumes
// for a model missing from its table: 8192, small enough for any model still
// in use, so an unknown model gets a short context rather than a rejected
// request.
const DefaultContextWindow = 8192

// windows maps a model-name prefix (lower case, after the provider and
// vendor prefixes) to the model's context window in tokens (input and output
// together), from the vendors' model pages and Ollama's defaults for the
// base model. The longest matching prefix wins.
var windows = []struct {
	prefix string
	tokens int
}{
	// OpenAI
	{"gpt-5", 400000},
	{"gpt-4.1", 1047576},
	{"gpt-4o", 128000},
	{"gpt-4o-mini", 128000},
	{"chatgpt-4o", 128000},
	{"gpt-4-turbo", 128000},
	{"gpt-4-1106", 128000},
	{"gpt-4-0125", 128000},
	{"gpt-4-32k", 32768},
	{"gpt-4", 8192},
	{"gpt-3.5-turbo", 16385},
	{"gpt-35-turbo", 16385},
	{"gpt-oss", 131072},
	{"o1", 200000},
	{"o1-mini", 128000},
	{"o1-preview", 128000},
	{"o3", 200000},
	{"o4", 200000},
	{"text-embedding-3", 8191},
	{"text-embedding-ada-002", 8191},

	// Anthropic, Google
	{"claude-", 200000},
	{"gemini-", 1048576},

	// Meta Llama (Ollama "llama3.1:8b", OpenRouter "llama-3.1-8b-instruct")
	{"llama3", 8192},
	{"llama-3", 8192},
	{"llama3.1", 131072},
	{"llama3.2", 131072},
	{"llama3.3", 131072},
	{"llama-3.1", 131072},
	{"llama-3.2", 131072},
	{"llama-3.3", 131072},

	// Others
	{"qwen2.5", 32768},
	{"qwen-2.5", 32768},
	{"qwen3", 40960},
	{"gemma2", 8192},
	{"gemma-2", 8192},
	{"gemma3", 131072},
	{"gemma-3", 131072},
	{"gemma3:1b", 32768},
	{"mistral", 32768},
	{"phi3", 16384},
	{"phi-3", 16384},
	{"phi4", 16384},
	{"phi-4", 16384},
	{"deepseek", 65536},
}

// ContextWindow returns the context window, in tokens, of a "provider/model"
// string (a bare model name works too). override > 0 (CONTEXT_WINDOW_TOKENS)
// wins. Otherwise the name after the last "/" (so after the provider prefix
// and, for openrouter/…, the vendor prefix), lower-cased and without a
// leading "meta-", is matched against a built-in table by longest prefix,
// e.g. gpt-4o* 128000, gpt-4.1* 1047576, gpt-5* 400000, o1/o3/o4* 200000,
// gpt-4 8192, gpt-3.5-turbo 16385, claude-* 200000, llama3* 8192,
// llama3.1/3.2/3.3* 131072, qwen2.5* 32768, qwen3* 40960, gemma2* 8192,
// gemma3* 131072, mistral* 32768, phi3*/phi4* 16384, deepseek* 65536.
// A model missing from the table gets DefaultContextWindow (8192).
func ContextWindow(model string, override int) int {
	if override > 0 {
		return override
	}
	name := strings.TrimPrefix(baseName(model), "meta-")
	best, n := -1, DefaultContextWindow
	for _, w := range windows {
		if len(w.prefix) > best && strings.HasPrefix(name, w.prefix) {
			best, n = len(w.prefix), w.tokens
		}
	}
	return n
}

// InputBudget shares a context window (tokens) between the request and the
// reply: output is the reply's reservation (MAX_OUTPUT_TOKENS), used as is
// when 0 < output ≤ window/2 and otherwise replaced by min(max(output, 256),
// window/4); input is what the request may use, window − output − a 5 %
// margin for the counting error of estimated tokenizers, at least 256. The
// chat context builder and the memory summariser both size their requests
// with it.
func InputBudget(window, output int) (input, reply int) {
	if output <= 0 || output > window/2 {
		output = min(max(output, 256), window/4)
	}
	return max(window-output-window/20, 256), output
}
