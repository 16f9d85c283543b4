package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/config"
	"playchat/backend/redact"
)

// SettingsService edits the configuration saved in the GUI.
type SettingsService struct{ app *App }

// Get returns every key with its effective value (secrets masked) and
// source.
func (s *SettingsService) Get() (SettingsView, error) {
	c, err := s.app.backend()
	if err != nil {
		return SettingsView{}, err
	}
	cfg := c.Config()
	invalid := invalidValues(c.ConfigError())
	view := SettingsView{DataDir: c.DataDir}
	for _, k := range config.Keys() {
		v, src := cfg.Value(k.Name)
		f := SettingField{Key: k.Name, Secret: k.Secret, IsSet: v != "", Source: src, Label: k.Label, Group: k.Group, Value: v,
			Kind: k.Kind, Default: k.Default, Choices: k.Choices, Doc: k.Doc, Min: k.Min, Max: k.Max}
		if k.Secret {
			f.Value = config.Mask(v)
		} else if masked := redact.URL(v); strings.Contains(v, "://") && masked != v {
			// A URL's password is a secret too: shown masked, kept when
			// the form sends the masked value back (Save).
			f.Value = masked
		}
		f.Error = invalid[k.Name]
		view.Fields = append(view.Fields, f)
	}
	view.Desktop = s.app.desktopStatus(context.Background())
	return view, nil
}

// Save validates every change, then stores them in one transaction. An
// empty value for a secret keeps the stored secret; keys in Clear lose their
// GUI value. On any invalid value nothing is saved.
func (s *SettingsService) Save(u SettingsUpdate) (SettingsView, error) {
	c, err := s.app.backend()
	if err != nil {
		return SettingsView{}, err
	}
	secret := map[string]bool{}
	for _, k := range config.Keys() {
		secret[k.Name] = k.Secret
	}
	cfg := c.Config()
	set := map[string]string{}
	for k, v := range u.Values {
		v = strings.TrimSpace(v)
		if secret[k] && v == "" {
			continue
		}
		if cur, _ := cfg.Value(k); cur != v && strings.Contains(cur, "://") && redact.URL(cur) == v {
			continue // the masked URL Get showed, sent back unchanged: keep its password
		}
		set[k] = v
	}
	if err := c.SaveSettings(context.Background(), set, u.Clear); err != nil {
		return SettingsView{}, err
	}
	s.app.applyDesktopSettings(c) // START_AT_LOGIN's entry, the tray's language
	s.app.applyDiscord(c)         // the bot and its posts follow DISCORD_* and the weather keys
	s.app.applyInterop(c)         // the MCP server over HTTP follows MCP_HTTP_*; its tools, INTEROP_*
	return s.Get()
}

// ModelService fills the model picker.
type ModelService struct{ app *App }

// Options returns DEFAULT_MODEL, the presets and the models that configured
// (or local) providers list. Providers that do not answer within 3 s are
// skipped.
func (s *ModelService) Options() (ModelOptions, error) {
	c, err := s.app.backend()
	if err != nil {
		return ModelOptions{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	ms, err := c.Models(ctx)
	if err != nil {
		return ModelOptions{}, err
	}
	out := ModelOptions{DefaultModel: ms.DefaultModel, Presets: make([]ModelPreset, len(ms.Presets)), Discovered: ms.Discovered}
	for i, p := range ms.Presets {
		out.Presets[i] = toPreset(p)
	}
	out.Configured = out.DefaultModel != "" || len(out.Presets) > 0
	return out, nil
}

// AddPreset adds a picker entry; value is a "provider/model" string.
func (s *ModelService) AddPreset(label, value string) (ModelPreset, error) {
	c, err := s.app.backend()
	if err != nil {
		return ModelPreset{}, err
	}
	if err := config.ValidateValue("DEFAULT_MODEL", value); err != nil {
		return ModelPreset{}, err
	}
	p, err := c.DB.CreatePreset(context.Background(), label, value)
	return toPreset(p), err
}

// UpdatePreset changes a picker entry.
func (s *ModelService) UpdatePreset(id int64, label, value string) (ModelPreset, error) {
	c, err := s.app.backend()
	if err != nil {
		return ModelPreset{}, err
	}
	if err := config.ValidateValue("DEFAULT_MODEL", value); err != nil {
		return ModelPreset{}, err
	}
	p, err := c.DB.UpdatePreset(context.Background(), id, label, value)
	return toPreset(p), err
}

// DeletePreset removes a picker entry.
func (s *ModelService) DeletePreset(id int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.DB.DeletePreset(context.Background(), id)
}

// invalidValues maps each key of a *config.ValueError in err (one error or
// an errors.Join of them) to its coded form.
func invalidValues(err error) map[string]*apperr.Info {
	out := map[string]*apperr.Info{}
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var ve *config.ValueError
		if errors.As(e, &ve) {
			info := apperr.InfoOf(ve)
			out[ve.Key] = &info
		}
	}
	walk(err)
	return out
}
