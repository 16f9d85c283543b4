package discord

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestRouteFollowsTheSeedsOrderAndKeywords(t *testing.T) {
	cases := map[string]Branch{
		"明日の9時にゴミ出しをリマインドして":         BranchReminder,
		"忘れないように言ってね":                BranchReminder,
		"これ覚えといて":                    BranchReminder,
		"7時にアラーム":                    BranchReminder,
		"Remind me to call mom at 6": BranchReminder,
		"set a reminder":             BranchReminder,
		"天気をリマインドして":                 BranchReminder, // reminder before weather
		"暇だなあ":                       BranchSmallTalk,
		"雑談しよう":                      BranchSmallTalk,
		"どうでもいい話して":                  BranchSmallTalk,
		"暇だから天気の話":                   BranchSmallTalk, // small talk before weather
		"明日の天気は？":                    BranchWeather,
		"洗濯できる？":                     BranchWeather,
		"雨降る？":                       BranchWeather,
		"Will it rain tomorrow?":     BranchWeather,
		"weather please":             BranchWeather,
		"good day for laundry?":      BranchWeather,
		"I took the train":           BranchChat, // "rain" inside a word is not weather
		"Go の goroutine について教えて":     BranchChat,
		"":                           BranchChat,
	}
	for text, want := range cases {
		if got := Route(text); got != want {
			t.Errorf("Route(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestStripMentionTakesBothFormsAndKeepsIndentation(t *testing.T) {
	text, ok := StripMention("<@1000> こんにちは", "1000", nil)
	if !ok || text != "こんにちは" {
		t.Fatalf("<@ID>: %q %v", text, ok)
	}
	text, ok = StripMention("ねえ <@!1000>\n```go\n\tfmt.Println()\n```", "1000", nil)
	if !ok || text != "ねえ \n```go\n\tfmt.Println()\n```" {
		t.Fatalf("<@!ID>: %q %v", text, ok)
	}
	if text, _ := StripMention("hey <@1000> what is up", "1000", nil); text != "hey what is up" {
		t.Fatalf("a mention mid-sentence leaves %q", text)
	}
	if _, ok := StripMention("<@2000> こんにちは", "1000", nil); ok {
		t.Fatal("another user's mention counted as the bot's")
	}
	if text, ok := StripMention("返信です", "1000", []*discordgo.User{{ID: "1000"}}); !ok || text != "返信です" {
		t.Fatalf("a reply that pings the bot: %q %v", text, ok)
	}
	if _, ok := StripMention("<@1000>", "", nil); ok {
		t.Fatal("mentioned before the bot knows its id")
	}
}
