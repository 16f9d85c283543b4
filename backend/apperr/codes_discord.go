package apperr

// Codes of the Discord connection (issue 13): the bot (backend/discord
// bot.go and its neighbours) and the scheduled posts. They live in their
// own file so they read together; the templates join the table at init.
const (
	// DiscordNoToken: the bot is switched on but DISCORD_BOT_TOKEN is empty.
	DiscordNoToken Code = "discord.noToken"
	// DiscordBadToken: Discord refused the bot token (HTTP 401 or gateway close 4004).
	DiscordBadToken Code = "discord.badToken"
	// DiscordIntentsRefused: Discord refused the bot's intents (gateway close 4014): Message Content Intent is not switched on for the bot in the Developer Portal.
	DiscordIntentsRefused Code = "discord.intentsRefused"
	// DiscordUnreachable: Discord could not be reached or the connection dropped ({detail}: the cause, English); the bot retries.
	DiscordUnreachable Code = "discord.unreachable"
	// DiscordNotConnected: something was to be posted while the bot is not connected.
	DiscordNotConnected Code = "discord.notConnected"
	// DiscordUnknownChannel: Discord channel {channel} does not exist or the bot cannot see it (404, Unknown Channel).
	DiscordUnknownChannel Code = "discord.unknownChannel"
	// DiscordForbidden: the bot may not post in Discord channel {channel} (403: missing access or permissions).
	DiscordForbidden Code = "discord.forbidden"
	// DiscordSendFailed: Discord refused a message to channel {channel} with {status}; {detail} is its message.
	DiscordSendFailed Code = "discord.sendFailed"
	// DiscordNoWebhook: a scheduled post was to go through the webhook but DISCORD_WEBHOOK_URL is empty.
	DiscordNoWebhook Code = "discord.noWebhook"
	// DiscordWebhookFailed: the Discord webhook answered {status} (an HTTP status such as "404 Not Found", or "429 Too Many Requests" twice in a row); {detail} is Discord's message ("" when none).
	DiscordWebhookFailed Code = "discord.webhookFailed"
	// DiscordChannelInvalid: {channel} is not a Discord channel id (a number, as Discord's "Copy Channel ID" gives it).
	DiscordChannelInvalid Code = "discord.channelInvalid"
)

var discordTemplates = map[Code]string{
	DiscordNoToken:        "no Discord bot token: paste it as DISCORD_BOT_TOKEN in Settings",
	DiscordBadToken:       "Discord refused the bot token: check DISCORD_BOT_TOKEN in Settings",
	DiscordIntentsRefused: "Discord refused the bot's intents: switch on Message Content Intent for the bot in the Discord Developer Portal",
	DiscordUnreachable:    "cannot reach Discord ({detail}); retrying",
	DiscordNotConnected:   "the Discord bot is not connected",
	DiscordUnknownChannel: "Discord channel {channel} does not exist or the bot cannot see it",
	DiscordForbidden:      "the bot may not post in Discord channel {channel}",
	DiscordSendFailed:     "Discord refused the message to channel {channel} ({status}): {detail}",
	DiscordNoWebhook:      "no Discord webhook URL for scheduled posts: paste it as DISCORD_WEBHOOK_URL in Settings",
	DiscordWebhookFailed:  "the Discord webhook refused the post ({status}): {detail}",
	DiscordChannelInvalid: "{channel} is not a Discord channel id: copy it with Copy Channel ID in Discord",
}

func init() {
	for c, t := range discordTemplates {
		templates[c] = t
	}
}
