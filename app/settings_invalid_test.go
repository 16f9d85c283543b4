package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/core"
)

// An invalid value set outside the window (.env, the environment) is shown
// on its field in Settings with its code, so the window says what is wrong
// where the user can fix it: OPENAI_BASE_URL=localhost:41813 in .env (no
// scheme) is refused, not replaced by api.openai.com.
func TestSettingsShowAValueThatIsInvalidInDotEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("OPENAI_BASE_URL=localhost:41813\nMAX_OUTPUT_TOKENS=lots\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := core.Open(context.Background(), core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	v, err := (&SettingsService{&App{core: c, platform: &fakePlatform{}}}).Get()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"OPENAI_BASE_URL", "MAX_OUTPUT_TOKENS"} {
		f := field(v, key)
		if f.Error == nil || f.Error.Code != apperr.ConfigInvalidValueFrom || f.Error.Params["key"] != key {
			t.Errorf("%s: error %+v, want %s naming the key", key, f.Error, apperr.ConfigInvalidValueFrom)
		}
	}
	if f := field(v, "OPENAI_BASE_URL"); f.Value != "localhost:41813" {
		t.Errorf("the invalid base URL shows as %q: it must be kept as set, never replaced by a default", f.Value)
	}
	if f := field(v, "DEFAULT_MODEL"); f.Error != nil {
		t.Errorf("a valid field carries an error: %+v", f.Error)
	}
}
