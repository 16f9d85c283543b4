package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func TestResolveModelSplitsProviderAndModel(t *testing.T) {
	keys := Providers{OpenAIKey: "sk-o", AnthropicKey: "sk-ant-a", OpenRouterKey: "sk-or-r"}
	tests := []struct {
		name  string
		model string
		p     Providers
		want  Endpoint
	}{
		{"openai default base", "openai/gpt-4o-mini", keys,
			Endpoint{ProviderOpenAI, "gpt-4o-mini", DefaultOpenAIBaseURL, "sk-o"}},
		{"openai custom base without key (local server)", "openai/qwen", Providers{OpenAIBaseURL: "http://127.0.0.1:8080/v1/"},
			Endpoint{ProviderOpenAI, "qwen", "http://127.0.0.1:8080/v1", ""}},
		{"anthropic", "anthropic/claude-sonnet-4-5", keys,
			Endpoint{ProviderAnthropic, "claude-sonnet-4-5", DefaultAnthropicBaseURL, "sk-ant-a"}},
		{"anthropic custom base", "anthropic/claude", Providers{AnthropicKey: "k", AnthropicBaseURL: "https://proxy/v1"},
			Endpoint{ProviderAnthropic, "claude", "https://proxy/v1", "k"}},
		{"ollama default adds /v1", "ollama/llama3.2:3b", Providers{},
			Endpoint{ProviderOllama, "llama3.2:3b", "http://localhost:11434/v1", ""}},
		{"ollama custom base", "ollama/qwen3", Providers{OllamaBase: "http://gpu:11434/"},
			Endpoint{ProviderOllama, "qwen3", "http://gpu:11434/v1", ""}},
		{"ollama base already ending in /v1", "ollama/qwen3", Providers{OllamaBase: "http://gpu:11434/v1"},
			Endpoint{ProviderOllama, "qwen3", "http://gpu:11434/v1", ""}},
		{"lm_studio default", "lm_studio/qwen2.5-7b-instruct", Providers{},
			Endpoint{ProviderLMStudio, "qwen2.5-7b-instruct", DefaultLMStudioBaseURL, ""}},
		{"openrouter model containing a slash", "openrouter/meta-llama/llama-3-8b", keys,
			Endpoint{ProviderOpenRouter, "meta-llama/llama-3-8b", DefaultOpenRouterBaseURL, "sk-or-r"}},
		{"surrounding spaces and upper-case prefix", "  OpenAI/gpt-4o ", keys,
			Endpoint{ProviderOpenAI, "gpt-4o", DefaultOpenAIBaseURL, "sk-o"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveModel(tt.model, tt.p)
			if err != nil {
				t.Fatalf("ResolveModel(%q): %v", tt.model, err)
			}
			if got != tt.want {
				t.Errorf("ResolveModel(%q) = %#v, want %#v", tt.model, got, tt.want)
			}
		})
	}
}

func TestResolveModelErrors(t *testing.T) {
	tests := []struct {
		name     string
		model    string
		p        Providers
		want     error
		mentions string
	}{
		{"empty", "", Providers{}, ErrNoModel, ""},
		{"blank", "   ", Providers{}, ErrNoModel, ""},
		{"provider without model", "ollama/", Providers{}, ErrNoModel, "ollama/"},
		{"no prefix", "gpt-4o", Providers{OpenAIKey: "k"}, ErrUnknownProvider, `"gpt-4o"`},
		{"unknown prefix", "mistral/large", Providers{}, ErrUnknownProvider, `"mistral/large"`},
		{"openai default base without key", "openai/gpt-4o", Providers{}, ErrMissingKey, "OPENAI_API_KEY"},
		{"openai base set to the default without key", "openai/gpt-4o", Providers{OpenAIBaseURL: DefaultOpenAIBaseURL + "/"}, ErrMissingKey, "OPENAI_API_KEY"},
		{"anthropic without key", "anthropic/claude", Providers{}, ErrMissingKey, "ANTHROPIC_API_KEY"},
		{"openrouter without key", "openrouter/x/y", Providers{}, ErrMissingKey, "OPENROUTER_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ResolveModel(tt.model, tt.p)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ResolveModel(%q) error = %v, want %v", tt.model, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.mentions) {
				t.Errorf("error %q does not mention %q", err, tt.mentions)
			}
		})
	}
}

func TestEndpointPrintsWithoutKey(t *testing.T) {
	ep := Endpoint{Provider: "openai", Model: "m", BaseURL: "http://x/v1", APIKey: "sk-test-SECRET"}
	var sb strings.Builder
	slog.New(slog.NewTextHandler(&sb, nil)).Info("call", "ep", ep)
	for _, s := range []string{fmt.Sprint(ep), fmt.Sprintf("%v %+v %s", ep, ep, ep), sb.String()} {
		if strings.Contains(s, "SECRET") {
			t.Errorf("endpoint printed its key: %s", s)
		}
	}
}

func TestBuildChatRequestMaxTokens(t *testing.T) {
	tests := []struct {
		name                 string
		ep                   Endpoint
		wantMax, wantMaxComp int
	}{
		{"openai default base uses max_completion_tokens", Endpoint{Provider: ProviderOpenAI, Model: "gpt-4o", BaseURL: DefaultOpenAIBaseURL}, 0, 100},
		{"reasoning model on a custom base", Endpoint{Provider: ProviderOpenAI, Model: "gpt-5-mini", BaseURL: "http://x/v1"}, 0, 100},
		{"local openai-compatible server", Endpoint{Provider: ProviderOpenAI, Model: "qwen", BaseURL: "http://x/v1"}, 100, 0},
		{"ollama", Endpoint{Provider: ProviderOllama, Model: "qwen"}, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cr := buildChatRequest(tt.ep, Request{MaxTokens: 100})
			if cr.MaxTokens != tt.wantMax || cr.MaxCompletionTokens != tt.wantMaxComp {
				t.Errorf("max_tokens=%d max_completion_tokens=%d, want %d %d", cr.MaxTokens, cr.MaxCompletionTokens, tt.wantMax, tt.wantMaxComp)
			}
		})
	}
}
