package core

import (
	"context"
	"errors"
	"log/slog"
	"testing"
)

func TestOnlyOneExclusiveCorePerDataDir(t *testing.T) {
	dir := t.TempDir()
	open := func(exclusive bool) (*Core, error) {
		return Open(context.Background(), Options{DataDir: dir, Exclusive: exclusive, Logger: slog.New(slog.DiscardHandler)})
	}
	first, err := open(true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open(true); !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second window: err = %v, want ErrAlreadyRunning", err)
	}
	cli, err := open(false) // the CLI may run beside the window
	if err != nil {
		t.Fatalf("CLI beside the window: %v", err)
	}
	cli.Close()
	first.Close()
	again, err := open(true)
	if err != nil {
		t.Fatalf("after the first window closed: %v", err)
	}
	again.Close()
}

func TestSavingSettingsValidatesEverythingFirst(t *testing.T) {
	c, err := Open(context.Background(), Options{DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	err = c.SaveSettings(ctx, map[string]string{"DEFAULT_MODEL": "openai/gpt-4o-mini", "MEMORY_SUMMARIZE_THRESHOLD": "abc"}, nil)
	if err == nil {
		t.Fatal("an invalid threshold was accepted")
	}
	if got, _ := c.DB.AppSettings(ctx); len(got) != 0 {
		t.Fatalf("a rejected save wrote %v", got)
	}
	if err := c.SaveSettings(ctx, map[string]string{"DEFAULT_MODEL": "openai/gpt-4o-mini", "OPENAI_API_KEY": "sk-test-1234567890abcdef"}, nil); err != nil {
		t.Fatal(err)
	}
	if cfg := c.Config(); cfg.DefaultModel != "openai/gpt-4o-mini" || cfg.OpenAIKey == "" {
		t.Fatalf("saved settings not applied: model %q", cfg.DefaultModel)
	}
	if _, src := c.Config().Value("DEFAULT_MODEL"); src != "gui" {
		t.Fatalf("source = %q, want gui", src)
	}
}
