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

func TestTheSettingBeatsTheVisionTableBothWays(t *testing.T) {
	set := map[string]string{"ollama/llama3": ImagesYes, "openai/gpt-4o": ImagesNo, "ollama/mystery": ImagesNo}
	for _, tc := range []struct{ model, table, want string }{
		{"ollama/llama3", ImagesNo, ImagesYes},
		{"openai/gpt-4o", ImagesYes, ImagesNo},
		{" openai/gpt-4o ", ImagesYes, ImagesNo},
		{"ollama/mystery", ImagesUnknown, ImagesNo},
		{"openai/gpt-4o-mini", ImagesYes, ImagesYes}, // not named: the table
		{"ollama/llama3.2", ImagesNo, ImagesNo},
	} {
		if got := TakesImages(tc.model); got != tc.table {
			t.Errorf("table %q = %s, want %s", tc.model, got, tc.table)
		}
		if got := TakesImagesWith(tc.model, set); got != tc.want {
			t.Errorf("with the setting %q = %s, want %s", tc.model, got, tc.want)
		}
	}
	if got := TakesImagesWith("openai/gpt-4", nil); got != ImagesNo {
		t.Errorf("nil setting: %s", got)
	}
}
