package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

func TestModelImagesIsParsedTrimmedAndWrittenSorted(t *testing.T) {
	m, why := ParseModelImages("  ollama/llava:13b = YES , openai/gpt-4=no,, ")
	if why != nil {
		t.Fatal(why)
	}
	if len(m) != 2 || m["ollama/llava:13b"] != "yes" || m["openai/gpt-4"] != "no" {
		t.Fatalf("parsed %v", m)
	}
	if got := FormatModelImages(m); got != "ollama/llava:13b=yes,openai/gpt-4=no" {
		t.Errorf("formatted %q", got)
	}
	if m, why := ParseModelImages(""); why != nil || m == nil || len(m) != 0 {
		t.Errorf("empty value: %v %v", m, why)
	}
}

func TestBadModelImagesValuesAreRefusedWithTheirReason(t *testing.T) {
	many := make([]string, MaxModelImages+1)
	for i := range many {
		many[i] = fmt.Sprintf("ollama/m%d=yes", i)
	}
	for _, tc := range []struct {
		value string
		code  apperr.Code
	}{
		{"openai/gpt-4o", apperr.ConfigReasonImagesEntry},
		{"gpt-4o=yes", apperr.ConfigReasonImagesEntry},
		{"openai/=yes", apperr.ConfigReasonImagesEntry},
		{"open ai/gpt=yes", apperr.ConfigReasonImagesEntry},
		{"openai/gpt-4o=maybe", apperr.ConfigReasonImagesValue},
		{"openai/gpt-4o=", apperr.ConfigReasonImagesValue},
		{"openai/gpt-4o=yes, openai/gpt-4o =no", apperr.ConfigReasonImagesDuplicate},
		{strings.Join(many, ","), apperr.ConfigReasonImagesCount},
	} {
		err := ValidateValue("MODEL_IMAGES", tc.value)
		var ve *ValueError
		if !errors.As(err, &ve) || ve.Key != "MODEL_IMAGES" || ve.Why == nil || ve.Why.Code != tc.code {
			t.Errorf("%.60q: %v, want reason %s", tc.value, err, tc.code)
		}
	}
	if err := ValidateValue("MODEL_IMAGES", strings.Join(many[:MaxModelImages], ",")); err != nil {
		t.Errorf("%d models: %v", MaxModelImages, err)
	}
}

// A bad MODEL_IMAGES in .env is reported and the table decides (an empty
// map), like any other bad value.
func TestResolveReportsABadModelImagesAndKeepsNoOverrides(t *testing.T) {
	c, err := Resolve(Layers{DotEnv: map[string]string{"MODEL_IMAGES": "openai/gpt-4o=perhaps"}}, t.TempDir())
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Key != "MODEL_IMAGES" || ve.Source != SourceDotEnv {
		t.Fatalf("err %v", err)
	}
	if c.ModelImages == nil || len(c.ModelImages) != 0 {
		t.Errorf("ModelImages %v, want empty", c.ModelImages)
	}
	c, err = Resolve(Layers{GUI: map[string]string{"MODEL_IMAGES": "ollama/llama3=yes"}}, t.TempDir())
	if err != nil || c.ModelImages["ollama/llama3"] != "yes" {
		t.Fatalf("GUI layer: %v %v", c.ModelImages, err)
	}
	if v, src := c.Value("MODEL_IMAGES"); v != "ollama/llama3=yes" || src != SourceGUI {
		t.Errorf("Value = %q from %s", v, src)
	}
}
