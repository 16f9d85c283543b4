package app

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

// formatted is FormatError's value as the window reads it: a string (the
// Wails runtime's Error message) holding the JSON object.
func formatted(t *testing.T, err error) map[string]any {
	t.Helper()
	s, ok := FormatError(err).(string)
	if !ok {
		t.Fatalf("FormatError gave %T, want the JSON text", FormatError(err))
	}
	var m map[string]any
	if jerr := json.Unmarshal([]byte(s), &m); jerr != nil {
		t.Fatalf("%q: %v", s, jerr)
	}
	return m
}

func TestBoundMethodErrorsReachTheWindowAsCodeParamsAndMessage(t *testing.T) {
	a, _ := newTestApp(t)
	sessions := &SessionService{a}
	s, err := sessions.Create("")
	if err != nil {
		t.Fatal(err)
	}
	_, err = sessions.Rename(s.ID, strings.Repeat("長", 201))
	m := formatted(t, err)
	params, _ := m["params"].(map[string]any)
	if m["code"] != string(apperr.SessionTitleLength) || params["max"] != float64(200) || m["message"] != "a title needs 1 to 200 characters" {
		t.Errorf("rename error as %v", m)
	}

	notStarted := &SessionService{&App{}}
	if _, err := notStarted.List(); formatted(t, err)["code"] != string(apperr.AppStarting) {
		t.Errorf("before start: %v", err)
	}

	plain := formatted(t, fmt.Errorf("open db: disk full"))
	if plain["code"] != "" || plain["message"] != "open db: disk full" {
		t.Errorf("an uncoded error as %v", plain)
	}
}

func TestARefusedSettingNamesItsKeyAndACodedReason(t *testing.T) {
	a, _ := newTestApp(t)
	_, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{"MAX_OUTPUT_TOKENS": "zero"}})
	m := formatted(t, err)
	params, _ := m["params"].(map[string]any)
	reason, _ := params["reason"].(map[string]any)
	if params["key"] != "MAX_OUTPUT_TOKENS" || reason["code"] != string(apperr.ConfigReasonIntMin) {
		t.Errorf("refused setting as %v", m)
	}
}
