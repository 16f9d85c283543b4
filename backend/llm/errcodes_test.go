package llm

import (
	"errors"
	"testing"

	"playchat/backend/apperr"
)

func TestResolveModelErrorsCarryCodesAndParams(t *testing.T) {
	tests := []struct {
		model  string
		p      Providers
		code   apperr.Code
		params map[string]any
		text   string
	}{
		{"", Providers{}, apperr.LLMNoModel, nil, "no model selected"},
		{"ollama/", Providers{}, apperr.LLMNoModelName, map[string]any{"model": "ollama/"},
			`no model selected: "ollama/" names no model after the provider`},
		{"mistral/large", Providers{}, apperr.LLMUnknownProvider, map[string]any{"model": "mistral/large"},
			`unknown model provider: "mistral/large" (want provider/model with provider one of openai, anthropic, ollama, lm_studio, openrouter)`},
		{"anthropic/claude", Providers{}, apperr.LLMMissingKeyFor, map[string]any{"key": "ANTHROPIC_API_KEY", "model": "anthropic/claude"},
			`missing API key: ANTHROPIC_API_KEY is not set (needed for "anthropic/claude")`},
	}
	for _, tt := range tests {
		_, err := ResolveModel(tt.model, tt.p)
		in := apperr.InfoOf(err)
		if in.Code != tt.code {
			t.Errorf("ResolveModel(%q) code %q, want %q (%v)", tt.model, in.Code, tt.code, err)
		}
		for k, v := range tt.params {
			if in.Params[k] != v {
				t.Errorf("ResolveModel(%q) param %s = %v, want %v", tt.model, k, in.Params[k], v)
			}
		}
		if tt.text != "" && in.Message != tt.text {
			t.Errorf("ResolveModel(%q) text %q, want %q", tt.model, in.Message, tt.text)
		}
	}
	_, err := resolveProvider("nope", Providers{})
	if apperr.CodeOf(err) != apperr.LLMUnknownProviderName || !errors.Is(err, ErrUnknownProvider) || err.Error() != `unknown model provider: "nope"` {
		t.Errorf("resolveProvider(nope) = %v (%s)", err, apperr.CodeOf(err))
	}
}

func TestAPIErrorCodeSaysWhetherThereIsAStatus(t *testing.T) {
	in := apperr.InfoOf(&APIError{StatusCode: 429, Message: "slow down"})
	if in.Code != apperr.LLMProviderStatus || in.Params["status"] != 429 || in.Params["detail"] != "slow down" ||
		in.Message != "provider returned 429: slow down" {
		t.Errorf("status error as %+v", in)
	}
	in = apperr.InfoOf(&APIError{Message: "quota"})
	if in.Code != apperr.LLMProviderError || in.Params["detail"] != "quota" || in.Message != "provider error: quota" {
		t.Errorf("error without status as %+v", in)
	}
}

func TestInterruptedKeepsTheSentinelTheCauseAndTheEnglishText(t *testing.T) {
	cause := errors.New("unexpected EOF")
	err := interrupted(cause)
	if !errors.Is(err, ErrStreamInterrupted) || !errors.Is(err, cause) || apperr.CodeOf(err) != apperr.LLMInterrupted {
		t.Errorf("interrupted lost something: %v", err)
	}
	if got, want := err.Error(), "stream interrupted before the reply finished: unexpected EOF"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	nf := apperr.InfoOf(interrupted(apperr.New(apperr.LLMNoFinish, nil)))
	if d, ok := nf.Params["detail"].(*apperr.Info); !ok || d.Code != apperr.LLMNoFinish {
		t.Errorf("no-finish detail as %#v", nf.Params["detail"])
	}
}
