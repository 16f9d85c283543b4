package discord

import (
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Branch is where a mention goes (the seed's order: reminder → small talk
// → weather; anything else is an ordinary chat turn).
type Branch string

// The branches of a mention.
const (
	BranchReminder  Branch = "reminder"
	BranchSmallTalk Branch = "smalltalk"
	BranchWeather   Branch = "weather"
	BranchChat      Branch = "chat"
)

// The seed's keywords (core/discord/discord_bot.py), plus English ones.
var (
	reminderWords  = []string{"リマインド", "忘れないように", "覚えといて", "アラーム"}
	reminderEN     = regexp.MustCompile(`(?i)\bremind(er|ers|ed)?\b`)
	smallTalkWords = []string{"どうでもいい", "雑談", "暇"}
	weatherWords   = []string{"天気", "洗濯", "雨"}
	weatherEN      = regexp.MustCompile(`(?i)\b(weather|laundry|rain|rainy|raining)\b`)
)

// Route picks the branch of a mention's text (the mention already
// stripped): the first that matches, in the seed's order.
func Route(text string) Branch {
	switch {
	case containsAny(text, reminderWords) || reminderEN.MatchString(text):
		return BranchReminder
	case containsAny(text, smallTalkWords):
		return BranchSmallTalk
	case containsAny(text, weatherWords) || weatherEN.MatchString(text):
		return BranchWeather
	}
	return BranchChat
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// StripMention reports whether content mentions the bot botID — as <@ID>
// or <@!ID> in the text, or in the message's mentions (a reply that pings
// the bot) — and returns the text with every mention of the bot removed
// and the text trimmed (its inner spacing, such as code indentation, is kept).
func StripMention(content, botID string, mentions []*discordgo.User) (string, bool) {
	if botID == "" {
		return strings.TrimSpace(content), false
	}
	mentioned := false
	for _, tag := range []string{"<@" + botID + ">", "<@!" + botID + ">"} {
		if strings.Contains(content, tag) {
			mentioned = true
			// "hey <@ID> what" reads "hey what", not "hey  what".
			content = strings.ReplaceAll(content, " "+tag+" ", " ")
			content = strings.ReplaceAll(content, tag, "")
		}
	}
	for _, u := range mentions {
		if u != nil && u.ID == botID {
			mentioned = true
		}
	}
	return strings.TrimSpace(content), mentioned
}
