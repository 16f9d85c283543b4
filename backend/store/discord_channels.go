package store

// The discord_channels and discord_channel_assistants tables (their
// migrations: migration_discord_channels.go, migration_discord_assistants.go).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

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

// DiscordChannelAssistant is one row of discord_channel_assistants.
type DiscordChannelAssistant struct {
	bun.BaseModel `bun:"table:discord_channel_assistants"`

	// ChannelID is Discord's channel snowflake.
	ChannelID string `bun:"channel_id,pk"`
	// AssistantID is the assistant (assistants.id).
	AssistantID int64 `bun:"assistant_id"`
	// UpdatedAt is when the choice was made (UTC).
	UpdatedAt time.Time `bun:"updated_at"`
}

// ChannelAssistant returns the assistant chosen for Discord channel
// channelID, 0 when none.
func (d *DB) ChannelAssistant(ctx context.Context, channelID string) (int64, error) {
	var c DiscordChannelAssistant
	err := d.bun.NewSelect().Model(&c).Where("channel_id = ?", channelID).Scan(ctx)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		return 0, err
	}
	return c.AssistantID, nil
}

// SetChannelAssistant chooses assistant assistantID for Discord channel
// channelID; 0 removes the choice. The assistant must exist (a foreign key).
func (d *DB) SetChannelAssistant(ctx context.Context, channelID string, assistantID int64) error {
	if channelID == "" {
		return errors.New("discord channel assistant: the channel id is required")
	}
	if assistantID == 0 {
		_, err := d.bun.NewDelete().Model((*DiscordChannelAssistant)(nil)).Where("channel_id = ?", channelID).Exec(ctx)
		return err
	}
	c := DiscordChannelAssistant{ChannelID: channelID, AssistantID: assistantID, UpdatedAt: now()}
	_, err := d.bun.NewInsert().Model(&c).
		On("CONFLICT (channel_id) DO UPDATE").
		Set("assistant_id = EXCLUDED.assistant_id, updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	if err != nil {
		return fmt.Errorf("set the assistant of discord channel %s: %w", channelID, err)
	}
	return nil
}

// DiscordChannelRow is a Discord channel as Settings → Discord lists it:
// every channel the bot talks in (discord_channels) and every channel given
// an assistant, once each.
type DiscordChannelRow struct {
	// ChannelID is Discord's channel snowflake.
	ChannelID string `bun:"channel_id"`
	// Name is the channel's name ("" for a DM or a channel not seen yet).
	Name string `bun:"name"`
	// GuildID is the server's snowflake ("" for a DM or not seen yet).
	GuildID string `bun:"guild_id"`
	// SessionID is the channel's chat ("" when it has none).
	SessionID string `bun:"session_id"`
	// AssistantID is the channel's assistant (0: none).
	AssistantID int64 `bun:"assistant_id"`
}

// DiscordChannelRows lists the channels for Settings → Discord, by name
// then id.
func (d *DB) DiscordChannelRows(ctx context.Context) ([]DiscordChannelRow, error) {
	var rows []DiscordChannelRow
	err := d.bun.NewRaw(`
		SELECT * FROM (SELECT c.channel_id, c.name, c.guild_id, c.session_id, COALESCE(a.assistant_id, 0) AS assistant_id
		FROM discord_channels c LEFT JOIN discord_channel_assistants a ON a.channel_id = c.channel_id
		UNION ALL
		SELECT a.channel_id, '' AS name, '' AS guild_id, '' AS session_id, a.assistant_id
		FROM discord_channel_assistants a
		WHERE NOT EXISTS (SELECT 1 FROM discord_channels c WHERE c.channel_id = a.channel_id)
		) ORDER BY name = '', name, channel_id`).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("list discord channels: %w", err)
	}
	return rows, nil
}
