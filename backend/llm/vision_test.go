package llm

import "testing"

func TestTheVisionTableKnowsCommonModels(t *testing.T) {
	for model, want := range map[string]string{
		"openai/gpt-4o-mini":                ImagesYes,
		"openai/gpt-3.5-turbo":              ImagesNo,
		"openai/o3-mini":                    ImagesNo,
		"openai/o3":                         ImagesYes,
		"anthropic/claude-sonnet-4-5":       ImagesYes,
		"ollama/llava:13b":                  ImagesYes,
		"ollama/llama3.2-vision:11b":        ImagesYes,
		"ollama/llama3.1:8b":                ImagesNo,
		"ollama/qwen2.5vl:7b":               ImagesYes,
		"ollama/qwen2.5:7b":                 ImagesNo,
		"openrouter/openai/gpt-4.1":         ImagesYes,
		"openrouter/deepseek/deepseek-chat": ImagesNo,
		"lm_studio/some-local-model":        ImagesUnknown,
		"openai/fake-model":                 ImagesUnknown,
	} {
		if got := TakesImages(model); got != want {
			t.Errorf("%s: %s, want %s", model, got, want)
		}
	}
}
