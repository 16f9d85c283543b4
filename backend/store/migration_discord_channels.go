package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// MigrationDiscordChannels adds discord_channels: which playchat session a
// Discord channel talks in (issue 13: a channel maps to one session, visible
// and continuable in the window). Deleting the session deletes the row, so
// the channel's next mention starts a new session.
const MigrationDiscordChannels = "20261201000016_discord_channels"

func init() {
	steps = append(steps, step{MigrationDiscordChannels, []string{
		`CREATE TABLE discord_channels (
			channel_id VARCHAR NOT NULL PRIMARY KEY,
			session_id VARCHAR NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			guild_id VARCHAR NOT NULL DEFAULT '',
			name VARCHAR NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
		`CREATE INDEX discord_channels_session ON discord_channels(session_id)`,
	}})
}

// DiscordChannel is one row of discord_channels: the playchat session a
// Discord channel (or DM) talks in.
type DiscordChannel struct {
	bun.BaseModel `bun:"table:discord_channels"`

	// ChannelID is Discord's channel snowflake (a DM has one too).
	ChannelID string `bun:"channel_id,pk"`
	// SessionID is the playchat session (sessions.id).
	SessionID string `bun:"session_id"`
	// GuildID is the server's snowflake; "" for a DM.
	GuildID string `bun:"guild_id"`
	// Name is the channel's name when the row was made ("" for a DM).
	Name string `bun:"name"`
	// CreatedAt is when the channel was first mapped (UTC).
	CreatedAt time.Time `bun:"created_at"`
}

// DiscordChannelByID returns the mapping of a Discord channel, or an error
// wrapping ErrNotFound when the channel has none (never mentioned, or its
// session was deleted).
func (d *DB) DiscordChannelByID(ctx context.Context, channelID string) (DiscordChannel, error) {
	var c DiscordChannel
	err := d.bun.NewSelect().Model(&c).Where("channel_id = ?", channelID).Scan(ctx)
	if err != nil {
		return DiscordChannel{}, notFound(err, "discord channel "+channelID)
	}
	return c, nil
}

// SetDiscordChannel maps a Discord channel to a session, replacing any
// earlier mapping of the channel. CreatedAt is set to now when zero.
func (d *DB) SetDiscordChannel(ctx context.Context, c DiscordChannel) error {
	if c.ChannelID == "" || c.SessionID == "" {
		return errors.New("discord channel: channel and session ids are required")
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now()
	}
	_, err := d.bun.NewInsert().Model(&c).
		On("CONFLICT (channel_id) DO UPDATE").
		Set("session_id = EXCLUDED.session_id, guild_id = EXCLUDED.guild_id, name = EXCLUDED.name, created_at = EXCLUDED.created_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("set discord channel %s: %w", c.ChannelID, err)
	}
	return nil
}
