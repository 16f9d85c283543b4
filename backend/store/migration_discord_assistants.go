package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// MigrationDiscordChannelAssistants adds discord_channel_assistants (issue
// 26): the assistant a Discord channel's replies use, chosen in Settings →
// Discord. It is kept apart from discord_channels, whose row goes with the
// channel's session: deleting the chat keeps the channel's choice, and a
// channel the bot has not answered yet can be given one. Deleting the
// assistant deletes the choice (the channel's chat keeps its copy).
const MigrationDiscordChannelAssistants = "20261202000024_discord_channel_assistants"

func init() {
	steps = append(steps, step{MigrationDiscordChannelAssistants, []string{
		`CREATE TABLE discord_channel_assistants (
			channel_id VARCHAR NOT NULL PRIMARY KEY,
			assistant_id INTEGER NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
			updated_at DATETIME NOT NULL)`,
		`CREATE INDEX discord_channel_assistants_assistant ON discord_channel_assistants(assistant_id)`,
	}})
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
