package core

import (
	"context"
	"sort"
	"sync"

	"playchat/backend/llm"
	"playchat/backend/store"
)

// ModelList is every model the user can pick: what the window's model
// picker and the OpenAI-compatible API's /v1/models offer.
type ModelList struct {
	// DefaultModel is DEFAULT_MODEL ("" when none is chosen).
	DefaultModel string
	// Presets are the picker's entries, in the order they were added.
	Presets []store.ModelPreset
	// Discovered are the "provider/model" strings the providers' /models
	// endpoints listed (chat models only), sorted.
	Discovered []string
}

// Models returns DEFAULT_MODEL, the presets and the models that configured
// providers list: OpenAI (with a key or a base URL), Anthropic and
// OpenRouter (with a key), and Ollama and LM Studio always (a first run
// with one of them running offers its models at once). A provider that
// fails or does not answer before ctx ends is skipped; only reading the
// presets can fail.
func (c *Core) Models(ctx context.Context) (ModelList, error) {
	cfg := c.Config()
	presets, err := c.DB.ListPresets(ctx)
	if err != nil {
		return ModelList{}, err
	}
	out := ModelList{DefaultModel: cfg.DefaultModel, Presets: presets}
	var providers []string
	if cfg.OpenAIKey != "" || cfg.OpenAIBaseURL != "" {
		providers = append(providers, llm.ProviderOpenAI)
	}
	if cfg.AnthropicKey != "" {
		providers = append(providers, llm.ProviderAnthropic)
	}
	if cfg.OpenRouterKey != "" {
		providers = append(providers, llm.ProviderOpenRouter)
	}
	providers = append(providers, llm.ProviderOllama, llm.ProviderLMStudio)

	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, p := range providers {
		wg.Add(1)
		c.Guard.Go("models.list", func() {
			defer wg.Done()
			ms, err := c.LLM.ListModels(ctx, p)
			if err != nil {
				return
			}
			mu.Lock()
			out.Discovered = append(out.Discovered, ms...)
			mu.Unlock()
		})
	}
	wg.Wait()
	sort.Strings(out.Discovered)
	return out, nil
}
