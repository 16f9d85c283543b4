package app

import (
	"context"
	"log/slog"
	"testing"

	"playchat/backend/config"
	"playchat/backend/core"
)

// The UI language is a setting of the data dir: saved through the settings
// service, reported by Info at start, kept when the app reopens the same data
// dir, and not inherited by a new one.
func TestUILanguageIsKeptWithTheDataDirSettings(t *testing.T) {
	dir := t.TempDir()
	open := func(dir string) *App {
		c, err := core.Open(context.Background(), core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return &App{core: c, platform: &fakePlatform{}}
	}
	a := open(dir)
	info, err := (&SystemService{a}).Info()
	if err != nil || info.UILanguage != "auto" {
		t.Fatalf("fresh data dir: UILanguage = %q, err %v; want auto", info.UILanguage, err)
	}
	v, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{"UI_LANGUAGE": "ja"}})
	if err != nil {
		t.Fatal(err)
	}
	if f := field(v, "UI_LANGUAGE"); f.Value != "ja" || f.Source != config.SourceGUI {
		t.Fatalf("saved field = %+v", f)
	}
	if _, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{"UI_LANGUAGE": "fr"}}); err == nil {
		t.Fatal("UI_LANGUAGE=fr was saved")
	}
	a.core.Close()

	if info, _ := (&SystemService{open(dir)}).Info(); info.UILanguage != "ja" {
		t.Errorf("same data dir reopened: UILanguage = %q, want ja", info.UILanguage)
	}
	if info, _ := (&SystemService{open(t.TempDir())}).Info(); info.UILanguage != "auto" {
		t.Errorf("new data dir: UILanguage = %q, want auto", info.UILanguage)
	}
}

// Every field carries its group and a plain label; the models-and-keys group
// comes first.
func TestSettingsViewCarriesGroupsAndLabels(t *testing.T) {
	a, _ := newTestApp(t)
	v, err := (&SettingsService{a}).Get()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Fields) == 0 || v.Fields[0].Group != config.GroupModels {
		t.Fatalf("first field = %+v, want group %q", v.Fields[0], config.GroupModels)
	}
	for _, f := range v.Fields {
		if f.Label == "" || f.Group == "" {
			t.Errorf("%s: label %q, group %q", f.Key, f.Label, f.Group)
		}
	}
	if f := field(v, "DEFAULT_MODEL"); f.Label != "Default model" {
		t.Errorf("DEFAULT_MODEL label = %q", f.Label)
	}
}
