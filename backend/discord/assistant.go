package discord

import (
	"context"
	"errors"
	"strings"

	"playchat/backend/apperr"
	"playchat/backend/assistant"
	"playchat/backend/store"
)

// A Discord channel can be given an assistant (issue 26, Settings →
// Discord): its system prompt, model, sampling parameters, layers and
// knowledge-base folder apply to the bot's replies in that channel only.
// They are copied into the channel's chat, as a new chat copies its
// assistant, so the window shows them in the chat's settings; the copy
// follows the assistant: when it was edited since, the next reply applies
// the new version first. The assistant's pinned note pages are not pinned:
// a channel's replies are read by everybody in it.

// Channel is a Discord channel as Settings → Discord lists it.
type Channel struct {
	// ID is Discord's channel snowflake.
	ID string `json:"id"`
	// Name is the channel's name ("" for a DM or a channel the bot has not
	// answered in yet).
	Name string `json:"name"`
	// GuildID is the server's snowflake ("" for a DM or not seen yet).
	GuildID string `json:"guildId"`
	// SessionID is the channel's chat ("" when it has none yet).
	SessionID string `json:"sessionId"`
	// AssistantID is the channel's assistant (0: none).
	AssistantID int64 `json:"assistantId"`
}

// Channels lists the channels the bot talks in and those given an
// assistant.
func Channels(ctx context.Context, db *store.DB) ([]Channel, error) {
	rows, err := db.DiscordChannelRows(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Channel, len(rows))
	for i, r := range rows {
		out[i] = Channel{ID: r.ChannelID, Name: r.Name, GuildID: r.GuildID, SessionID: r.SessionID, AssistantID: r.AssistantID}
	}
	return out, nil
}

// validChannelID reports whether id looks like a Discord snowflake.
func validChannelID(id string) bool {
	if id == "" || len(id) > 20 {
		return false
	}
	return strings.Trim(id, "0123456789") == ""
}

// SetChannelAssistant gives Discord channel channelID assistant assistantID
// (0: none) and applies it to the channel's chat at once, so the window's
// chat settings show it before the next reply. Removing the assistant
// returns the chat to the defaults.
func SetChannelAssistant(ctx context.Context, db *store.DB, as *assistant.Service, channelID string, assistantID int64) error {
	channelID = strings.TrimSpace(channelID)
	if !validChannelID(channelID) {
		return apperr.New(apperr.DiscordChannelInvalid, map[string]any{"channel": channelID})
	}
	var a *assistant.Assistant
	if assistantID != 0 {
		got, err := as.Get(ctx, assistantID)
		if err != nil {
			return err
		}
		a = &got
	}
	if err := db.SetChannelAssistant(ctx, channelID, assistantID); err != nil {
		return err
	}
	c, err := db.DiscordChannelByID(ctx, channelID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // no chat yet: its first reply applies the assistant
	}
	if err != nil {
		return err
	}
	sess, err := db.GetSession(ctx, c.SessionID)
	if err != nil {
		return err
	}
	if a == nil && sess.AssistantID == nil {
		return nil // the chat has no assistant's copy to take back
	}
	return applyToChat(ctx, db, sess.ID, a)
}

// applyToChat copies a's settings and model into chat sessionID and records
// the version; a nil a returns the chat to every default.
func applyToChat(ctx context.Context, db *store.DB, sessionID string, a *assistant.Assistant) error {
	var cs store.ChatSettings
	var id *int64
	version := 0
	if a != nil {
		cs, id, version = a.Settings, &a.ID, a.Version
	}
	model := strings.TrimSpace(cs.Model)
	cs.Model = ""
	if _, err := db.SetSessionSettings(ctx, sessionID, cs); err != nil {
		return err
	}
	// The assistant's model, or the default when it names none (a model
	// of the assistant before must not stay).
	if _, err := db.SetSessionModel(ctx, sessionID, model); err != nil {
		return err
	}
	return db.SetSessionAssistant(ctx, sessionID, id, version)
}

// followAssistant brings the channel's chat up to its assistant's current
// version before a reply (the assistant was chosen before the chat existed,
// or edited since), and returns the session as it is now.
func (b *Bot) followAssistant(ctx context.Context, channelID string, sess store.Session) (store.Session, error) {
	id, err := b.o.DB.ChannelAssistant(ctx, channelID)
	if err != nil || id == 0 {
		return sess, err
	}
	a, err := b.assistants().Get(ctx, id)
	if apperr.CodeOf(err) == apperr.AssistantNotFound {
		return sess, nil // deleted between the two reads
	}
	if err != nil {
		return sess, err
	}
	if sess.AssistantID != nil && *sess.AssistantID == a.ID && sess.AssistantVersion == a.Version {
		return sess, nil
	}
	if err := applyToChat(ctx, b.o.DB, sess.ID, &a); err != nil {
		return sess, err
	}
	return b.o.DB.GetSession(ctx, sess.ID)
}

// assistants is Options.Assistants, or the assistants of Options.DB.
func (b *Bot) assistants() *assistant.Service {
	if b.o.Assistants != nil {
		return b.o.Assistants
	}
	return assistant.New(b.o.DB)
}
