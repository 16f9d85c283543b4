package llm

import "strings"

// Whether a model takes images (TakesImages' answers).
const (
	ImagesYes     = "yes"
	ImagesNo      = "no"
	ImagesUnknown = "unknown"
)

// The vision table: which models accept image content parts, by the
// model's name as its provider knows it (after "provider/" and a vendor
// prefix such as OpenRouter's "openai/"), lower case, longest matching
// prefix first. It only has to be right about the models people pick
// often; a model it does not know is ImagesUnknown, and its message is
// sent (the provider's refusal is then shown as usual). Sources: the
// vendors' model pages and Ollama's library ("vision" tag).
var visionTable = []struct {
	prefix string
	takes  bool
}{
	// OpenAI: the GPT-4o/4.1/5 families and the o-series reasoning models
	// take images; GPT-3.5, GPT-4 (original), o1-mini, o3-mini and the
	// open-weight gpt-oss do not.
	{"gpt-4o", true}, {"chatgpt-4o", true}, {"gpt-4.1", true}, {"gpt-4-turbo", true}, {"gpt-4-vision", true},
	{"gpt-5", true}, {"o1-mini", false}, {"o1", true}, {"o3-mini", false}, {"o3", true}, {"o4-mini", true},
	{"gpt-4", false}, {"gpt-3.5", false}, {"gpt-35", false}, {"gpt-oss", false},
	// Anthropic: every Claude 3 and later model.
	{"claude-", true},
	// Google.
	{"gemini-", true}, {"gemma3", true}, {"gemma-3", true}, {"gemma2", false}, {"gemma-2", false},
	// Open models served by Ollama, LM Studio, OpenRouter.
	{"llava", true}, {"bakllava", true}, {"llama3.2-vision", true}, {"llama-3.2-11b-vision", true},
	{"llama-3.2-90b-vision", true}, {"llama4", true}, {"llama-4", true}, {"minicpm-v", true}, {"moondream", true},
	{"qwen2.5vl", true}, {"qwen2.5-vl", true}, {"qwen-vl", true}, {"qwen2-vl", true}, {"qwen3-vl", true},
	{"pixtral", true}, {"mistral-small3.1", true}, {"mistral-small3.2", true}, {"granite3.2-vision", true},
	{"llama3", false}, {"llama-3", false}, {"llama2", false}, {"qwen2.5", false}, {"qwen3", false},
	{"qwen2", false}, {"deepseek", false}, {"phi3", false}, {"phi4", false}, {"mistral", false},
	{"mixtral", false}, {"codellama", false},
}

// TakesImages says whether model ("provider/model" or a bare model id)
// accepts images: ImagesYes, ImagesNo (the window warns before sending a
// message with images to it) or ImagesUnknown.
func TakesImages(model string) string {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	best, takes := -1, false
	for _, e := range visionTable {
		if strings.HasPrefix(name, e.prefix) && len(e.prefix) > best {
			best, takes = len(e.prefix), e.takes
		}
	}
	switch {
	case best < 0:
		return ImagesUnknown
	case takes:
		return ImagesYes
	}
	return ImagesNo
}

// TakesImagesWith is TakesImages with the user's per-model setting
// (config.Config.ModelImages, MODEL_IMAGES) consulted first: overrides maps
// a "provider/model" id, as the session names its model (spaces trimmed), to
// ImagesYes or ImagesNo; a model it does not name, or names with another
// value, is decided by the table. overrides may be nil.
func TakesImagesWith(model string, overrides map[string]string) string {
	switch overrides[strings.TrimSpace(model)] {
	case ImagesYes:
		return ImagesYes
	case ImagesNo:
		return ImagesNo
	}
	return TakesImages(model)
}
