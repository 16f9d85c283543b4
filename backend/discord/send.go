package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"playchat/backend/apperr"
	"playchat/backend/reminders"
)

// ErrNotConnected is returned (wrapped) by Send, Notify and ChannelPoster
// while the bot is not connected. It wraps reminders.ErrNotReady, so a
// reminder waits for the bot instead of counting a failed delivery.
var ErrNotConnected = apperr.Wrap(apperr.DiscordNotConnected, reminders.ErrNotReady, nil)

// Send posts text to a channel: cut with Split at MaxMessageRunes code
// points, each part its own message, every one with AllowedMentions that
// parse nothing and allow only the users in allowUserIDs (so "@everyone",
// "<@&role>" or another user's mention in text pings nobody). Errors:
// ErrNotConnected; discord.unknownChannel (404 / 10003),
// discord.forbidden (403), discord.sendFailed (other statuses),
// discord.unreachable (network). Empty text sends nothing.
func (b *Bot) Send(ctx context.Context, channelID, text string, allowUserIDs ...string) error {
	return b.send(ctx, channelID, text, nil, allowUserIDs)
}

// send is Send with a reference (a reply) on the first part.
func (b *Bot) send(ctx context.Context, channelID, text string, ref *discordgo.MessageReference, allow []string) error {
	return b.sendParts(ctx, channelID, Split(text, MaxMessageRunes), ref, allow)
}

// MaxReplyParts caps the messages one reply is posted as: a reply may hold
// 1 MiB (a model that looped until the limit), which would be some 500
// messages flooding the channel for minutes under Discord's rate limits.
const MaxReplyParts = 10

// replyParts cuts a reply with Split and, past MaxReplyParts, keeps the
// first MaxReplyParts-1 parts and ends with a note saying how much more
// there is and that all of it is in playchat.
func replyParts(text string) []string {
	parts := Split(text, MaxMessageRunes)
	if len(parts) <= MaxReplyParts {
		return parts
	}
	shown := 0
	for _, p := range parts[:MaxReplyParts-1] {
		shown += utf8.RuneCountInString(p)
	}
	rest := max(0, utf8.RuneCountInString(text)-shown)
	note := fmt.Sprintf("✂️ 返信が長すぎるため、ここまでにしました（残り約 %d 文字は playchat のこのチャンネルのチャットにあります）。"+
		"The reply is too long for Discord: the rest (about %d characters) is in this channel's chat in playchat.", rest, rest)
	return append(parts[:MaxReplyParts-1:MaxReplyParts-1], note)
}

// sendParts posts each part as its own message, the first with ref (see Send).
func (b *Bot) sendParts(ctx context.Context, channelID string, parts []string, ref *discordgo.MessageReference, allow []string) error {
	if len(parts) == 0 {
		return nil
	}
	sess, _, ok := b.session()
	if !ok {
		return ErrNotConnected
	}
	users := make([]string, 0, len(allow))
	for _, u := range allow {
		if u = strings.TrimSpace(u); u != "" && !contains(users, u) && len(users) < 100 {
			users = append(users, u)
		}
	}
	for i, p := range parts {
		ms := &discordgo.MessageSend{Content: p, AllowedMentions: &discordgo.MessageAllowedMentions{
			Parse: []discordgo.AllowedMentionType{}, Users: users}}
		if i == 0 {
			ms.Reference = ref
		}
		if _, err := sess.ChannelMessageSendComplex(channelID, ms, discordgo.WithContext(ctx)); err != nil {
			return sendError(channelID, err)
		}
	}
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// sendError codes a failed post to channelID.
func sendError(channelID string, err error) error {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		code, msg := 0, ""
		if re.Message != nil {
			code, msg = re.Message.Code, re.Message.Message
		}
		status := re.Response.StatusCode
		switch {
		case status == 404 || code == discordgo.ErrCodeUnknownChannel:
			return apperr.Wrap(apperr.DiscordUnknownChannel, err, map[string]any{"channel": channelID})
		case status == 403 || code == discordgo.ErrCodeMissingAccess || code == discordgo.ErrCodeMissingPermissions:
			return apperr.Wrap(apperr.DiscordForbidden, err, map[string]any{"channel": channelID})
		case status == 401:
			return apperr.Wrap(apperr.DiscordBadToken, err, nil)
		}
		if msg == "" {
			msg = shorten(string(re.ResponseBody), 200)
		}
		return apperr.Wrap(apperr.DiscordSendFailed, err, map[string]any{"channel": channelID, "status": status, "detail": msg})
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return apperr.Wrap(apperr.DiscordUnreachable, err, map[string]any{"detail": shorten(err.Error(), 200)})
}

// Notify delivers a reminder set from Discord (reminders.Notifier for
// origin discord): "<@user> ⏰ content" in the reminder's channel, allowing
// a ping of that user only; a late one says it is late. Not connected →
// ErrNotConnected (wraps reminders.ErrNotReady: the reminder stays due);
// a deleted or forbidden channel → a coded error (the reminders scheduler
// retries and gives up after 5 failures).
func (b *Bot) Notify(ctx context.Context, n reminders.Notification) error {
	r := n.Reminder
	if strings.TrimSpace(r.ChannelID) == "" {
		return fmt.Errorf("discord: reminder %d has no channel", r.ID)
	}
	if _, _, ok := b.session(); !ok {
		return ErrNotConnected
	}
	text := "⏰ " + r.Content
	if r.UserID != "" {
		text = "<@" + r.UserID + "> " + text
	}
	if n.Late {
		text += "\n（playchat が止まっていたため、予定の時刻より遅れてお知らせしています）"
	}
	return b.Send(ctx, r.ChannelID, text, r.UserID)
}

// ChannelPoster posts to one channel through the bot (scheduler.Poster, for
// scheduled posts when no webhook URL is set). Its errors are Send's.
type ChannelPoster struct {
	Bot       *Bot
	ChannelID string
}

// Post sends text to the channel, pinging nobody.
func (p ChannelPoster) Post(ctx context.Context, text string) error {
	if p.Bot == nil || strings.TrimSpace(p.ChannelID) == "" {
		return errors.New("discord: ChannelPoster needs a bot and a channel id")
	}
	return p.Bot.Send(ctx, p.ChannelID, text)
}
