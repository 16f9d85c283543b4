package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"playchat/backend/apperr"
)

// ChatSettings are one chat's own settings (issue 26), stored with the
// session (sessions.settings) and in an assistant. Every zero value means
// "the default": the app's settings decide.
type ChatSettings struct {
	// SystemPrompt is the user's instructions for the model (Markdown). It
	// is sent as its own system message right after playchat's base prompt,
	// before the context layers (backend/chat, buildContext).
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// Model is the "provider/model" to use. In a session it lives in
	// sessions.model and this field is empty; an assistant keeps it here.
	Model string `json:"model,omitempty"`
	// Temperature and TopP are sampling parameters; nil = the provider's
	// default. A model that does not accept one never receives it
	// (backend/llm, params.go).
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"topP,omitempty"`
	// MaxOutputTokens caps the reply and is reserved in the budget; 0 =
	// MAX_OUTPUT_TOKENS.
	MaxOutputTokens int `json:"maxOutputTokens,omitempty"`
	// LayersOff names the context layers this chat does without
	// (LayerKnowledge, LayerNotes, LayerKB, LayerMemory).
	LayersOff []string `json:"layersOff,omitempty"`
	// KBDomain keeps the knowledge-base layer to one top-level folder of
	// the knowledge base ("" = all of it); an assistant's preferred folder
	// is copied here.
	KBDomain string `json:"kbDomain,omitempty"`
}

// The context layers a chat can switch off (ChatSettings.LayersOff): the
// names the layers report themselves by (layer.Layer.Name).
const (
	LayerKnowledge = "knowledge"
	LayerNotes     = "notes"
	LayerKB        = "kb"
	LayerMemory    = "memory"
)

// SwitchableLayers lists the layers a chat can switch off, in context order.
var SwitchableLayers = []string{LayerKnowledge, LayerNotes, LayerKB, LayerMemory}

// Limits of ChatSettings (Check).
const (
	MaxSystemPromptBytes = 64 << 10
	MaxTemperature       = 2.0
	MaxOutputTokensLimit = 1 << 20
)

// Check returns what is wrong with s ("" when nothing): an over-long or
// non-UTF-8 system prompt, a temperature outside 0–2, a top-p outside 0–1,
// a negative or huge max output tokens, an unknown layer.
func (s ChatSettings) Check() string {
	var p []string
	if len(s.SystemPrompt) > MaxSystemPromptBytes {
		p = append(p, fmt.Sprintf("the system prompt is %d bytes, over %d KiB", len(s.SystemPrompt), MaxSystemPromptBytes>>10))
	}
	if s.Temperature != nil && (*s.Temperature < 0 || *s.Temperature > MaxTemperature) {
		p = append(p, fmt.Sprintf("temperature %g is outside 0–2", *s.Temperature))
	}
	if s.TopP != nil && (*s.TopP < 0 || *s.TopP > 1) {
		p = append(p, fmt.Sprintf("top-p %g is outside 0–1", *s.TopP))
	}
	if s.MaxOutputTokens < 0 || s.MaxOutputTokens > MaxOutputTokensLimit {
		p = append(p, fmt.Sprintf("max output tokens %d is outside 0–%d", s.MaxOutputTokens, MaxOutputTokensLimit))
	}
	for _, l := range s.LayersOff {
		if !LayerSwitchable(l) {
			p = append(p, fmt.Sprintf("%q is not a context layer a chat can switch off", l))
		}
	}
	if s.KBDomain != "" && (s.KBDomain == "." || s.KBDomain == ".." || len(s.KBDomain) > 255 ||
		strings.ContainsFunc(s.KBDomain, func(r rune) bool { return r == '/' || r == '\\' || r < 0x20 || r == 0x7f })) {
		p = append(p, fmt.Sprintf("%q is not a top-level folder name", s.KBDomain))
	}
	if strings.ContainsRune(s.Model, '\n') {
		p = append(p, "the model has a line break")
	}
	return strings.Join(p, "; ")
}

// LayerSwitchable reports whether name is in SwitchableLayers.
func LayerSwitchable(name string) bool {
	for _, l := range SwitchableLayers {
		if l == name {
			return true
		}
	}
	return false
}

// LayerOff reports whether the chat does without layer name.
func (s ChatSettings) LayerOff(name string) bool {
	for _, l := range s.LayersOff {
		if l == name {
			return true
		}
	}
	return false
}

// IsZero reports whether every setting is the default.
func (s ChatSettings) IsZero() bool {
	return strings.TrimSpace(s.SystemPrompt) == "" && s.Model == "" && s.Temperature == nil && s.TopP == nil &&
		s.MaxOutputTokens == 0 && len(s.LayersOff) == 0 && s.KBDomain == ""
}

// Encode is s as stored: "" for all defaults, else JSON.
func (s ChatSettings) Encode() string {
	if s.IsZero() {
		return ""
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// DecodeChatSettings reads stored settings; "" and unreadable text are the
// defaults (an unreadable row must not stop the chat).
func DecodeChatSettings(raw string) ChatSettings {
	var s ChatSettings
	if strings.TrimSpace(raw) != "" {
		_ = json.Unmarshal([]byte(raw), &s)
	}
	return s
}

// SessionSettings returns the chat's own settings (Model filled from
// sessions.model).
func (d *DB) SessionSettings(ctx context.Context, sessionID string) (ChatSettings, error) {
	s, err := d.GetSession(ctx, sessionID)
	if err != nil {
		return ChatSettings{}, err
	}
	cs := DecodeChatSettings(s.Settings)
	cs.Model = s.Model
	return cs, nil
}

// SetSessionSettings replaces the chat's settings: cs.Model goes to
// sessions.model ("" keeps the session's model), the rest to
// sessions.settings. Settings that fail Check are refused and nothing
// changes.
func (d *DB) SetSessionSettings(ctx context.Context, sessionID string, cs ChatSettings) (Session, error) {
	if why := cs.Check(); why != "" {
		return Session{}, apperr.New(apperr.ChatSettingsInvalid, map[string]any{"detail": why})
	}
	model := strings.TrimSpace(cs.Model)
	cs.Model = ""
	q := d.bun.NewUpdate().Table("sessions").Set("settings = ?", cs.Encode()).Where("id = ?", sessionID)
	if model != "" {
		q = q.Set("model = ?", model)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return Session{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Session{}, fmt.Errorf("session %s: %w", sessionID, ErrNotFound)
	}
	return d.GetSession(ctx, sessionID)
}

// SetSessionAssistant records the assistant (and its version) a chat copied
// its settings from; id nil clears it.
func (d *DB) SetSessionAssistant(ctx context.Context, sessionID string, id *int64, version int) error {
	if id == nil {
		version = 0
	}
	res, err := d.bun.NewUpdate().Table("sessions").Set("assistant_id = ?", id).Set("assistant_version = ?", version).
		Where("id = ?", sessionID).Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("session %s: %w", sessionID, ErrNotFound)
	}
	return nil
}
