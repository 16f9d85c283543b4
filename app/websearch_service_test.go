package app

import (
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/websearch/websearchtest"
)

// The Settings button's method: a count and titles from the configured
// provider, or the coded error the window words (not configured, 429, …),
// with the key masked in Settings as every secret is.
func TestTestSearchReportsTheCountOrTheCodedError(t *testing.T) {
	a, _ := newTestApp(t)
	s := &WebSearchService{a}
	if _, err := s.TestSearch(""); apperr.CodeOf(err) != apperr.WebSearchNotConfigured {
		t.Fatalf("unconfigured: %v", err)
	}
	fake := websearchtest.NewServer(t)
	const key = "brave-secret-0123456789"
	v, err := (&SettingsService{a}).Save(SettingsUpdate{Values: map[string]string{"BRAVE_API_KEY": key, "BRAVE_BASE_URL": fake.URL}})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(v); strings.Contains(string(b), key) {
		t.Fatal("the Brave key reached the settings view in clear")
	}
	got, err := s.TestSearch("")
	if err != nil || got.Provider != "brave" || got.Count != 3 || len(got.Titles) != 3 || got.Query != "playchat" {
		t.Fatalf("test search = %+v, %v", got, err)
	}
	if qs := fake.Queries(); len(qs) != 1 || qs[0].Auth != key {
		t.Errorf("queries = %+v", qs)
	}
	fake.Fail(500)
	if _, err := s.TestSearch("x"); apperr.CodeOf(err) != apperr.WebSearchServerError {
		t.Errorf("500: %v", err)
	}
}
