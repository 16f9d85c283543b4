package discord_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/assistant"
	"playchat/backend/discord"
	"playchat/backend/discord/discordtest"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// requestFor is the model request whose last user message is text.
func (r *rig) requestFor(t *testing.T, text string) llmtest.RecordedRequest {
	t.Helper()
	for _, rec := range r.llm.ChatRequests() {
		if rec.LastUserMessage() == text {
			return rec
		}
	}
	t.Fatalf("no request for %q", text)
	return llmtest.RecordedRequest{}
}

// systemText joins the request's system messages.
func systemText(rec llmtest.RecordedRequest) string {
	var sb strings.Builder
	for _, m := range rec.Messages {
		if m.Role == openai.ChatMessageRoleSystem {
			sb.WriteString(m.Content)
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// ask mentions the bot with text in channel and waits for the reply there
// (the n-th post to that channel).
func (r *rig) ask(t *testing.T, channel, text string, n int) {
	t.Helper()
	r.llm.Enqueue(llmtest.Text("ok", 1))
	r.dc.Inject(discordtest.MessageCreate{ChannelID: channel, Content: "<@" + discordtest.DefaultBotID + "> " + text})
	r.waitPosts(t, channel, n)
}

func f64(v float64) *float64 { return &v }

// A channel given an assistant in Settings → Discord answers with the
// assistant's system prompt, temperature and model; another channel keeps
// the defaults; an edit of the assistant applies from the channel's next
// reply, and taking the assistant away returns the channel to the defaults.
func TestAChannelsAssistantShapesOnlyThatChannelsReplies(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	ctx := context.Background()
	as := assistant.New(r.core.DB)
	pirate, err := as.Create(ctx, assistant.Draft{Name: "Pirate", Settings: store.ChatSettings{
		SystemPrompt: "PIRATE-MARKER: answer like a pirate.", Model: "openai/pirate-model", Temperature: f64(0.3)}})
	if err != nil {
		t.Fatal(err)
	}
	const ship, harbour = discordtest.DefaultChannelID, "4001"
	// Chosen before the channel's first mention: its chat does not exist yet.
	if err := discord.SetChannelAssistant(ctx, r.core.DB, as, ship, pirate.ID); err != nil {
		t.Fatal(err)
	}
	if err := discord.SetChannelAssistant(ctx, r.core.DB, as, "not-a-channel", pirate.ID); apperr.CodeOf(err) != apperr.DiscordChannelInvalid {
		t.Fatalf("a bad channel id: err = %v", err)
	}
	if err := discord.SetChannelAssistant(ctx, r.core.DB, as, harbour, 999); apperr.CodeOf(err) != apperr.AssistantNotFound {
		t.Fatalf("an unknown assistant: err = %v", err)
	}

	r.ask(t, ship, "ahoy from the ship", 1)
	r.ask(t, harbour, "hello from the harbour", 1)
	rec := r.requestFor(t, "ahoy from the ship")
	if !strings.Contains(systemText(rec), "PIRATE-MARKER") || rec.Temperature == nil || *rec.Temperature != 0.3 || rec.Model != "pirate-model" {
		t.Fatalf("the assistant's channel: model %q, temperature %v, system %q", rec.Model, rec.Temperature, systemText(rec))
	}
	rec = r.requestFor(t, "hello from the harbour")
	if strings.Contains(systemText(rec), "PIRATE-MARKER") || rec.Temperature != nil || rec.Model != "fake-model" {
		t.Fatalf("the other channel: model %q, temperature %v, system %q", rec.Model, rec.Temperature, systemText(rec))
	}
	// The channel's chat holds the copy, as the window shows it.
	ch, err := r.core.DB.DiscordChannelByID(ctx, ship)
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := r.core.DB.GetSession(ctx, ch.SessionID)
	if sess.AssistantID == nil || *sess.AssistantID != pirate.ID || sess.Model != "openai/pirate-model" {
		t.Fatalf("the channel's chat: assistant %v, model %q", sess.AssistantID, sess.Model)
	}
	list, err := discord.Channels(ctx, r.core.DB)
	if err != nil || len(list) != 2 {
		t.Fatalf("channels = %+v, %v", list, err)
	}
	for _, c := range list {
		if want := map[string]int64{ship: pirate.ID, harbour: 0}[c.ID]; c.AssistantID != want || c.SessionID == "" {
			t.Fatalf("channel %+v: assistant want %d", c, want)
		}
	}

	// An edit of the assistant reaches the channel's next reply.
	edited := assistant.Draft{Name: "Pirate", Settings: store.ChatSettings{SystemPrompt: "PARROT-MARKER: squawk.", Temperature: f64(0.9)}}
	if _, err := as.Update(ctx, pirate.ID, edited); err != nil {
		t.Fatal(err)
	}
	r.ask(t, ship, "second ahoy", 2)
	rec = r.requestFor(t, "second ahoy")
	if sys := systemText(rec); !strings.Contains(sys, "PARROT-MARKER") || strings.Contains(sys, "PIRATE-MARKER") ||
		rec.Temperature == nil || *rec.Temperature != 0.9 || rec.Model != "fake-model" {
		t.Fatalf("after the edit: model %q, temperature %v, system %q", rec.Model, rec.Temperature, sys)
	}

	// No assistant any more: the defaults again, at once.
	if err := discord.SetChannelAssistant(ctx, r.core.DB, as, ship, 0); err != nil {
		t.Fatal(err)
	}
	r.ask(t, ship, "third ahoy", 3)
	rec = r.requestFor(t, "third ahoy")
	if strings.Contains(systemText(rec), "MARKER") || rec.Temperature != nil || rec.Model != "fake-model" {
		t.Fatalf("after removing the assistant: model %q, temperature %v, system %q", rec.Model, rec.Temperature, systemText(rec))
	}
}
