package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"playchat/backend/apperr"
	"playchat/backend/redact"
)

// Provider prefixes accepted in "provider/model" strings (DESIGN.md §7).
const (
	ProviderOpenAI     = "openai"
	ProviderAnthropic  = "anthropic"
	ProviderOllama     = "ollama"
	ProviderLMStudio   = "lm_studio"
	ProviderOpenRouter = "openrouter"
)

// Default base URLs used when the matching Providers field is empty. Each is
// the root of an OpenAI-compatible API (the path /chat/completions is appended).
const (
	DefaultOpenAIBaseURL     = "https://api.openai.com/v1"
	DefaultAnthropicBaseURL  = "https://api.anthropic.com/v1"
	DefaultOllamaBase        = "http://localhost:11434" // the API lives under <base>/v1
	DefaultLMStudioBaseURL   = "http://localhost:1234/v1"
	DefaultOpenRouterBaseURL = "https://openrouter.ai/api/v1"
)

// KnownProviders lists the provider prefixes in the order a model picker
// should offer them. Read-only.
var KnownProviders = []string{ProviderOpenAI, ProviderAnthropic, ProviderOllama, ProviderLMStudio, ProviderOpenRouter}

// Providers holds provider connection settings. The caller fills it from
// config (llm does not import config); empty fields take the Default*
// constants. Keys are secrets: they are sent as "Authorization: Bearer" and
// never appear in errors or logs.
type Providers struct {
	OpenAIKey, OpenAIBaseURL         string // OPENAI_API_KEY, OPENAI_BASE_URL (default DefaultOpenAIBaseURL)
	AnthropicKey, AnthropicBaseURL   string // ANTHROPIC_API_KEY; base default DefaultAnthropicBaseURL (OpenAI-compatible endpoint)
	OllamaBase                       string // OLLAMA_API_BASE without /v1 (default DefaultOllamaBase); a trailing /v1 is tolerated
	LMStudioBase                     string // LM Studio's OpenAI-compatible base, with /v1 (default DefaultLMStudioBaseURL)
	OpenRouterKey, OpenRouterBaseURL string // OPENROUTER_API_KEY; base default DefaultOpenRouterBaseURL
}

// Endpoint is a resolved provider/model: where to send a request and with
// which key. Its String and LogValue methods hide APIKey, so an Endpoint may
// be logged or printed safely.
type Endpoint struct {
	Provider string // one of the Provider* constants
	Model    string // the model name as the provider knows it (the part after the first '/')
	BaseURL  string // OpenAI-compatible API root without a trailing '/', e.g. "http://localhost:11434/v1"
	APIKey   string // may be empty for local servers
}

// String renders the endpoint without its key, e.g. "ollama/llama3 @ http://localhost:11434/v1".
func (e Endpoint) String() string {
	return e.Provider + "/" + e.Model + " @ " + e.BaseURL
}

// LogValue makes slog print the endpoint without its key.
func (e Endpoint) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("provider", e.Provider),
		slog.String("model", e.Model),
		slog.String("base_url", e.BaseURL),
	)
}

// ResolveModel splits a "provider/model" string on its first '/' and returns
// the endpoint to call. The model part may itself contain '/'
// ("openrouter/meta-llama/llama-3-8b" → model "meta-llama/llama-3-8b").
//
// Errors (all wrapped, test with errors.Is):
//   - ErrNoModel: model is empty or has nothing after the provider prefix;
//   - ErrUnknownProvider: no known provider prefix (the message names the string);
//   - ErrMissingKey: openai with the default base URL and no OpenAIKey, or
//     anthropic / openrouter without a key (the message names the variable);
//   - ErrInvalidBaseURL: the provider's base URL is set but is not an
//     absolute http(s) URL (e.g. "localhost:41813"). It is never replaced by
//     the default, which would send the prompt and key somewhere else.
//
// openai with a custom OpenAIBaseURL and no key is allowed (local servers).
func ResolveModel(model string, p Providers) (Endpoint, error) {
	s := strings.TrimSpace(model)
	if s == "" {
		return Endpoint{}, apperr.Wrap(apperr.LLMNoModel, ErrNoModel, nil)
	}
	unknown := func() error {
		return apperr.Wrap(apperr.LLMUnknownProvider, ErrUnknownProvider,
			map[string]any{"model": s, "providers": strings.Join(KnownProviders, ", ")})
	}
	prefix, name, ok := strings.Cut(s, "/")
	if !ok {
		return Endpoint{}, unknown()
	}
	ep, err := resolveProvider(strings.ToLower(prefix), p)
	if err != nil {
		if errors.Is(err, ErrUnknownProvider) {
			return Endpoint{}, unknown()
		}
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == apperr.LLMMissingKey {
			return Endpoint{}, apperr.Wrap(apperr.LLMMissingKeyFor, ErrMissingKey,
				map[string]any{"key": ae.Params["key"], "model": s})
		}
		if errors.Is(err, ErrInvalidBaseURL) {
			return Endpoint{}, err
		}
		return Endpoint{}, fmt.Errorf("%w (needed for %q)", err, s)
	}
	if strings.TrimSpace(name) == "" {
		return Endpoint{}, apperr.Wrap(apperr.LLMNoModelName, ErrNoModel, map[string]any{"model": s})
	}
	ep.Model = name
	return ep, nil
}

// baseURLKeys names the configuration variable of each provider's base URL,
// for errors and hints (OpenRouter's has none).
var baseURLKeys = map[string]string{
	ProviderOpenAI:    "OPENAI_BASE_URL",
	ProviderAnthropic: "ANTHROPIC_BASE_URL",
	ProviderOllama:    "OLLAMA_API_BASE",
	ProviderLMStudio:  "LM_STUDIO_API_BASE",
}

// checkBase returns ErrInvalidBaseURL (coded apperr.ConfigInvalidValue with
// the variable, value and reason) when base is set but is not an absolute
// http:// or https:// URL with a host.
func checkBase(provider, base string) error {
	b := strings.TrimSpace(base)
	if b == "" {
		return nil
	}
	if u, err := url.Parse(b); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return nil
	}
	key := baseURLKeys[provider]
	if key == "" {
		key = provider + " base URL"
	}
	return apperr.Wrap(apperr.ConfigInvalidValue, ErrInvalidBaseURL, map[string]any{
		"key": key, "value": b, "reason": apperr.New(apperr.ConfigReasonURL, nil)})
}

// resolveProvider returns the endpoint (without Model) of one provider prefix.
// Errors: ErrUnknownProvider, ErrMissingKey, ErrInvalidBaseURL (wrapped).
func resolveProvider(provider string, p Providers) (Endpoint, error) {
	ep := Endpoint{Provider: provider}
	bases := map[string]string{ProviderOpenAI: p.OpenAIBaseURL, ProviderAnthropic: p.AnthropicBaseURL,
		ProviderOllama: p.OllamaBase, ProviderLMStudio: p.LMStudioBase, ProviderOpenRouter: p.OpenRouterBaseURL}
	if err := checkBase(provider, bases[provider]); err != nil {
		return Endpoint{}, err
	}
	switch provider {
	case ProviderOpenAI:
		ep.BaseURL = baseOr(p.OpenAIBaseURL, DefaultOpenAIBaseURL)
		ep.APIKey = strings.TrimSpace(p.OpenAIKey)
		if ep.APIKey == "" && ep.BaseURL == DefaultOpenAIBaseURL {
			return Endpoint{}, missingKey("OPENAI_API_KEY")
		}
	case ProviderAnthropic:
		ep.BaseURL = baseOr(p.AnthropicBaseURL, DefaultAnthropicBaseURL)
		ep.APIKey = strings.TrimSpace(p.AnthropicKey)
		if ep.APIKey == "" {
			return Endpoint{}, missingKey("ANTHROPIC_API_KEY")
		}
	case ProviderOllama:
		base := baseOr(p.OllamaBase, DefaultOllamaBase)
		if !strings.HasSuffix(base, "/v1") {
			base += "/v1"
		}
		ep.BaseURL = base
	case ProviderLMStudio:
		ep.BaseURL = baseOr(p.LMStudioBase, DefaultLMStudioBaseURL)
	case ProviderOpenRouter:
		ep.BaseURL = baseOr(p.OpenRouterBaseURL, DefaultOpenRouterBaseURL)
		ep.APIKey = strings.TrimSpace(p.OpenRouterKey)
		if ep.APIKey == "" {
			return Endpoint{}, missingKey("OPENROUTER_API_KEY")
		}
	default:
		return Endpoint{}, apperr.Wrap(apperr.LLMUnknownProviderName, ErrUnknownProvider, map[string]any{"provider": provider})
	}
	return ep, nil
}

// defaultBases are the base URLs an Endpoint gets when its Providers field
// is empty (Ollama's with the /v1 resolveProvider adds).
var defaultBases = map[string]string{
	ProviderOpenAI:     DefaultOpenAIBaseURL,
	ProviderAnthropic:  DefaultAnthropicBaseURL,
	ProviderOllama:     DefaultOllamaBase + "/v1",
	ProviderLMStudio:   DefaultLMStudioBaseURL,
	ProviderOpenRouter: DefaultOpenRouterBaseURL,
}

// withBaseURLHint adds a hint to a 404 answer from a base URL the user set:
// a wrong path (…/wrong, a missing /v1) answers 404 for every request, and
// the provider's "404 page not found" does not say where to look. A 404 that
// names a model (Ollama's "model … not found") is left as it is.
func withBaseURLHint(err error, ep Endpoint) error {
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode != 404 || ep.BaseURL == defaultBases[ep.Provider] ||
		strings.Contains(strings.ToLower(ae.Message), "model") || strings.Contains(ae.Message, baseURLHintMark) {
		return err
	}
	key := baseURLKeys[ep.Provider]
	if key == "" {
		key = "the base URL"
	}
	if ae.Message == "" {
		ae.Message = "Not Found"
	}
	// A password in the URL is a secret: never in an error (issue 21).
	base := redact.URL(ep.BaseURL)
	ae.wrongBase, ae.wrongBaseKey, ae.detail = base, key, ae.Message
	ae.Message += fmt.Sprintf("; the base URL %s (%s)%s, to which /chat/completions is added (usually ending in /v1)",
		base, key, baseURLHintMark)
	return err
}

// baseURLHintMark is the heart of withBaseURLHint's hint (added only once).
const baseURLHintMark = " looks wrong: it should be the root of an OpenAI-compatible API"

// missingKey is the ErrMissingKey of a provider whose key variable is unset.
func missingKey(variable string) error {
	return apperr.Wrap(apperr.LLMMissingKey, ErrMissingKey, map[string]any{"key": variable})
}

// baseOr trims spaces and trailing slashes from base, or returns def.
func baseOr(base, def string) string {
	b := strings.TrimRight(strings.TrimSpace(base), "/")
	if b == "" {
		return def
	}
	return b
}
