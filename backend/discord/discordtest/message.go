package discordtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// MaxContentRunes is Discord's limit on a message's content, in code points;
// a longer content gets 400 Invalid Form Body (code 50035), as on Discord.
const MaxContentRunes = 2000

// Defaults for Inject.
const (
	DefaultGuildID    = "3000"
	DefaultChannelID  = "4000"
	DefaultAuthorID   = "2000"
	DefaultAuthorName = "alice"
)

// discordEpoch is the first second of 2015 in Unix milliseconds (snowflake epoch).
const discordEpoch = 1420070400000

// MessageCreate describes a user's message for Inject. Zero fields take the Default* values.
type MessageCreate struct {
	ID        string // "" → a new snowflake
	ChannelID string // "" → DefaultChannelID
	// GuildID is the guild of the channel; "" → DefaultGuildID unless DM is set.
	GuildID string
	// DM makes it a direct message (no guild_id; needs the DIRECT_MESSAGES intent).
	DM         bool
	AuthorID   string // "" → DefaultAuthorID
	AuthorName string // "" → DefaultAuthorName (username and global_name)
	// AuthorNick is the author's server nickname (member.nick; guild messages only).
	AuthorNick string
	AuthorBot  bool
	Content    string
	// Mentions are user IDs mentioned besides the <@ID>/<@!ID> found in Content.
	Mentions []string
}

// Pings is what a message actually pings once allowed_mentions is applied.
type Pings struct {
	Users    []string // user IDs pinged
	Roles    []string // role IDs pinged
	Everyone bool     // @everyone or @here pinged
}

// None reports whether the message pings nobody.
func (p Pings) None() bool { return len(p.Users) == 0 && len(p.Roles) == 0 && !p.Everyone }

var (
	userMentionRe = regexp.MustCompile(`<@!?([0-9]+)>`)
	roleMentionRe = regexp.MustCompile(`<@&([0-9]+)>`)
	everyoneRe    = regexp.MustCompile(`@(everyone|here)\b`)
)

// sendBody is the part of a create-message body the fake looks at.
type sendBody struct {
	Content         string                            `json:"content"`
	Embeds          []*discordgo.MessageEmbed         `json:"embeds"`
	StickerIDs      []string                          `json:"sticker_ids"`
	AllowedMentions *discordgo.MessageAllowedMentions `json:"allowed_mentions"`
	Reference       *discordgo.MessageReference       `json:"message_reference"`
	Attachments     []json.RawMessage                 `json:"attachments"`
}

// Pings returns who a create-message call (channel message or webhook) pings:
// the <@ID>, <@!ID>, <@&ID>, @everyone and @here in its content, filtered by
// its allowed_mentions as Discord does (absent allowed_mentions = everything
// parsed). A body that is not a message gives zero Pings.
func (c Call) Pings() Pings {
	var b sendBody
	if err := json.Unmarshal(c.Body, &b); err != nil {
		return Pings{}
	}
	p, _ := pingsFor(b.Content, b.AllowedMentions)
	return p
}

// pingsFor applies allowed_mentions to content; an error is Discord's 400 for
// parse and an explicit list of the same kind together.
func pingsFor(content string, am *discordgo.MessageAllowedMentions) (Pings, *apiError) {
	parseAll := am == nil
	has := func(t discordgo.AllowedMentionType) bool {
		return parseAll || slices.Contains(am.Parse, t)
	}
	if am != nil {
		if has(discordgo.AllowedMentionTypeUsers) && len(am.Users) > 0 {
			e := invalidForm(`allowed_mentions: parse:["users"] and users: [ids] are mutually exclusive`)
			return Pings{}, &e
		}
		if has(discordgo.AllowedMentionTypeRoles) && len(am.Roles) > 0 {
			e := invalidForm(`allowed_mentions: parse:["roles"] and roles: [ids] are mutually exclusive`)
			return Pings{}, &e
		}
	}
	var p Pings
	for _, g := range userMentionRe.FindAllStringSubmatch(content, -1) {
		if (has(discordgo.AllowedMentionTypeUsers) || slices.Contains(am.Users, g[1])) && !slices.Contains(p.Users, g[1]) {
			p.Users = append(p.Users, g[1])
		}
	}
	for _, g := range roleMentionRe.FindAllStringSubmatch(content, -1) {
		if (has(discordgo.AllowedMentionTypeRoles) || slices.Contains(am.Roles, g[1])) && !slices.Contains(p.Roles, g[1]) {
			p.Roles = append(p.Roles, g[1])
		}
	}
	p.Everyone = everyoneRe.MatchString(content) && has(discordgo.AllowedMentionTypeEveryone)
	return p, nil
}

// snowflakeLocked returns a new, increasing snowflake ID; s.mu must be held.
func (s *Server) snowflakeLocked() string {
	id := uint64(s.opts.Now().UnixMilli()-discordEpoch) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return strconv.FormatUint(id, 10)
}

// userLocked returns the user for id: the bot, an author seen before, or a stand-in.
func (s *Server) userLocked(id string) *discordgo.User {
	if id == s.opts.BotUser.ID {
		u := s.opts.BotUser
		return &u
	}
	if u, ok := s.users[id]; ok {
		return &u
	}
	return &discordgo.User{ID: id, Username: "user" + id}
}

// validateSend checks a create-message body as Discord does; status 0 means fine.
func validateSend(b sendBody, multipart bool) (int, any, Pings) {
	if b.Content == "" && len(b.Embeds) == 0 && len(b.StickerIDs) == 0 && len(b.Attachments) == 0 && !multipart {
		return 400, errEmptyMessage, Pings{}
	}
	if n := len([]rune(b.Content)); n > MaxContentRunes {
		return 400, invalidForm(fmt.Sprintf("content: must be %d or fewer in length, got %d", MaxContentRunes, n)), Pings{}
	}
	p, e := pingsFor(b.Content, b.AllowedMentions)
	if e != nil {
		return 400, *e, Pings{}
	}
	return 0, nil, p
}

// postMessage answers POST /channels/{id}/messages and echoes MESSAGE_CREATE.
func (s *Server) postMessage(r *http.Request, channelID string, body json.RawMessage) (int, any) {
	ch, ok := s.channel(channelID)
	if !ok {
		return 404, errUnknownChannel
	}
	var b sendBody
	if err := json.Unmarshal(body, &b); err != nil {
		return 400, invalidForm("body is not a JSON object")
	}
	status, errBody, pings := validateSend(b, isMultipart(r))
	if status != 0 {
		return status, errBody
	}
	s.mu.Lock()
	author := s.opts.BotUser
	msg := &discordgo.Message{
		ID: s.snowflakeLocked(), ChannelID: channelID, GuildID: ch.GuildID,
		Content: b.Content, Timestamp: s.opts.Now().UTC(), Author: &author,
		Embeds: b.Embeds, Type: discordgo.MessageTypeDefault,
		MentionRoles: append([]string{}, pings.Roles...), MentionEveryone: pings.Everyone,
		Mentions: []*discordgo.User{}, Attachments: []*discordgo.MessageAttachment{},
	}
	if msg.Embeds == nil {
		msg.Embeds = []*discordgo.MessageEmbed{}
	}
	if b.Reference != nil {
		msg.Type = discordgo.MessageTypeReply
		msg.MessageReference = b.Reference
	}
	for _, id := range pings.Users {
		msg.Mentions = append(msg.Mentions, s.userLocked(id))
	}
	s.messages[msg.ID] = msg
	s.mu.Unlock()
	if !s.opts.NoEcho {
		s.dispatchMessage(msg)
	}
	return 200, msg
}

func isMultipart(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/")
}

// executeWebhook answers POST /webhooks/{id}/{token}: 204, or the message with ?wait=true.
func (s *Server) executeWebhook(r *http.Request, webhookID string, body json.RawMessage) (int, any) {
	var b sendBody
	if err := json.Unmarshal(body, &b); err != nil {
		return 400, invalidForm("body is not a JSON object")
	}
	status, errBody, pings := validateSend(b, isMultipart(r))
	if status != 0 {
		return status, errBody
	}
	if r.URL.Query().Get("wait") != "true" {
		return 204, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := &discordgo.Message{
		ID: s.snowflakeLocked(), ChannelID: "0", WebhookID: webhookID, Content: b.Content,
		Timestamp: s.opts.Now().UTC(), Author: &discordgo.User{ID: webhookID, Username: "webhook", Bot: true},
		MentionRoles: append([]string{}, pings.Roles...), MentionEveryone: pings.Everyone,
		Mentions: []*discordgo.User{}, Embeds: b.Embeds,
	}
	for _, id := range pings.Users {
		msg.Mentions = append(msg.Mentions, s.userLocked(id))
	}
	return 200, msg
}

// Inject dispatches MESSAGE_CREATE for a user's message to every gateway
// session (live sockets now; a dropped session gets it on RESUME), as Discord
// would: mentions hold the users of every <@ID>/<@!ID> in Content (the bot
// user when its ID is mentioned) plus m.Mentions; content is blanked for a
// session without the MESSAGE_CONTENT intent unless the message is a DM or
// mentions the bot; a session without GUILD_MESSAGES (DIRECT_MESSAGES for a DM)
// does not get it. It returns the message as sent.
func (s *Server) Inject(m MessageCreate) *discordgo.Message {
	if m.ChannelID == "" {
		m.ChannelID = DefaultChannelID
	}
	if m.GuildID == "" && !m.DM {
		m.GuildID = DefaultGuildID
	}
	if m.DM {
		m.GuildID = ""
	}
	if m.AuthorID == "" {
		m.AuthorID = DefaultAuthorID
	}
	if m.AuthorName == "" {
		m.AuthorName = DefaultAuthorName
	}
	s.mu.Lock()
	author := discordgo.User{ID: m.AuthorID, Username: m.AuthorName, GlobalName: m.AuthorName, Bot: m.AuthorBot}
	s.users[author.ID] = author
	if _, ok := s.channels[m.ChannelID]; !ok {
		ch := &discordgo.Channel{ID: m.ChannelID, GuildID: m.GuildID, Type: discordgo.ChannelTypeGuildText, Name: "channel-" + m.ChannelID}
		if m.DM {
			ch.Type, ch.Name, ch.Recipients = discordgo.ChannelTypeDM, "", []*discordgo.User{&author}
		}
		s.channels[m.ChannelID] = ch
	}
	if m.ID == "" {
		m.ID = s.snowflakeLocked()
	}
	now := s.opts.Now().UTC()
	msg := &discordgo.Message{
		ID: m.ID, ChannelID: m.ChannelID, GuildID: m.GuildID, Content: m.Content,
		Timestamp: now, Author: &author, Type: discordgo.MessageTypeDefault,
		Mentions: []*discordgo.User{}, MentionRoles: []string{},
		Embeds: []*discordgo.MessageEmbed{}, Attachments: []*discordgo.MessageAttachment{},
		MentionEveryone: everyoneRe.MatchString(m.Content),
	}
	seen := map[string]bool{}
	ids := []string{}
	for _, g := range userMentionRe.FindAllStringSubmatch(m.Content, -1) {
		ids = append(ids, g[1])
	}
	ids = append(ids, m.Mentions...)
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			msg.Mentions = append(msg.Mentions, s.userLocked(id))
		}
	}
	for _, g := range roleMentionRe.FindAllStringSubmatch(m.Content, -1) {
		msg.MentionRoles = append(msg.MentionRoles, g[1])
	}
	if m.GuildID != "" {
		msg.Member = &discordgo.Member{JoinedAt: now.Add(-24 * time.Hour), Nick: m.AuthorNick, Roles: []string{}}
	}
	s.mu.Unlock()
	s.dispatchMessage(msg)
	return msg
}

// dispatchMessage sends MESSAGE_CREATE for msg to every session, filtered by its intents.
func (s *Server) dispatchMessage(msg *discordgo.Message) {
	mentionsBot := false
	for _, u := range msg.Mentions {
		if u.ID == s.opts.BotUser.ID {
			mentionsBot = true
		}
	}
	dm := msg.GuildID == ""
	s.dispatch("MESSAGE_CREATE", func(intents discordgo.Intent) (any, bool) {
		need := discordgo.IntentGuildMessages
		if dm {
			need = discordgo.IntentDirectMessages
		}
		if intents&need == 0 {
			return nil, false
		}
		if intents&discordgo.IntentMessageContent == 0 && !dm && !mentionsBot && msg.Author.ID != s.opts.BotUser.ID {
			blank := *msg
			blank.Content = ""
			blank.Embeds = []*discordgo.MessageEmbed{}
			blank.Attachments = []*discordgo.MessageAttachment{}
			return &blank, true
		}
		return msg, true
	})
}
