package core

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/store"
	"playchat/backend/store/storetest"
)

// The window and every command open the core: a damaged database, or one
// a newer playchat wrote, is refused there with its code (the window's
// error screen and the CLI word it), and the file is left as it was.
func TestOpenRefusesADamagedOrNewerDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		harm func(testing.TB, string)
		code apperr.Code
	}{
		{"damaged", storetest.CorruptMiddle, apperr.StoreDamaged},
		{"newer", storetest.MarkNewer, apperr.StoreNewerSchema},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, store.FileName)
			storetest.Fill(t, path, 400)
			tc.harm(t, path)
			before := storetest.Hash(t, path)
			for _, exclusive := range []bool{true, false} { // the window, the CLI
				c, err := Open(context.Background(), Options{DataDir: dir, Exclusive: exclusive, Logger: slog.New(slog.DiscardHandler)})
				if err == nil {
					c.Close()
					t.Fatal("opened")
				}
				if apperr.CodeOf(err) != tc.code || apperr.InfoOf(err).Params["dir"] != dir {
					t.Errorf("exclusive=%v: %v (code %q, params %v)", exclusive, err, apperr.CodeOf(err), apperr.InfoOf(err).Params)
				}
			}
			if storetest.Hash(t, path) != before {
				t.Error("the database file changed")
			}
			// The refusal released the data dir: the window can start once
			// the folder is restored.
			unlock, err := lockDataDir(dir)
			if err != nil {
				t.Fatalf("the data dir is still locked: %v", err)
			}
			unlock()
		})
	}
}
