package discord

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/store"
	"playchat/backend/tools"
)

// maxQueued is how many mentions of one channel may wait for their turn;
// more are dropped (logged), so a flood cannot queue work for hours.
const maxQueued = 20

// typingEvery renews the typing indicator (Discord shows it ~10 s).
const typingEvery = 8 * time.Second

// Reply texts of the branches that do not come from the model.
const (
	// emptyMentionReply answers a bare mention.
	emptyMentionReply = "はい、なんでしょう？ メンションのあとに話しかけてください（リマインド・天気・雑談もどうぞ）。"
	// smallTalkPointer leads the small-talk reply.
	smallTalkPointer = "雑談なら『どうでもいいTips』がおすすめです。ひとつどうぞ："
	// noTipReply is the small-talk reply when no tip could be written.
	noTipReply = "雑談なら『どうでもいいTips』がおすすめです（いまは Tips を用意できませんでした"
	// emptyReply stands in for a model reply with no text.
	emptyReply = "（返答が空でした。言い方を変えてもう一度どうぞ）"
	// noForecast tells the model the forecast is missing.
	noForecast = "明日の天気予報は取得できませんでした"
)

// job is one mention waiting for its turn.
type job struct {
	msg  *discordgo.MessageCreate
	text string // the mention stripped
}

// channelQueue runs the mentions of one channel one at a time.
type channelQueue struct {
	jobs    []job
	running bool
}

// onMessageCreate queues a message that mentions the bot (not from a bot,
// not our own) for its channel's worker.
func (b *Bot) onMessageCreate(s *discordgo.Session, m *discordgo.MessageCreate) {
	if m == nil || m.Message == nil || m.Author == nil || m.Author.Bot {
		return
	}
	b.mu.Lock()
	botID := b.botID
	if botID == "" && s.State != nil && s.State.User != nil {
		botID = s.State.User.ID
	}
	b.mu.Unlock()
	if m.Author.ID == botID {
		return
	}
	text, mentioned := StripMention(m.Content, botID, m.Mentions)
	if !mentioned {
		return
	}
	b.enqueue(job{msg: m, text: text})
}

// enqueue adds j to its channel's queue and starts the worker if idle.
func (b *Bot) enqueue(j job) {
	b.qmu.Lock()
	defer b.qmu.Unlock()
	if b.stopped {
		return
	}
	ch := j.msg.ChannelID
	q := b.queues[ch]
	if q == nil {
		q = &channelQueue{}
		b.queues[ch] = q
	}
	if len(q.jobs) >= maxQueued {
		b.log.Warn("discord: too many mentions waiting; dropped one", "channel", ch, "message", j.msg.ID)
		return
	}
	q.jobs = append(q.jobs, j)
	if !q.running {
		q.running = true
		b.workers.Add(1)
		go b.drain(ch, q)
	}
}

// drain runs the channel's queued mentions in order, then exits.
func (b *Bot) drain(ch string, q *channelQueue) {
	defer b.workers.Done()
	for {
		b.qmu.Lock()
		if len(q.jobs) == 0 || b.stopped {
			q.running = false
			delete(b.queues, ch)
			b.qmu.Unlock()
			return
		}
		j := q.jobs[0]
		q.jobs = q.jobs[1:]
		b.qmu.Unlock()
		b.handle(j)
	}
}

// handle answers one mention: the typing indicator while working, the
// branch's reply, and an apology naming the problem when it fails. A panic
// is logged and answered with an apology; it never takes the app down.
func (b *Bot) handle(j job) {
	b.mu.Lock()
	ctx := b.runCtx
	b.mu.Unlock()
	if ctx == nil || ctx.Err() != nil {
		return
	}
	m := j.msg
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("discord: handling a mention panicked", "panic", p, "stack", string(debug.Stack()))
			b.reply(ctx, m, apology(fmt.Errorf("internal error: %v", p)))
		}
	}()
	stopTyping := b.typing(ctx, m.ChannelID)
	defer stopTyping()

	text := j.text
	if text == "" {
		b.reply(ctx, m, emptyMentionReply)
		return
	}
	branch := Route(text)
	b.log.Info("discord mention", "channel", m.ChannelID, "user", m.Author.ID, "branch", branch)
	var out string
	var err error
	switch branch {
	case BranchReminder:
		out, err = b.turn(ctx, m, text, b.reminderModel(), nil)
	case BranchSmallTalk:
		out = b.smallTalk(ctx, m.ChannelID, text)
	case BranchWeather:
		var extra string
		if b.o.Weather == nil {
			extra = noForecast + "（天気の取得が設定されていません）。そのことを伝えてください。"
		} else if fc, ferr := b.o.Weather.TomorrowText(ctx); ferr != nil {
			b.log.Warn("discord: forecast", "err", ferr)
			extra = noForecast + "（" + shorten(ferr.Error(), 200) + "）。そのことを伝えてください。"
		} else {
			extra = "気象庁の明日の予報（これに基づいて答えてください）:\n" + fc
		}
		out, err = b.turn(ctx, m, text, "", []string{extra})
	default:
		out, err = b.turn(ctx, m, text, "", nil)
	}
	if ctx.Err() != nil {
		return // stopped: nothing more is posted
	}
	if err == nil && strings.TrimSpace(out) == "" {
		out = emptyReply
	}
	if err != nil {
		b.log.Warn("discord: reply failed", "channel", m.ChannelID, "branch", branch, "err", err)
		if strings.TrimSpace(out) != "" {
			out += "\n\n" + apology(err)
		} else {
			out = apology(err)
		}
	}
	b.reply(ctx, m, out)
}

// apology is the short reply of a turn that failed. It names the kind of
// problem by its error code only: the error's text may hold the addresses
// of the owner's model servers or other internals, which everybody in the
// channel would read (the full error goes to the log).
func apology(err error) string {
	code := string(apperr.CodeOf(err))
	if code == "" {
		code = "internal"
	}
	return "⚠️ ごめんなさい、うまく返答できませんでした（" + code + "）。I could not answer this time."
}

// smallTalk is the small-talk branch: a pointer to the tips and one tip
// near the text's topic, drawn from the channel's own chat only (ChannelSessions).
func (b *Bot) smallTalk(ctx context.Context, channelID, text string) string {
	if b.o.Tips == nil {
		return noTipReply + "）。"
	}
	tip, err := b.o.Tips.Tip(ctx, text, ChannelSessions(ctx, b.o.DB, channelID))
	if err != nil || strings.TrimSpace(tip) == "" {
		if err == nil {
			err = errors.New("empty tip")
		}
		b.log.Warn("discord: tip", "err", err)
		return noTipReply + ": " + shorten(err.Error(), 200) + "）。"
	}
	return smallTalkPointer + "\n\n" + strings.TrimSpace(tip)
}

// ChannelSessions is what a post to Discord channel channelID may draw on:
// the channel's own chat (discord_channels), none when it has no chat yet
// or db is nil. Nothing the owner wrote in the window's other chats may
// reach a post (issue 21).
func ChannelSessions(ctx context.Context, db *store.DB, channelID string) []string {
	if db == nil || channelID == "" {
		return nil
	}
	c, err := db.DiscordChannelByID(ctx, channelID)
	if err != nil {
		return nil
	}
	return []string{c.SessionID}
}

// reminderModel is REMINDER_MODEL → WEATHER_NOTIFY_MODEL → DEFAULT_MODEL
// ("" when no Config: chat chooses).
func (b *Bot) reminderModel() string {
	if b.o.Config == nil {
		return ""
	}
	c := b.o.Config()
	for _, m := range []string{c.ReminderModel, c.WeatherNotifyModel, c.DefaultModel} {
		if m = strings.TrimSpace(m); m != "" {
			return m
		}
	}
	return ""
}

// textCollector is the Emitter of a Discord turn: it keeps the streamed text.
type textCollector struct {
	mu sync.Mutex
	b  strings.Builder
}

// Emit keeps chunk text.
func (c *textCollector) Emit(e event.Event) {
	if e.Type != event.Chunk {
		return
	}
	if s, ok := e.Value.(string); ok {
		c.mu.Lock()
		c.b.WriteString(s)
		c.mu.Unlock()
	}
}

// String returns the text streamed so far.
func (c *textCollector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.b.String()
}

// turn runs one chat turn in the channel's session and returns the reply
// text (possibly partial) and the turn's error. The channel's assistant,
// if it has one, is applied to the session first (followAssistant). model
// "" keeps the session's model; a model given for this turn only (the reminder model)
// is put back afterwards so the channel's chat keeps its own. Every turn
// carries the requester, so the tools scope to that Discord user (a
// reminder set in any branch is theirs and delivered in the channel;
// list_reminders never shows the desktop's).
func (b *Bot) turn(ctx context.Context, m *discordgo.MessageCreate, text, model string, extra []string) (string, error) {
	sess, err := b.sessionFor(ctx, m)
	if err != nil {
		return "", err
	}
	if sess, err = b.followAssistant(ctx, m.ChannelID, sess); err != nil {
		return "", err
	}
	name := displayName(m.Author, m.Member)
	// Several people may talk in one channel's session: the model is told
	// who asked this time (for this turn only; the stored text stays theirs).
	who := fmt.Sprintf("This chat is a Discord channel; several people may write in it. "+
		"The latest message is from the Discord user %q: answer them.", name)
	req := chat.TurnRequest{SessionID: sess.ID, Text: text, Model: model, ExtraSystem: append([]string{who}, extra...),
		Requester: &tools.Requester{Origin: "discord", ChannelID: m.ChannelID, UserID: m.Author.ID,
			UserName: name}}
	col := &textCollector{}
	t, err := b.o.Chat.Start(ctx, req, col)
	if err != nil {
		return "", err
	}
	b.sessionChanged(sess.ID)
	defer b.sessionChanged(sess.ID)
	if model != "" && model != sess.Model {
		defer func() {
			if _, err := b.o.DB.SetSessionModel(context.WithoutCancel(ctx), sess.ID, sess.Model); err != nil {
				b.log.Warn("discord: put the session's model back", "session", sess.ID, "err", err)
			}
		}()
	}
	done := make(chan chat.Result, 1)
	go func() { done <- t.Wait() }()
	var res chat.Result
	select {
	case res = <-done:
	case <-ctx.Done():
		b.o.Chat.Stop(t.ID)
		res = <-done
	}
	out := res.Reply.Content
	if strings.TrimSpace(out) == "" {
		out = col.String()
	}
	return out, res.Err
}

// sessionFor returns the channel's session, creating it (titled
// "Discord #name") on the first mention or when its session was deleted.
func (b *Bot) sessionFor(ctx context.Context, m *discordgo.MessageCreate) (store.Session, error) {
	c, err := b.o.DB.DiscordChannelByID(ctx, m.ChannelID)
	switch {
	case err == nil:
		s, gerr := b.o.DB.GetSession(ctx, c.SessionID)
		if gerr == nil {
			return s, nil
		}
		if !errors.Is(gerr, store.ErrNotFound) {
			return store.Session{}, gerr
		}
	case !errors.Is(err, store.ErrNotFound):
		return store.Session{}, err
	}
	name, title := b.channelTitle(ctx, m)
	s, err := b.o.DB.CreateSession(ctx, title, "")
	if err != nil {
		return store.Session{}, err
	}
	if err := b.o.DB.SetDiscordChannel(ctx, store.DiscordChannel{ChannelID: m.ChannelID, SessionID: s.ID,
		GuildID: m.GuildID, Name: name}); err != nil {
		return store.Session{}, err
	}
	return s, nil
}

// channelTitle names a new channel session: "Discord #name" for a server
// channel, "Discord DM name" for a direct message, "Discord <channel id>"
// when the channel cannot be read.
func (b *Bot) channelTitle(ctx context.Context, m *discordgo.MessageCreate) (name, title string) {
	sess, _, _ := b.session()
	if sess != nil {
		if ch, err := sess.Channel(m.ChannelID, discordgo.WithContext(ctx)); err == nil && ch != nil {
			if ch.Type == discordgo.ChannelTypeDM || ch.Type == discordgo.ChannelTypeGroupDM {
				return "", "Discord DM " + displayName(m.Author, nil)
			}
			if ch.Name != "" {
				return ch.Name, "Discord #" + ch.Name
			}
		}
	}
	if m.GuildID == "" {
		return "", "Discord DM " + displayName(m.Author, nil)
	}
	return "", "Discord " + m.ChannelID
}

// typing shows the typing indicator in the channel until the returned
// function is called (renewed every typingEvery; failures are ignored).
func (b *Bot) typing(ctx context.Context, channelID string) func() {
	sess, _, ok := b.session()
	if !ok {
		return func() {}
	}
	tctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := b.clock.NewTicker(typingEvery)
		defer tick.Stop()
		for {
			_ = sess.ChannelTyping(channelID, discordgo.WithContext(tctx))
			select {
			case <-tctx.Done():
				return
			case <-tick.Chan():
			}
		}
	}()
	return func() { cancel(); <-done }
}

// reply posts text in m's channel as a reply to m, allowing a ping of its
// author only; a reply longer than MaxReplyParts messages is cut there
// (replyParts).
func (b *Bot) reply(ctx context.Context, m *discordgo.MessageCreate, text string) {
	no := false
	ref := &discordgo.MessageReference{MessageID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, FailIfNotExists: &no}
	if err := b.sendParts(ctx, m.ChannelID, replyParts(text), ref, []string{m.Author.ID}); err != nil {
		b.log.Warn("discord: could not post the reply", "channel", m.ChannelID, "err", err)
	}
}

// sessionChanged calls Options.OnSessionChange.
func (b *Bot) sessionChanged(id string) {
	if b.o.OnSessionChange != nil {
		b.o.OnSessionChange(id)
	}
}
