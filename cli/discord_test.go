package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/discord/discordtest"
	"playchat/backend/llm/llmtest"
)

// lockedBuffer is a bytes.Buffer safe for the command's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// `playchat discord run` connects headless, answers a mention through the
// chat pipeline, logs to stderr and ends cleanly when its context ends (as
// SIGTERM ends it: main's signal.NotifyContext).
func TestDiscordRunAnswersAMentionAndStopsCleanly(t *testing.T) {
	fake := discordtest.NewServer(t)
	t.Setenv("PLAYCHAT_DISCORD_API", fake.URL)
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("こんにちは、Discord から！", 3))
	env := append(testEnv(t, srv), "DISCORD_BOT_TOKEN="+fake.Token())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, []string{"discord", "run"}, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Environ: env})
	}()
	wctx, wcancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer wcancel()
	if err := fake.WaitReady(wctx); err != nil {
		t.Fatalf("the bot never got READY: %v\n%s", err, errb.String())
	}
	fake.Inject(discordtest.MessageCreate{ChannelID: "4000", AuthorID: "2000", AuthorName: "alice",
		Content: "<@" + discordtest.DefaultBotID + "> やあ"})
	call, err := fake.WaitCall(wctx, discordtest.MessagePost("4000"))
	if err != nil {
		t.Fatalf("no reply posted: %v\n%s", err, errb.String())
	}
	var body struct {
		Content string `json:"content"`
	}
	if err := call.Decode(&body); err != nil || body.Content != "こんにちは、Discord から！" {
		t.Fatalf("reply = %q (%v)", body.Content, err)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d after SIGTERM:\n%s", code, errb.String())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("discord run did not stop after its context ended")
	}
	logs := errb.String()
	for _, want := range []string{"discord: connected", "user=playchat-bot", "discord: stopped"} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, logs)
		}
	}
}

// A token Discord refuses ends the command with status 1 and plain words;
// no token at all is refused before connecting.
func TestDiscordRunStopsOnARefusedOrMissingToken(t *testing.T) {
	fake := discordtest.NewServer(t)
	t.Setenv("PLAYCHAT_DISCORD_API", fake.URL)
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)

	r := runCLI(t, env, "", "discord", "run")
	if r.code != 1 || !strings.Contains(r.stderr, "DISCORD_BOT_TOKEN") {
		t.Fatalf("no token: %+v", r)
	}
	done := make(chan run, 1)
	go func() { done <- runCLI(t, append(env, "DISCORD_BOT_TOKEN=wrong-token"), "", "discord", "run") }()
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("a refused token did not end discord run")
	}
	if r.code != 1 || !strings.Contains(r.stderr, "refused the bot token") {
		t.Fatalf("bad token: %+v", r)
	}
}
