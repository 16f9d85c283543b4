package discordtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// apiPrefix matches "/api" and "/api/v9" at the start of a path.
var apiPrefix = regexp.MustCompile(`^/api(/v[0-9]+)?/`)

var routeRe = struct {
	channel, channelMessages, channelMessage, typing, webhook, user *regexp.Regexp
}{
	channel:         regexp.MustCompile(`^/channels/([^/]+)$`),
	channelMessages: regexp.MustCompile(`^/channels/([^/]+)/messages$`),
	channelMessage:  regexp.MustCompile(`^/channels/([^/]+)/messages/([^/]+)$`),
	typing:          regexp.MustCompile(`^/channels/([^/]+)/typing$`),
	webhook:         regexp.MustCompile(`^/webhooks/([^/]+)/([^/]+)$`),
	user:            regexp.MustCompile(`^/users/([^/]+)$`),
}

// apiError is Discord's JSON error body.
type apiError struct {
	Message string `json:"message"`
	Code    int    `json:"code"`
}

var (
	errUnauthorized   = apiError{"401: Unauthorized", 0}
	errNotFound       = apiError{"404: Not Found", 0}
	errUnknownChannel = apiError{"Unknown Channel", 10003}
	errUnknownMessage = apiError{"Unknown Message", 10008}
	errUnknownUser    = apiError{"Unknown User", 10013}
	errEmptyMessage   = apiError{"Cannot send an empty message", 50006}
)

func invalidForm(detail string) apiError {
	return apiError{"Invalid Form Body (" + detail + ")", 50035}
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	at := s.opts.Now()
	body, _ := io.ReadAll(r.Body)
	rawBody := recordBody(r, body)
	route := r.URL.Path
	if loc := apiPrefix.FindStringIndex(route); loc != nil {
		route = route[loc[1]-1:] // keep the slash after the prefix
	}
	var status int
	var resp any
	if f := s.takeFault(route); f != nil {
		var h http.Header
		status, h, resp = f.answer()
		for k, v := range h {
			w.Header()[k] = v
		}
	} else {
		status, resp = s.route(r, route, rawBody)
	}

	s.mu.Lock()
	s.calls = append(s.calls, Call{
		Method: r.Method, Path: r.URL.Path, Route: route, Query: r.URL.RawQuery,
		Header: r.Header.Clone(), Body: rawBody, Status: status, At: at,
	})
	s.notifyLocked()
	s.mu.Unlock()

	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(resp)
}

// recordBody returns the request's JSON body (payload_json for multipart).
func recordBody(r *http.Request, body []byte) json.RawMessage {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		if err := r.ParseMultipartForm(32 << 20); err == nil {
			body = []byte(r.FormValue("payload_json"))
		}
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return json.RawMessage("null")
	}
	if json.Valid(body) {
		return json.RawMessage(append([]byte(nil), body...))
	}
	q, _ := json.Marshal(string(body))
	return q
}

func (s *Server) authorized(r *http.Request) bool {
	return r.Header.Get("Authorization") == "Bot "+s.opts.Token
}

// route answers one REST call: status and the JSON value to send.
func (s *Server) route(r *http.Request, route string, body json.RawMessage) (int, any) {
	m := r.Method
	// GET /gateway needs no token on Discord either; everything else except
	// webhook execution does.
	if route == "/gateway" && m == http.MethodGet {
		return 200, map[string]string{"url": s.GatewayURL}
	}
	if g := routeRe.webhook.FindStringSubmatch(route); g != nil && m == http.MethodPost {
		return s.executeWebhook(r, g[1], body)
	}
	if !s.authorized(r) {
		return 401, errUnauthorized
	}
	switch {
	case route == "/gateway/bot" && m == http.MethodGet:
		return 200, map[string]any{
			"url": s.GatewayURL, "shards": 1,
			"session_start_limit": map[string]int{"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
		}
	case route == "/users/@me" && m == http.MethodGet:
		return 200, s.opts.BotUser
	case route == "/users/@me/channels" && m == http.MethodPost:
		return s.createDM(body)
	}
	if g := routeRe.user.FindStringSubmatch(route); g != nil && m == http.MethodGet {
		s.mu.Lock()
		u, ok := s.users[g[1]]
		s.mu.Unlock()
		if !ok {
			return 404, errUnknownUser
		}
		return 200, u
	}
	if g := routeRe.channel.FindStringSubmatch(route); g != nil && m == http.MethodGet {
		ch, ok := s.channel(g[1])
		if !ok {
			return 404, errUnknownChannel
		}
		return 200, ch
	}
	if g := routeRe.typing.FindStringSubmatch(route); g != nil && m == http.MethodPost {
		if _, ok := s.channel(g[1]); !ok {
			return 404, errUnknownChannel
		}
		return 204, nil
	}
	if g := routeRe.channelMessages.FindStringSubmatch(route); g != nil && m == http.MethodPost {
		return s.postMessage(r, g[1], body)
	}
	if g := routeRe.channelMessage.FindStringSubmatch(route); g != nil {
		return s.onMessage(m, g[1], g[2], body)
	}
	return 404, errNotFound
}

// channel returns the channel object for id; every id that was not deleted exists
// (a guild text channel unless it was seen as a DM).
func (s *Server) channel(id string) (*discordgo.Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deleted[id] {
		return nil, false
	}
	if ch, ok := s.channels[id]; ok {
		return ch, true
	}
	return &discordgo.Channel{ID: id, Type: discordgo.ChannelTypeGuildText, Name: "channel-" + id}, true
}

func (s *Server) createDM(body json.RawMessage) (int, any) {
	var req struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.RecipientID == "" {
		return 400, invalidForm("recipient_id")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ch := range s.channels {
		if ch.Type == discordgo.ChannelTypeDM && len(ch.Recipients) == 1 && ch.Recipients[0].ID == req.RecipientID {
			return 200, ch
		}
	}
	u, ok := s.users[req.RecipientID]
	if !ok {
		u = discordgo.User{ID: req.RecipientID, Username: "user" + req.RecipientID}
	}
	ch := &discordgo.Channel{ID: s.snowflakeLocked(), Type: discordgo.ChannelTypeDM, Recipients: []*discordgo.User{&u}}
	s.channels[ch.ID] = ch
	return 200, ch
}

func (s *Server) onMessage(method, channelID, messageID string, body json.RawMessage) (int, any) {
	if _, ok := s.channel(channelID); !ok {
		return 404, errUnknownChannel
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	msg, ok := s.messages[messageID]
	if !ok || msg.ChannelID != channelID {
		return 404, errUnknownMessage
	}
	switch method {
	case http.MethodGet:
		return 200, msg
	case http.MethodDelete:
		delete(s.messages, messageID)
		return 204, nil
	case http.MethodPatch:
		var edit struct {
			Content *string `json:"content"`
		}
		if err := json.Unmarshal(body, &edit); err != nil {
			return 400, invalidForm("body")
		}
		if edit.Content != nil {
			if n := len([]rune(*edit.Content)); n > MaxContentRunes {
				return 400, invalidForm(fmt.Sprintf("content: must be %d or fewer in length", MaxContentRunes))
			}
			msg.Content = *edit.Content
			now := s.opts.Now().UTC()
			msg.EditedTimestamp = &now
		}
		return 200, msg
	}
	return 404, errNotFound
}
