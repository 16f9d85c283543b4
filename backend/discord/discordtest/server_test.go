package discordtest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// failsafe bounds every wait; tests never sleep to assert.
const failsafe = 20 * time.Second

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), failsafe)
	t.Cleanup(cancel)
	return c
}

// open starts a fake, points discordgo at it and opens a session with the given token.
func open(t *testing.T, o Options, token string, intents discordgo.Intent) (*Server, *discordgo.Session, error) {
	t.Helper()
	srv := NewServer(t, o)
	t.Cleanup(PointAt(srv.URL))
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		t.Fatal(err)
	}
	s.Identify.Intents = intents
	s.LogLevel = discordgo.LogWarning
	s.SyncEvents = true // handlers in arrival order (buffered channels keep them from blocking)
	err = s.Open()
	if err == nil {
		t.Cleanup(func() { _ = s.Close() })
	}
	return srv, s, err
}

const botIntents = discordgo.IntentGuildMessages | discordgo.IntentDirectMessages | discordgo.IntentMessageContent

func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(failsafe):
		t.Fatal("failsafe timeout waiting for an event")
		panic("unreachable")
	}
}

func TestPointAtRewritesAndRestoresEndpoints(t *testing.T) {
	before := discordgo.EndpointChannelMessages("7")
	restore := PointAt("http://127.0.0.1:9/")
	for name, got := range map[string]string{
		"EndpointAPI":             discordgo.EndpointAPI,
		"EndpointGateway":         discordgo.EndpointGateway,
		"EndpointGatewayBot":      discordgo.EndpointGatewayBot,
		"EndpointChannelMessages": discordgo.EndpointChannelMessages("7"),
		"EndpointWebhookToken":    discordgo.EndpointWebhookToken("1", "tok"),
		"EndpointUser":            discordgo.EndpointUser("@me"),
		"EndpointGuildCreate":     discordgo.EndpointGuildCreate,
		"EndpointApplications":    discordgo.EndpointApplications,
	} {
		if !strings.HasPrefix(got, "http://127.0.0.1:9/api/v"+discordgo.APIVersion+"/") {
			t.Errorf("%s = %q, not under the fake", name, got)
		}
	}
	if got := discordgo.EndpointGatewayBot; got != "http://127.0.0.1:9/api/v"+discordgo.APIVersion+"/gateway/bot" {
		t.Errorf("EndpointGatewayBot = %q", got)
	}
	restore()
	if got := discordgo.EndpointChannelMessages("7"); got != before {
		t.Errorf("after restore: %q, want %q", got, before)
	}
	if discordgo.EndpointDiscord != "https://discord.com/" {
		t.Errorf("EndpointDiscord not restored: %q", discordgo.EndpointDiscord)
	}
}

func TestSessionOpensAndGetsReady(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{{"zlib payloads", Options{}}, {"text payloads", Options{NoCompress: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			srv, s, err := open(t, tc.o, DefaultToken, botIntents)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			if s.State.User == nil || s.State.User.Username != "playchat-bot" || s.State.User.ID != "1000" || !s.State.User.Bot {
				t.Fatalf("State.User = %+v, want playchat-bot/1000", s.State.User)
			}
			if srv.Connections() != 1 || srv.Readies() != 1 {
				t.Errorf("Connections=%d Readies=%d, want 1 and 1", srv.Connections(), srv.Readies())
			}
			u, err := s.User("@me")
			if err != nil || u.Username != "playchat-bot" {
				t.Errorf("GET /users/@me = %+v, %v", u, err)
			}
			c, err := srv.WaitCall(ctx(t), func(c Call) bool { return c.Route == "/users/@me" })
			if err != nil || c.Header.Get("Authorization") != "Bot "+DefaultToken || c.Status != 200 {
				t.Errorf("recorded /users/@me = %+v, %v", c, err)
			}
		})
	}
}

func TestInjectedMessageReachesHandlerWithMentions(t *testing.T) {
	srv, s, err := open(t, Options{}, DefaultToken, botIntents)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *discordgo.MessageCreate, 4)
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })

	sent := srv.Inject(MessageCreate{ChannelID: "42", AuthorID: "77", AuthorName: "bob", AuthorNick: "ボブ", Content: "<@!1000> hello <@55>"})
	m := recv(t, got)
	if m.ID != sent.ID || m.ChannelID != "42" || m.GuildID != DefaultGuildID || m.Content != "<@!1000> hello <@55>" {
		t.Fatalf("MESSAGE_CREATE = %+v", m.Message)
	}
	if m.Author == nil || m.Author.ID != "77" || m.Author.Username != "bob" || m.Author.Bot {
		t.Errorf("author = %+v", m.Author)
	}
	if len(m.Mentions) != 2 || m.Mentions[0].ID != "1000" || !m.Mentions[0].Bot || m.Mentions[1].ID != "55" {
		t.Errorf("mentions = %+v, want the bot then 55", m.Mentions)
	}
	if m.Member == nil || m.Member.Nick != "ボブ" {
		t.Errorf("member = %+v, want nick ボブ", m.Member)
	}
	if m.Timestamp.IsZero() {
		t.Error("timestamp is zero")
	}
}

func TestInjectHonoursIntents(t *testing.T) {
	srv, s, err := open(t, Options{}, DefaultToken, discordgo.IntentGuildMessages)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *discordgo.MessageCreate, 4)
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })

	srv.Inject(MessageCreate{DM: true, Content: "a DM: no DIRECT_MESSAGES intent, not delivered"})
	srv.Inject(MessageCreate{Content: "no mention, no MESSAGE_CONTENT: blank"})
	srv.Inject(MessageCreate{Content: "<@1000> mentioned: content kept"})
	if m := recv(t, got); m.Content != "" || m.GuildID != DefaultGuildID {
		t.Errorf("first delivered = %q in guild %q, want the blanked guild message", m.Content, m.GuildID)
	}
	if m := recv(t, got); m.Content != "<@1000> mentioned: content kept" {
		t.Errorf("second delivered = %q", m.Content)
	}
}

func TestSendRecordsAllowedMentionsAndEchoes(t *testing.T) {
	srv, s, err := open(t, Options{}, DefaultToken, botIntents)
	if err != nil {
		t.Fatal(err)
	}
	echo := make(chan *discordgo.MessageCreate, 4)
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { echo <- m })

	msg, err := s.ChannelMessageSendComplex("42", &discordgo.MessageSend{
		Content:         "@everyone <@&9> <@2000> done",
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{"2000"}},
	})
	if err != nil {
		t.Fatalf("send: %v", err)
	}
	if msg.ID == "" || msg.Author.ID != "1000" || msg.MentionEveryone || len(msg.Mentions) != 1 || msg.Mentions[0].ID != "2000" {
		t.Errorf("returned message = %+v", msg)
	}
	c, err := srv.WaitCall(ctx(t), MessagePost("42"))
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		AllowedMentions *struct {
			Parse []string `json:"parse"`
			Users []string `json:"users"`
		} `json:"allowed_mentions"`
	}
	if err := c.Decode(&body); err != nil || body.AllowedMentions == nil || len(body.AllowedMentions.Users) != 1 {
		t.Fatalf("recorded body %s has no allowed_mentions with the user (%v)", c.Body, err)
	}
	if p := c.Pings(); p.Everyone || len(p.Roles) != 0 || len(p.Users) != 1 || p.Users[0] != "2000" {
		t.Errorf("Pings = %+v, want only user 2000", p)
	}
	if m := recv(t, echo); m.ID != msg.ID || m.Author.ID != "1000" {
		t.Errorf("echo = %+v, want the bot's own message", m.Message)
	}

	if err := s.ChannelTyping("42"); err != nil {
		t.Errorf("typing: %v", err)
	}
	ch, err := s.Channel("42")
	if err != nil || ch.ID != "42" {
		t.Errorf("GET channel = %+v, %v", ch, err)
	}
}

func TestDiscordRejectionsAreRealistic(t *testing.T) {
	srv, s, err := open(t, Options{NoEcho: true}, DefaultToken, botIntents)
	if err != nil {
		t.Fatal(err)
	}
	restErr := func(err error) *discordgo.RESTError {
		t.Helper()
		var re *discordgo.RESTError
		if !errors.As(err, &re) {
			t.Fatalf("error %v is not a RESTError", err)
		}
		return re
	}

	srv.DeleteChannel("13")
	_, err = s.ChannelMessageSend("13", "hi")
	if re := restErr(err); re.Response.StatusCode != 404 || re.Message == nil || re.Message.Code != discordgo.ErrCodeUnknownChannel {
		t.Errorf("deleted channel: %v", err)
	}
	_, err = s.ChannelMessageSend("42", strings.Repeat("a", 1999)+"😀😀")
	if re := restErr(err); re.Response.StatusCode != 400 || re.Message.Code != 50035 {
		t.Errorf("2001 code points: %v", err)
	}
	if _, err := s.ChannelMessageSend("42", strings.Repeat("あ", 1999)+"😀"); err != nil {
		t.Errorf("2000 code points (more bytes) refused: %v", err)
	}
	_, err = s.ChannelMessageSendComplex("42", &discordgo.MessageSend{Content: "x",
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Users: []string{"1"}}})
	if re := restErr(err); re.Response.StatusCode != 400 {
		t.Errorf("parse users + users list: %v", err)
	}
	_, err = s.GuildRoles("3000")
	if re := restErr(err); re.Response.StatusCode != 404 {
		t.Errorf("unknown route: %v", err)
	}
	if _, err := srv.WaitCall(ctx(t), func(c Call) bool { return c.Route == "/guilds/3000/roles" && c.Status == 404 }); err != nil {
		t.Error("unknown route not recorded")
	}

	bad, _ := discordgo.New("Bot wrong")
	_, err = bad.User("@me")
	if re := restErr(err); re.Response.StatusCode != 401 || !strings.Contains(string(re.ResponseBody), `"401: Unauthorized"`) {
		t.Errorf("wrong REST token: %v", err)
	}
}

func TestBadTokenClosesWith4004(t *testing.T) {
	srv, _, err := open(t, Options{}, "wrong-token", botIntents)
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != CloseAuthenticationFailed || ce.Text != "Authentication failed." {
		t.Fatalf("Open with a bad token = %v (%T), want websocket close 4004", err, err)
	}
	if srv.Readies() != 0 {
		t.Errorf("Readies = %d after a bad token", srv.Readies())
	}
}

func TestDisallowedPrivilegedIntentClosesWith4014(t *testing.T) {
	_, _, err := open(t, Options{DisallowPrivileged: true}, DefaultToken, botIntents)
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != CloseDisallowedIntents {
		t.Fatalf("Open = %v, want close 4014", err)
	}
}

func TestDroppedConnectionResumesAndReplays(t *testing.T) {
	srv, s, err := open(t, Options{}, DefaultToken, botIntents)
	if err != nil {
		t.Fatal(err)
	}
	resumed := make(chan struct{}, 4)
	s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) { resumed <- struct{}{} })
	got := make(chan *discordgo.MessageCreate, 4)
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })

	srv.DropConnections()
	if srv.Connections() != 0 {
		t.Fatalf("Connections = %d right after DropConnections", srv.Connections())
	}
	srv.Inject(MessageCreate{Content: "<@1000> sent while you were away"})

	recv(t, resumed)
	if err := srv.WaitReady(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if m := recv(t, got); m.Content != "<@1000> sent while you were away" {
		t.Errorf("replayed = %q", m.Content)
	}
	if srv.Readies() < 2 { // discordgo may reconnect twice after an abrupt drop
		t.Errorf("Readies = %d, want READY then RESUMED", srv.Readies())
	}
	// The resumed socket carries new events too.
	srv.Inject(MessageCreate{Content: "<@1000> after"})
	if m := recv(t, got); m.Content != "<@1000> after" {
		t.Errorf("after resume = %q", m.Content)
	}
}

func TestControlAPI(t *testing.T) {
	srv, s, err := open(t, Options{Control: true, NoEcho: true}, DefaultToken, botIntents)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *discordgo.MessageCreate, 4)
	s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { got <- m })

	post := func(path, body string) *http.Response {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := post("/_control/message", `{"channel_id":"5","author_id":"6","author_name":"carol","content":"<@1000> hi"}`); r.StatusCode != 200 {
		t.Fatalf("control message: %s", r.Status)
	}
	if m := recv(t, got); m.ChannelID != "5" || m.Author.Username != "carol" {
		t.Errorf("injected by control = %+v", m.Message)
	}
	status := func() ControlStatus {
		t.Helper()
		resp, err := http.Get(srv.URL + "/_control/status")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var st ControlStatus
		if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := status(); st.Connections != 1 || st.Readies != 1 {
		t.Errorf("status = %+v, want 1 connection and 1 READY", st)
	}
	if r := post("/_control/drop", ""); r.StatusCode != 204 {
		t.Errorf("control drop: %s", r.Status)
	}
	if err := srv.WaitReadies(ctx(t), 2); err != nil {
		t.Fatalf("no RESUMED after a control drop: %v", err)
	}
	// discordgo may reconnect twice after an abrupt drop (its heartbeat
	// fails on the dead socket while the reader reconnects): at least 2.
	if st := status(); st.Readies < 2 {
		t.Errorf("status after the drop = %+v, want at least 2 READY/RESUMED", st)
	}
	post("/_control/delete-channel", `{"id":"5"}`)
	if _, err := s.ChannelMessageSend("5", "x"); err == nil {
		t.Error("send to a channel deleted by control succeeded")
	}
	resp, err := http.Get(srv.URL + "/_control/calls")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var calls []Call
	if err := json.NewDecoder(resp.Body).Decode(&calls); err != nil {
		t.Fatal(err)
	}
	last := calls[len(calls)-1]
	if last.Route != "/channels/5/messages" || last.Status != 404 || !strings.Contains(string(last.Body), `"content":"x"`) {
		t.Errorf("last recorded call = %+v", last)
	}
	for _, c := range calls {
		if strings.HasPrefix(c.Path, "/_control") {
			t.Errorf("control call recorded: %s", c.Path)
		}
	}
}
