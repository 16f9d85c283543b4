package app

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/core"
	"playchat/backend/store"
	"playchat/backend/store/storetest"
)

// A start on a damaged database: Startup says why, names the data folder
// and takes the language from .env (the settings saved in the window are
// in the refused database).
func TestStartupReportsARefusedDatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, store.FileName)
	storetest.Fill(t, path, 400)
	storetest.CorruptMiddle(t, path)
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("UI_LANGUAGE=ja\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	opts := core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)}
	_, err := core.Open(context.Background(), opts)
	if err == nil {
		t.Fatal("the damaged database opened")
	}
	a := &App{opts: opts, startErr: err}
	st, err := (&SystemService{a}).Startup()
	if err != nil {
		t.Fatal(err)
	}
	if st.OK || st.Error == nil || st.Error.Code != apperr.StoreDamaged || st.Error.Params["dir"] != dir {
		t.Fatalf("status %+v", st)
	}
	if st.DataDir != dir || st.UILanguage != "ja" {
		t.Errorf("data dir %q, language %q", st.DataDir, st.UILanguage)
	}
}

func TestStartupIsOKWhenTheBackendStarted(t *testing.T) {
	dir := t.TempDir()
	c, err := core.Open(context.Background(), core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a := &App{core: c}
	st, err := (&SystemService{a}).Startup()
	if err != nil || !st.OK || st.Error != nil || st.DataDir != dir || st.UILanguage != "auto" {
		t.Fatalf("status %+v, %v", st, err)
	}
}

// `playchat ask` killed while the window is open leaves its reply
// streaming: the window's next read of the chat shows it interrupted; a
// reply another live process is writing stays streaming.
func TestTheWindowShowsAReplyOfAnEndedProcessAsInterrupted(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	opts := core.Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler)}
	window, err := core.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer window.Close()
	cli, err := core.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cli.DB.CreateSession(ctx, "", "openai/m")
	if err != nil {
		t.Fatal(err)
	}
	q := store.Message{SessionID: s.ID, Role: store.RoleUser, Content: "question"}
	r := store.Message{SessionID: s.ID, Role: store.RoleAssistant, Content: "half of it", Status: store.StatusStreaming}
	for _, m := range []*store.Message{&q, &r} {
		if err := cli.DB.InsertMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	svc := &SessionService{&App{core: window}}
	ms, err := svc.Messages(s.ID)
	if err != nil || len(ms) != 2 || ms[1].Status != store.StatusStreaming {
		t.Fatalf("while the CLI lives: %+v, %v", ms, err)
	}
	cli.Close() // the CLI ends without finishing its reply

	ms, err = svc.Messages(s.ID)
	if err != nil || len(ms) != 2 {
		t.Fatalf("messages %+v, %v", ms, err)
	}
	if ms[1].Status != store.StatusPartial || ms[1].Content != "half of it" || ms[1].ErrorInfo == nil ||
		ms[1].ErrorInfo.Code != apperr.ChatReplyInterrupted {
		t.Errorf("after the CLI ended: %+v", ms[1])
	}
}
