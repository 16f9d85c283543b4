package discordtest

import (
	"strings"

	"github.com/bwmarrin/discordgo"
)

// PointAt rewrites discordgo's exported endpoint variables so that every
// Session talks to base (a fake's URL such as Server.URL, "http://127.0.0.1:PORT",
// with or without a trailing slash) instead of https://discord.com/. It
// recomputes every string variable that discordgo derives from EndpointDiscord
// at init, exactly as endpoints.go of discordgo v0.29.0 does (EndpointAPI =
// EndpointDiscord + "api/v" + APIVersion + "/", EndpointChannels, EndpointUsers,
// EndpointGateway, EndpointGatewayBot, EndpointWebhooks, …). The func-valued
// endpoints (EndpointChannelMessages, EndpointWebhookToken, …) read those
// variables when they are called, so they follow. The status page and CDN
// endpoints are left alone (nothing in a bot calls them).
//
// The returned restore puts back the previous values. The variables are
// package globals: PointAt is NOT safe for parallel tests (no t.Parallel in a
// test that uses it, and one fake per test binary at a time).
func PointAt(base string) (restore func()) {
	saved := saveEndpoints()
	setEndpoints(strings.TrimRight(base, "/") + "/")
	return func() { restoreEndpoints(saved) }
}

// endpointVars lists the string endpoints derived from EndpointDiscord.
func endpointVars() []*string {
	return []*string{
		&discordgo.EndpointDiscord,
		&discordgo.EndpointAPI,
		&discordgo.EndpointGuilds,
		&discordgo.EndpointChannels,
		&discordgo.EndpointUsers,
		&discordgo.EndpointGateway,
		&discordgo.EndpointGatewayBot,
		&discordgo.EndpointWebhooks,
		&discordgo.EndpointStickers,
		&discordgo.EndpointStageInstances,
		&discordgo.EndpointSKUs,
		&discordgo.EndpointVoice,
		&discordgo.EndpointVoiceRegions,
		&discordgo.EndpointNitroStickersPacks,
		&discordgo.EndpointGuildCreate,
		&discordgo.EndpointApplications,
	}
}

func saveEndpoints() []string {
	vars := endpointVars()
	out := make([]string, len(vars))
	for i, p := range vars {
		out[i] = *p
	}
	return out
}

func restoreEndpoints(saved []string) {
	for i, p := range endpointVars() {
		*p = saved[i]
	}
}

// setEndpoints mirrors the var block of discordgo's endpoints.go.
func setEndpoints(discord string) {
	discordgo.EndpointDiscord = discord
	discordgo.EndpointAPI = discordgo.EndpointDiscord + "api/v" + discordgo.APIVersion + "/"
	discordgo.EndpointGuilds = discordgo.EndpointAPI + "guilds/"
	discordgo.EndpointChannels = discordgo.EndpointAPI + "channels/"
	discordgo.EndpointUsers = discordgo.EndpointAPI + "users/"
	discordgo.EndpointGateway = discordgo.EndpointAPI + "gateway"
	discordgo.EndpointGatewayBot = discordgo.EndpointGateway + "/bot"
	discordgo.EndpointWebhooks = discordgo.EndpointAPI + "webhooks/"
	discordgo.EndpointStickers = discordgo.EndpointAPI + "stickers/"
	discordgo.EndpointStageInstances = discordgo.EndpointAPI + "stage-instances"
	discordgo.EndpointSKUs = discordgo.EndpointAPI + "skus"
	discordgo.EndpointVoice = discordgo.EndpointAPI + "/voice/"
	discordgo.EndpointVoiceRegions = discordgo.EndpointVoice + "regions"
	discordgo.EndpointNitroStickersPacks = discordgo.EndpointAPI + "/sticker-packs"
	discordgo.EndpointGuildCreate = discordgo.EndpointAPI + "guilds"
	discordgo.EndpointApplications = discordgo.EndpointAPI + "applications"
}
