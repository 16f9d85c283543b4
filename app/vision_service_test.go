package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/core"
)

// The per-model image setting (issue 25): it beats the vision table both
// ways, a bad input changes nothing, and it is kept with the data dir's
// settings when the app opens it again.
func TestTheImageSettingOverridesTheTableAndIsKept(t *testing.T) {
	dir := t.TempDir()
	open := func() *App {
		c, err := core.Open(context.Background(), core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return &App{core: c, platform: &fakePlatform{}}
	}
	a := open()
	s := &AttachmentService{a}
	if got := s.TakesImages("ollama/llama3:8b"); got != "no" {
		t.Fatalf("table: llama3 = %s", got)
	}
	if got := s.TakesImages("openai/gpt-4o"); got != "yes" {
		t.Fatalf("table: gpt-4o = %s", got)
	}
	st, err := s.SetTakesImages(" ollama/llama3:8b ", "YES")
	if err != nil {
		t.Fatal(err)
	}
	if want := (ImageSetting{Model: "ollama/llama3:8b", Override: "yes", Table: "no", Effective: "yes"}); st != want {
		t.Fatalf("set: %+v, want %+v", st, want)
	}
	if _, err := s.SetTakesImages("openai/gpt-4o", "no"); err != nil {
		t.Fatal(err)
	}
	if a, b := s.TakesImages("ollama/llama3:8b"), s.TakesImages("openai/gpt-4o"); a != "yes" || b != "no" {
		t.Fatalf("with the setting: llama3 %s, gpt-4o %s", a, b)
	}
	if v, _ := (&SettingsService{a}).Get(); field(v, "MODEL_IMAGES").Value != "ollama/llama3:8b=yes,openai/gpt-4o=no" {
		t.Errorf("MODEL_IMAGES field %+v", field(v, "MODEL_IMAGES"))
	}

	// Bad input: a coded error, nothing changes.
	before, _ := s.ImageOverrides()
	for _, tc := range []struct{ model, value string }{
		{"openai/gpt-4o-mini", "sometimes"}, {"gpt-4o-mini", "yes"}, {"", "no"}, {"openai/a,b", "yes"}, {"openai/x=y", "yes"},
	} {
		_, err := s.SetTakesImages(tc.model, tc.value)
		var ve *config.ValueError
		if !errors.As(err, &ve) || apperr.CodeOf(err) != apperr.ConfigInvalidValue || ve.Why == nil {
			t.Errorf("%q=%q: %v, want a coded invalid value", tc.model, tc.value, err)
		}
	}
	for i := len(before); i < config.MaxModelImages; i++ {
		if _, err := s.SetTakesImages(fmt.Sprintf("ollama/m%03d", i), "yes"); err != nil {
			t.Fatal(err)
		}
	}
	full, _ := s.ImageOverrides()
	if _, err := s.SetTakesImages("ollama/one-too-many", "yes"); apperr.CodeOf(err) != apperr.ConfigInvalidValue {
		t.Errorf("model %d: %v", config.MaxModelImages+1, err)
	}
	if after, _ := s.ImageOverrides(); !reflect.DeepEqual(after, full) || len(full) != config.MaxModelImages {
		t.Errorf("a refused input changed the settings: %d → %d", len(full), len(after))
	}
	for i := len(before); i < config.MaxModelImages; i++ {
		if _, err := s.SetTakesImages(fmt.Sprintf("ollama/m%03d", i), ""); err != nil {
			t.Fatal(err)
		}
	}
	if after, _ := s.ImageOverrides(); !reflect.DeepEqual(after, before) {
		t.Errorf("overrides %+v, want %+v", after, before)
	}
	a.core.Close()

	// Opened again: the setting is still there; "" gives the model back to the table.
	s = &AttachmentService{open()}
	list, err := s.ImageOverrides()
	want := []ImageSetting{{Model: "ollama/llama3:8b", Override: "yes", Table: "no", Effective: "yes"},
		{Model: "openai/gpt-4o", Override: "no", Table: "yes", Effective: "no"}}
	if err != nil || !reflect.DeepEqual(list, want) {
		t.Fatalf("after reopening: %+v %v", list, err)
	}
	if _, err := s.SetTakesImages("openai/gpt-4o", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetTakesImages("ollama/llama3:8b", ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ImageSetting("openai/gpt-4o"); got != (ImageSetting{Model: "openai/gpt-4o", Table: "yes", Effective: "yes"}) {
		t.Errorf("automatic again: %+v", got)
	}
	if list, _ := s.ImageOverrides(); len(list) != 0 {
		t.Errorf("left: %+v", list)
	}
}
