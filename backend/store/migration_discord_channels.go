package store

// MigrationDiscordChannels adds discord_channels: which playchat session a
// Discord channel talks in (issue 13: a channel maps to one session, visible
// and continuable in the window). Deleting the session deletes the row, so
// the channel's next mention starts a new session.
const MigrationDiscordChannels = "20261201000016_discord_channels"

// stepDiscordChannels is MigrationDiscordChannels's statements (registered in steps, migrations.go).
var stepDiscordChannels = step{MigrationDiscordChannels, []string{
	`CREATE TABLE discord_channels (
			channel_id VARCHAR NOT NULL PRIMARY KEY,
			session_id VARCHAR NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			guild_id VARCHAR NOT NULL DEFAULT '',
			name VARCHAR NOT NULL DEFAULT '',
			created_at DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
	`CREATE INDEX discord_channels_session ON discord_channels(session_id)`,
}}
