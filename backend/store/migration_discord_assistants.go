package store

// MigrationDiscordChannelAssistants adds discord_channel_assistants (issue
// 26): the assistant a Discord channel's replies use, chosen in Settings →
// Discord. It is kept apart from discord_channels, whose row goes with the
// channel's session: deleting the chat keeps the channel's choice, and a
// channel the bot has not answered yet can be given one. Deleting the
// assistant deletes the choice (the channel's chat keeps its copy).
const MigrationDiscordChannelAssistants = "20261202000024_discord_channel_assistants"

// stepDiscordChannelAssistants is MigrationDiscordChannelAssistants's statements (registered in steps, migrations.go).
var stepDiscordChannelAssistants = step{MigrationDiscordChannelAssistants, []string{
	`CREATE TABLE discord_channel_assistants (
			channel_id VARCHAR NOT NULL PRIMARY KEY,
			assistant_id INTEGER NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
			updated_at DATETIME NOT NULL)`,
	`CREATE INDEX discord_channel_assistants_assistant ON discord_channel_assistants(assistant_id)`,
}}
