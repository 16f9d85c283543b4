package config

import (
	"errors"
	"testing"

	"playchat/backend/apperr"
)

func TestRefusedValuesCarryACodeAndACodedReason(t *testing.T) {
	tests := []struct {
		key, value string
		code       apperr.Code
		reason     apperr.Code
	}{
		{"MAX_OUTPUT_TOKENS", "x", apperr.ConfigInvalidValue, apperr.ConfigReasonIntMin},
		{"DEBUG", "maybe", apperr.ConfigInvalidValue, apperr.ConfigReasonBool},
		{"OPENAI_BASE_URL", "ftp://x", apperr.ConfigInvalidValue, apperr.ConfigReasonURL},
		{"DEFAULT_MODEL", "a b", apperr.ConfigInvalidValue, apperr.ConfigReasonModel},
		{"LOG_LEVEL", "loud", apperr.ConfigInvalidValue, apperr.ConfigReasonOneOf},
		{"OPENAI_API_KEY", "sk bad", apperr.ConfigInvalidSecret, apperr.ConfigReasonNoSpaces},
	}
	for _, tt := range tests {
		err := ValidateValue(tt.key, tt.value)
		in := apperr.InfoOf(err)
		reason, _ := in.Params["reason"].(*apperr.Info)
		if in.Code != tt.code || in.Params["key"] != tt.key || reason == nil || reason.Code != tt.reason {
			t.Errorf("%s=%q: %+v (reason %+v)", tt.key, tt.value, in, reason)
			continue
		}
		if in.Message != err.Error() {
			t.Errorf("%s: message %q differs from the error's text %q", tt.key, in.Message, err.Error())
		}
		if _, shown := in.Params["value"]; shown == (tt.code == apperr.ConfigInvalidSecret) {
			t.Errorf("%s: value shown = %v", tt.key, shown)
		}
	}
	err := ValidateValue("NOPE", "1")
	if apperr.CodeOf(err) != apperr.ConfigUnknownKey || !errors.Is(err, ErrUnknownKey) || err.Error() != `config: unknown configuration key: "NOPE"` {
		t.Errorf("unknown key: %v", err)
	}
}

func TestAValueFromALayerNamesItsSource(t *testing.T) {
	_, err := Resolve(Layers{DotEnv: map[string]string{"MAX_OUTPUT_TOKENS": "0"}}, t.TempDir())
	in := apperr.InfoOf(err)
	if in.Code != apperr.ConfigInvalidValueFrom || in.Params["sourceId"] != SourceDotEnv || in.Params["source"] != ".env" ||
		in.Params["value"] != "0" {
		t.Errorf("resolve error as %+v", in)
	}
}
