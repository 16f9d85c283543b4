package core

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/discord"
	"playchat/backend/discord/discordtest"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// secretWord stands for what the owner wrote in a private desktop chat.
const secretWord = "ZEPHYRQUOKKA紫陽花計画"

// Issue 21: a useless tip posted to a shared Discord server took its topic
// from the auto-tag of a private desktop chat. Whatever the bot posts —
// replies of every branch, tips asked for, scheduled tips — may draw only on
// the channel's own chat, learned web knowledge and the asker's reminders:
// the private chat's unique word (in its text, its tags, a note and a
// knowledge-base document) reaches no model request and no post.
func TestNothingTheBotSendsCarriesAPrivateDesktopChat(t *testing.T) {
	const channel = "400000000000000001"
	fake := discordtest.NewServer(t)
	t.Setenv("PLAYCHAT_DISCORD_API", fake.URL)
	srv := llmtest.NewServer(t, llmtest.WithDefault(func(r llmtest.RecordedRequest) llmtest.Response {
		return llmtest.Text("はい、どうぞ。", 2)
	}))
	jma := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(jma.Close)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "knowledge_base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "knowledge_base", "secret.md"),
		[]byte("# 社外秘\n\n"+secretWord+" の天気と雑談の予定。こんにちは。\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := Open(ctx, Options{DataDir: dir, Logger: slog.New(slog.DiscardHandler),
		Environ: []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model", "AUTO_TAGS=false",
			"PLAYCHAT_JMA_BASE_URL=" + jma.URL, "DISCORD_NOTIFY_CHANNEL_ID=" + channel},
		LLMOptions: []llm.Option{llm.WithSleep(func(context.Context, time.Duration) error { return nil })}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.KB.Start(ctx); err != nil {
		t.Fatal(err)
	}

	// The private desktop chat, tagged, and a note.
	private, _ := c.DB.CreateSession(ctx, "private", "openai/fake-model")
	for _, text := range []string{secretWord + " の予算を決めたい", "天気と雑談の話: " + secretWord} {
		m := store.Message{SessionID: private.ID, Role: store.RoleUser, Content: text}
		if err := c.DB.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		if err := c.DB.AddMessageTags(ctx, m.ID, []string{secretWord, "予算", "天気"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Notes.Create(ctx, secretWord, "雑談 天気 "+secretWord, ""); err != nil {
		t.Fatal(err)
	}

	d := c.NewDiscord(DiscordOptions{Version: "test"})
	defer d.Stop()
	cfg := c.Config()
	cfg.DiscordBotToken, cfg.DiscordEnabled = fake.Token(), true
	d.Apply(ctx, cfg)
	deadline := time.Now().Add(60 * time.Second)
	for d.Status().State != discord.StateConnected {
		if time.Now().After(deadline) {
			t.Fatalf("never connected: %+v", d.Status())
		}
		time.Sleep(20 * time.Millisecond)
	}

	mention := func(text string, posts int) {
		t.Helper()
		fake.Inject(discordtest.MessageCreate{ChannelID: channel, Content: "<@" + discordtest.DefaultBotID + "> " + text})
		wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		for {
			n := 0
			for _, call := range fake.Calls() {
				if discordtest.MessagePost(channel)(call) {
					n++
				}
			}
			if n >= posts {
				return
			}
			select {
			case <-wctx.Done():
				t.Fatalf("no reply to %q", text)
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	mention("こんにちは、予算の話をしよう", 1) // an ordinary turn: it makes the channel's chat
	mention("雑談しよう、暇なんだ", 2)     // small talk: a tip
	mention("明日の天気は？", 3)        // the weather branch
	mention("明日の朝9時に予算会議をリマインドして", 4)
	if err := d.PostTip(ctx); err != nil { // a scheduled tip, posted now
		t.Fatal(err)
	}

	for i, r := range srv.ChatRequests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, secretWord) {
				t.Errorf("model request %d (%s) carries the private chat: %q", i, m.Role, m.Content)
			}
		}
	}
	if len(srv.ChatRequests()) < 5 {
		t.Fatalf("only %d model requests: not every branch ran", len(srv.ChatRequests()))
	}
	for _, call := range fake.Calls() {
		if strings.Contains(string(call.Body), secretWord) || strings.Contains(string(call.Body), "紫陽花計画") {
			t.Errorf("a Discord call carries the private chat: %s %s %s", call.Method, call.Route, call.Body)
		}
	}
}
