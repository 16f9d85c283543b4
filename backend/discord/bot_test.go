package discord_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/core"
	"playchat/backend/discord"
	"playchat/backend/discord/discordtest"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/reminders"
)

// waitFor is how long a test waits for something asynchronous (a deadline
// for a hung test, not a timing assertion).
const waitFor = 60 * time.Second

type fakeForecast struct{ text string }

func (f fakeForecast) TomorrowText(context.Context) (string, error) { return f.text, nil }

type fakeTips struct {
	mu    sync.Mutex
	hints []string
}

func (f *fakeTips) Tip(_ context.Context, hint string, _ []string) (string, error) {
	f.mu.Lock()
	f.hints = append(f.hints, hint)
	f.mu.Unlock()
	return "タコの心臓は3つあります。", nil
}

type rig struct {
	changes *changes
	dc      *discordtest.Server
	llm     *llmtest.Server
	core    *core.Core
	bot     *discord.Bot
	tips    *fakeTips
}

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// newRig starts a fake Discord, a fake model, a core on a real SQLite in
// t.TempDir() and a bot with token (DefaultToken when "").
func newRig(t *testing.T, token string, dopts discordtest.Options, llmOpts ...llmtest.Option) *rig {
	t.Helper()
	dc := discordtest.NewServer(t, dopts)
	srv := llmtest.NewServer(t, llmOpts...)
	c, err := core.Open(context.Background(), core.Options{
		DataDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler),
		Environ:    []string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model", "REMINDER_MODEL=openai/reminder-model"},
		LLMOptions: []llm.Option{llm.WithSleep(noSleep)},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if token == "" {
		token = discordtest.DefaultToken
	}
	tips := &fakeTips{}
	ch := &changes{}
	bot, err := discord.New(discord.Options{Token: token, DB: c.DB, Chat: c.Chat, Reminders: c.Reminders, Config: c.Config,
		Weather: fakeForecast{"明日の東京は晴れ、最高気温 18℃。洗濯指数 5。"}, Tips: tips, APIBase: dc.URL, OnSessionChange: ch.add})
	if err != nil {
		t.Fatal(err)
	}
	if err := bot.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bot.Stop() })
	return &rig{dc: dc, llm: srv, core: c, bot: bot, tips: tips, changes: ch}
}

// changes records OnSessionChange calls.
type changes struct {
	mu  sync.Mutex
	ids []string
}

func (c *changes) add(id string) { c.mu.Lock(); c.ids = append(c.ids, id); c.mu.Unlock() }

func (c *changes) count(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, x := range c.ids {
		if x == id {
			n++
		}
	}
	return n
}

// waitState polls the bot's status until it is st.
func waitState(t *testing.T, b *discord.Bot, st discord.State) discord.Status {
	t.Helper()
	return waitStatus(t, b, func(s discord.Status) bool { return s.State == st })
}

// waitStatus polls the bot's status until ok accepts it.
func waitStatus(t *testing.T, b *discord.Bot, ok func(discord.Status) bool) discord.Status {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for time.Now().Before(deadline) {
		if s := b.Status(); ok(s) {
			return s
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("status = %+v: not the one waited for", b.Status())
	return discord.Status{}
}

// waitPosts waits for n message posts to channel.
func (r *rig) waitPosts(t *testing.T, channel string, n int) []discordtest.Call {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	calls, err := r.dc.WaitCalls(ctx, n, discordtest.MessagePost(channel))
	if err != nil {
		t.Fatalf("waiting for %d posts to %s: %v (calls: %+v)", n, channel, err, r.dc.Calls())
	}
	return calls
}

// sent is the JSON body of a message post.
type sent struct {
	Content         string `json:"content"`
	AllowedMentions *struct {
		Parse []string `json:"parse"`
		Users []string `json:"users"`
	} `json:"allowed_mentions"`
	Reference *struct {
		MessageID string `json:"message_id"`
	} `json:"message_reference"`
	rawParse json.RawMessage
}

func decode(t *testing.T, c discordtest.Call) sent {
	t.Helper()
	var s sent
	if err := c.Decode(&s); err != nil {
		t.Fatal(err)
	}
	var raw struct {
		AM struct {
			Parse json.RawMessage `json:"parse"`
		} `json:"allowed_mentions"`
	}
	_ = c.Decode(&raw)
	s.rawParse = raw.AM.Parse
	return s
}

// mention is a user's message mentioning the bot in the default channel.
func (r *rig) mention(text string) string {
	m := r.dc.Inject(discordtest.MessageCreate{Content: "<@" + discordtest.DefaultBotID + "> " + text})
	return m.ID
}

func TestAMentionIsAnsweredThroughTheChatPipelineInTheChannelsSession(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	st := waitState(t, r.bot, discord.StateConnected)
	if st.User != discordtest.DefaultBotName {
		t.Fatalf("connected as %q, want %q", st.User, discordtest.DefaultBotName)
	}
	r.llm.Enqueue(llmtest.Text("こんにちは、alice さん！", 2))
	id := r.mention("こんにちは")

	post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0])
	if post.Content != "こんにちは、alice さん！" {
		t.Fatalf("reply = %q", post.Content)
	}
	if post.Reference == nil || post.Reference.MessageID != id {
		t.Fatalf("the reply does not reference the user's message: %+v", post.Reference)
	}
	if got := r.llm.ChatRequests()[0].LastUserMessage(); got != "こんにちは" {
		t.Fatalf("the model got %q: the mention is not stripped", got)
	}

	// The channel is one session in the store, titled after the channel,
	// and a second mention continues it.
	ctx := context.Background()
	ch, err := r.core.DB.DiscordChannelByID(ctx, discordtest.DefaultChannelID)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := r.core.DB.GetSession(ctx, ch.SessionID)
	if err != nil || sess.Title != "Discord #channel-"+discordtest.DefaultChannelID {
		t.Fatalf("session = %+v, %v", sess, err)
	}
	// The window heard of the session when the message and the reply were stored.
	if n := r.changes.count(sess.ID); n != 2 {
		t.Fatalf("OnSessionChange(%s) called %d times, want 2", sess.ID, n)
	}
	r.llm.Enqueue(llmtest.Text("二つ目の返事", 1))
	r.mention("二つ目")
	r.waitPosts(t, discordtest.DefaultChannelID, 2)
	msgs, _ := r.core.DB.SessionMessages(ctx, sess.ID)
	if len(msgs) != 4 || msgs[0].Content != "こんにちは" || msgs[3].Content != "二つ目の返事" {
		t.Fatalf("session messages = %+v", msgs)
	}
	all, _ := r.core.DB.ListSessions(ctx)
	if len(all) != 1 {
		t.Fatalf("%d sessions, want the channel's one", len(all))
	}

	// A deleted session: the next mention starts a new one.
	if err := r.core.DB.DeleteSession(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	r.mention("また来たよ")
	r.waitPosts(t, discordtest.DefaultChannelID, 3)
	ch2, err := r.core.DB.DiscordChannelByID(ctx, discordtest.DefaultChannelID)
	if err != nil || ch2.SessionID == sess.ID {
		t.Fatalf("after deleting the session: mapping %+v, %v", ch2, err)
	}
}

func TestTheLegacyNicknameMentionCountsAndOtherMessagesAreIgnored(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	// Not mentioned, and from another bot: no reply, no model call.
	r.dc.Inject(discordtest.MessageCreate{Content: "独り言"})
	r.dc.Inject(discordtest.MessageCreate{Content: "<@" + discordtest.DefaultBotID + "> bot talk", AuthorID: "2999", AuthorBot: true})
	r.llm.Enqueue(llmtest.Text("はい", 1))
	r.dc.Inject(discordtest.MessageCreate{Content: "<@!" + discordtest.DefaultBotID + "> ニックネーム形式"})
	post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0])
	if post.Content != "はい" {
		t.Fatalf("reply = %q", post.Content)
	}
	reqs := r.llm.ChatRequests()
	if len(reqs) != 1 || reqs[0].LastUserMessage() != "ニックネーム形式" {
		t.Fatalf("model requests = %d, last user %q", len(reqs), reqs[len(reqs)-1].LastUserMessage())
	}
}

func TestEveryoneInAModelReplyPingsNobodyButTheRequester(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	r.llm.Enqueue(llmtest.Text("@everyone <@&555> 集合！ <@9999> も", 1))
	r.mention("みんなを呼んで")
	call := r.waitPosts(t, discordtest.DefaultChannelID, 1)[0]
	post := decode(t, call)
	if string(post.rawParse) != "[]" {
		t.Fatalf("allowed_mentions.parse = %s, want []", post.rawParse)
	}
	if post.AllowedMentions == nil || len(post.AllowedMentions.Users) != 1 || post.AllowedMentions.Users[0] != discordtest.DefaultAuthorID {
		t.Fatalf("allowed_mentions = %+v, want users [requester]", post.AllowedMentions)
	}
	if p := call.Pings(); p.Everyone || len(p.Roles) > 0 || len(p.Users) > 0 {
		t.Fatalf("the reply pings %+v", p)
	}
}

func TestALongReplyIsSplitIntoMessagesOfAtMost2000CodePoints(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	r.llm.Enqueue(llmtest.Text(strings.Repeat("あ", 2500), 5))
	id := r.mention("長く書いて")
	calls := r.waitPosts(t, discordtest.DefaultChannelID, 2)
	first, second := decode(t, calls[0]), decode(t, calls[1])
	if n := len([]rune(first.Content)) + len([]rune(second.Content)); n != 2500 {
		t.Fatalf("posted %d runes, want 2500", n)
	}
	if len([]rune(first.Content)) > discord.MaxMessageRunes {
		t.Fatalf("first part has %d runes", len([]rune(first.Content)))
	}
	if first.Reference == nil || first.Reference.MessageID != id || second.Reference != nil {
		t.Fatalf("references: first %+v, second %+v (only the first replies)", first.Reference, second.Reference)
	}
	posts := 0
	for _, c := range r.dc.Calls() {
		if discordtest.MessagePost(discordtest.DefaultChannelID)(c) {
			posts++
		}
	}
	if posts != 2 {
		t.Fatalf("%d posts, want 2", posts)
	}
}

// A reply of up to 1 MiB (a model that looped to the limit) would be some
// 500 messages: it is posted as MaxReplyParts at most, the last saying
// where the rest is.
func TestAReplyTooLongForTenMessagesEndsWithANoteWhereTheRestIs(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	para := strings.Repeat("同じことを繰り返します。", 40) + "\n\n" // 482 runes
	reply := strings.Repeat(para, 200)                  // 96,400 runes
	r.llm.Enqueue(llmtest.Response{Chunks: llmtest.SplitEvery(reply, 4096)})
	r.mention("長く書いて")
	calls := r.waitPosts(t, discordtest.DefaultChannelID, discord.MaxReplyParts)
	time.Sleep(300 * time.Millisecond) // nothing more comes
	posts := 0
	for _, c := range r.dc.Calls() {
		if discordtest.MessagePost(discordtest.DefaultChannelID)(c) {
			posts++
		}
	}
	if posts != discord.MaxReplyParts {
		t.Fatalf("%d posts, want %d", posts, discord.MaxReplyParts)
	}
	shown := 0
	for _, c := range calls[:discord.MaxReplyParts-1] {
		p := decode(t, c).Content
		if n := len([]rune(p)); n > discord.MaxMessageRunes {
			t.Fatalf("a part of %d runes", n)
		}
		shown += len([]rune(p))
	}
	last := decode(t, calls[discord.MaxReplyParts-1]).Content
	if !strings.Contains(last, "返信が長すぎるため") || !strings.Contains(last, "is in this channel's chat in playchat") ||
		!strings.Contains(last, fmt.Sprintf("about %d characters", len([]rune(reply))-shown)) {
		t.Fatalf("last post %q (shown %d of %d runes)", last, shown, len([]rune(reply)))
	}
}

func TestTheReminderBranchUsesTheReminderModelAndTheRequester(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	due := time.Now().Add(48 * time.Hour).Format("2006-01-02T15:04")
	b, _ := json.Marshal(map[string]any{"index": 0, "id": "c1", "type": "function",
		"function": map[string]any{"name": "create_reminder", "arguments": `{"content":"牛乳を買う","due":"` + due + `"}`}})
	r.llm.Enqueue(llmtest.Response{ToolCallChunks: []string{string(b)}}, llmtest.Text("明後日にお知らせします。", 1))
	r.mention("明後日のこの時間に牛乳を買うのをリマインドして")
	post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0])
	if post.Content != "明後日にお知らせします。" {
		t.Fatalf("reply = %q", post.Content)
	}
	reqs := r.llm.ChatRequests()
	if reqs[0].Model != "reminder-model" {
		t.Fatalf("model = %q, want REMINDER_MODEL's", reqs[0].Model)
	}
	ctx := context.Background()
	rs, err := r.core.Reminders.List(ctx, reminders.ListOptions{})
	if err != nil || len(rs) != 1 {
		t.Fatalf("reminders = %+v, %v", rs, err)
	}
	if rs[0].Origin != reminders.OriginDiscord || rs[0].ChannelID != discordtest.DefaultChannelID ||
		rs[0].UserID != discordtest.DefaultAuthorID || rs[0].Content != "牛乳を買う" {
		t.Fatalf("reminder = %+v", rs[0])
	}
	// The channel's session keeps its own model afterwards.
	ch, _ := r.core.DB.DiscordChannelByID(ctx, discordtest.DefaultChannelID)
	if s, _ := r.core.DB.GetSession(ctx, ch.SessionID); s.Model == "openai/reminder-model" {
		t.Fatalf("the session kept the reminder model")
	}
}

func TestTheWeatherBranchAddsTheForecastToTheSystemPrompt(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	r.llm.Enqueue(llmtest.Text("明日は洗濯日和です。", 1))
	r.mention("明日は洗濯できる？")
	post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0])
	if post.Content != "明日は洗濯日和です。" {
		t.Fatalf("reply = %q", post.Content)
	}
	req := r.llm.ChatRequests()[0]
	if req.Messages[0].Role != "system" || !strings.Contains(req.Messages[0].Content, "最高気温 18℃") {
		t.Fatalf("the forecast is not in the system prompt: %q", req.Messages[0].Content)
	}
	// The model is told who asked (several people share a channel's chat).
	if !strings.Contains(req.Messages[0].Content, `from the Discord user "`+discordtest.DefaultAuthorName+`"`) {
		t.Fatalf("the asker is not named in the system prompt: %q", req.Messages[0].Content)
	}
	if req.Model != "fake-model" {
		t.Fatalf("model = %q, want DEFAULT_MODEL's", req.Model)
	}
}

func TestTheSmallTalkBranchPointsToTheTipsAndPostsOne(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	// 暇 wins over 天気: small talk comes before weather in the seed's order.
	r.mention("暇だし天気の話でもしよう")
	post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0])
	if !strings.Contains(post.Content, "どうでもいいTips") || !strings.Contains(post.Content, "タコの心臓は3つあります。") {
		t.Fatalf("reply = %q", post.Content)
	}
	if n := len(r.llm.ChatRequests()); n != 0 {
		t.Fatalf("small talk made %d model requests, want 0", n)
	}
	if len(r.tips.hints) != 1 || r.tips.hints[0] != "暇だし天気の話でもしよう" {
		t.Fatalf("tip hints = %q", r.tips.hints)
	}
}

func TestAModelErrorIsAnsweredWithAShortApology(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	for range 3 { // the client tries a 500 three times
		r.llm.Enqueue(llmtest.Response{Status: 500, ErrorBody: `{"error":{"message":"boom"}}`})
	}
	r.mention("こんにちは")
	post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0])
	if !strings.HasPrefix(post.Content, "⚠️ ごめんなさい") {
		t.Fatalf("reply = %q", post.Content)
	}
	// Only the kind of problem, never the error's text: it may name the
	// owner's model server, which everyone in the channel would read.
	if strings.Contains(post.Content, "boom") || strings.Contains(post.Content, "127.0.0.1") || strings.Contains(post.Content, "http") {
		t.Fatalf("the apology leaks the error's details: %q", post.Content)
	}
	if r.bot.Status().State != discord.StateConnected {
		t.Fatalf("the bot is %s after a model error", r.bot.Status().State)
	}
}

func TestABadTokenSaysSoInPlainWordsAndStopsTrying(t *testing.T) {
	r := newRig(t, "wrong-token", discordtest.Options{})
	st := waitStatus(t, r.bot, func(s discord.Status) bool { return s.ReasonCode != "" })
	if st.State != discord.StateOff {
		t.Fatalf("a bad token leaves the bot %s, want off (no more tries)", st.State)
	}
	if st.ReasonCode != string(apperr.DiscordBadToken) ||
		st.Reason != "Discord refused the bot token: check DISCORD_BOT_TOKEN in Settings" {
		t.Fatalf("status = %+v", st)
	}
	// The right token connects.
	r.bot.SetToken(discordtest.DefaultToken)
	waitState(t, r.bot, discord.StateConnected)
}

func TestMissingMessageContentIntentSaysSoInPlainWords(t *testing.T) {
	r := newRig(t, "", discordtest.Options{DisallowPrivileged: true})
	st := waitState(t, r.bot, discord.StateRetrying)
	if st.ReasonCode != string(apperr.DiscordIntentsRefused) || !strings.Contains(st.Reason, "Message Content Intent") {
		t.Fatalf("status = %+v", st)
	}
}

func TestTheBotReconnectsAfterTheConnectionDrops(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	var mu sync.Mutex
	var states []discord.State
	r.bot.OnStatus(func(s discord.Status) { mu.Lock(); states = append(states, s.State); mu.Unlock() })
	readies := make(chan struct{}, 4)
	r.bot.OnReady(func() { readies <- struct{}{} })

	r.dc.DropConnections()
	select {
	case <-readies:
	case <-time.After(waitFor):
		t.Fatalf("no ready after the drop; status %+v", r.bot.Status())
	}
	waitState(t, r.bot, discord.StateConnected)
	mu.Lock()
	got := append([]discord.State(nil), states...)
	mu.Unlock()
	if len(got) < 2 || got[0] != discord.StateRetrying || got[len(got)-1] != discord.StateConnected {
		t.Fatalf("states after the drop = %v, want retrying … connected", got)
	}
	// And it still answers.
	r.llm.Enqueue(llmtest.Text("戻りました", 1))
	r.mention("いる？")
	if post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0]); post.Content != "戻りました" {
		t.Fatalf("reply = %q", post.Content)
	}
}

func TestNotifyMentionsOnlyTheRequesterAndFailsOnADeletedChannel(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	ctx := context.Background()
	rem := reminders.Reminder{ID: 7, ChannelID: "4100", UserID: "2000", Content: "牛乳を買う", Origin: reminders.OriginDiscord}

	waitState(t, r.bot, discord.StateConnected)
	if err := r.bot.Notify(ctx, reminders.Notification{Reminder: rem}); err != nil {
		t.Fatal(err)
	}
	call := r.waitPosts(t, "4100", 1)[0]
	post := decode(t, call)
	if post.Content != "<@2000> ⏰ 牛乳を買う" || post.AllowedMentions == nil ||
		len(post.AllowedMentions.Users) != 1 || post.AllowedMentions.Users[0] != "2000" || string(post.rawParse) != "[]" {
		t.Fatalf("reminder post = %+v parse %s", post, post.rawParse)
	}
	if p := call.Pings(); len(p.Users) != 1 || p.Users[0] != "2000" || p.Everyone {
		t.Fatalf("pings = %+v", p)
	}

	r.dc.DeleteChannel("4100")
	err := r.bot.Notify(ctx, reminders.Notification{Reminder: rem})
	if apperr.CodeOf(err) != apperr.DiscordUnknownChannel || errors.Is(err, reminders.ErrNotReady) {
		t.Fatalf("Notify to a deleted channel: %v (code %s)", err, apperr.CodeOf(err))
	}
}

func TestNotifyWhileStoppedIsNotReadyAndStartReconnects(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	if err := r.bot.Stop(); err != nil {
		t.Fatal(err)
	}
	if st := r.bot.Status(); st.State != discord.StateOff {
		t.Fatalf("after Stop: %+v", st)
	}
	err := r.bot.Notify(context.Background(), reminders.Notification{Reminder: reminders.Reminder{ID: 1, ChannelID: "4000", UserID: "2000", Content: "x"}})
	if !errors.Is(err, reminders.ErrNotReady) || apperr.CodeOf(err) != apperr.DiscordNotConnected {
		t.Fatalf("Notify while stopped: %v", err)
	}
	// Switched on again (Settings), it connects and answers.
	if err := r.bot.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitState(t, r.bot, discord.StateConnected)
	r.llm.Enqueue(llmtest.Text("おかえり", 1))
	r.mention("ただいま")
	if post := decode(t, r.waitPosts(t, discordtest.DefaultChannelID, 1)[0]); post.Content != "おかえり" {
		t.Fatalf("reply after a restart = %q", post.Content)
	}
}

func TestChannelPosterPostsWithoutPings(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	p := discord.ChannelPoster{Bot: r.bot, ChannelID: "4200"}
	if err := p.Post(context.Background(), "@everyone 明日は晴れ"); err != nil {
		t.Fatal(err)
	}
	call := r.waitPosts(t, "4200", 1)[0]
	if !call.Pings().None() {
		t.Fatalf("a scheduled post pings %+v", call.Pings())
	}
}

// A reminder asked for without a keyword (the chat branch) is still the
// Discord user's: every Discord turn carries the requester, so the tools
// never act on the desktop's reminders.
func TestAnOrdinaryTurnAlsoCarriesTheRequester(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	due := time.Now().Add(48 * time.Hour).Format("2006-01-02T15:04")
	b, _ := json.Marshal(map[string]any{"index": 0, "id": "c1", "type": "function",
		"function": map[string]any{"name": "create_reminder", "arguments": `{"content":"牛乳","due":"` + due + `"}`}})
	r.llm.Enqueue(llmtest.Response{ToolCallChunks: []string{string(b)}}, llmtest.Text("了解です。", 1))
	r.mention("明後日に牛乳のこと教えて")
	r.waitPosts(t, discordtest.DefaultChannelID, 1)
	if m := r.llm.ChatRequests()[0].Model; m != "fake-model" {
		t.Fatalf("model = %q, want DEFAULT_MODEL's (not the reminder branch)", m)
	}
	rs, err := r.core.Reminders.List(context.Background(), reminders.ListOptions{})
	if err != nil || len(rs) != 1 || rs[0].Origin != reminders.OriginDiscord || rs[0].UserID != discordtest.DefaultAuthorID {
		t.Fatalf("reminders = %+v, %v", rs, err)
	}
}

// Two mentions in a row in one channel run one after the other: the second
// turn's request already carries the first reply as history.
func TestMentionsOfAChannelRunOneAtATime(t *testing.T) {
	r := newRig(t, "", discordtest.Options{})
	waitState(t, r.bot, discord.StateConnected)
	r.llm.Enqueue(llmtest.Text("一つ目の返事", 3), llmtest.Text("二つ目の返事", 1))
	r.mention("一つ目")
	r.mention("二つ目")
	calls := r.waitPosts(t, discordtest.DefaultChannelID, 2)
	if a, b := decode(t, calls[0]).Content, decode(t, calls[1]).Content; a != "一つ目の返事" || b != "二つ目の返事" {
		t.Fatalf("replies = %q, %q", a, b)
	}
	reqs := r.llm.ChatRequests()
	found := false
	for _, m := range reqs[1].Messages {
		if m.Role == "assistant" && m.Content == "一つ目の返事" {
			found = true
		}
	}
	if !found || reqs[1].LastUserMessage() != "二つ目" {
		t.Fatalf("the second turn did not follow the first: %+v", reqs[1].Messages)
	}
}
