package discordtest

import (
	"encoding/json"
	"net/http"
)

// ControlMessage is the body of POST /_control/message.
type ControlMessage struct {
	ChannelID  string   `json:"channel_id"`
	GuildID    string   `json:"guild_id,omitempty"`
	DM         bool     `json:"dm,omitempty"`
	AuthorID   string   `json:"author_id"`
	AuthorName string   `json:"author_name"`
	AuthorNick string   `json:"author_nick,omitempty"`
	Content    string   `json:"content"`
	Mentions   []string `json:"mentions,omitempty"`
}

// ControlStatus is the answer of GET /_control/status.
type ControlStatus struct {
	Connections int `json:"connections"` // open gateway sockets past READY/RESUMED
	Readies     int `json:"readies"`     // READY + RESUMED sent in total
}

// ControlHandler serves the control API (mounted under /_control/ on the
// server's own address when Options.Control is set; not recorded as calls):
//
//	POST /_control/message         ControlMessage → Inject; answers the message JSON
//	GET  /_control/calls           every recorded REST call, a JSON array of Call
//	POST /_control/drop            DropConnections; 204
//	POST /_control/delete-channel  {"id": "…"} → DeleteChannel; 204
//	GET  /_control/status          ControlStatus
func (s *Server) ControlHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_control/message", func(w http.ResponseWriter, r *http.Request) {
		var m ControlMessage
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil {
			http.Error(w, "bad JSON: "+err.Error(), http.StatusBadRequest)
			return
		}
		msg := s.Inject(MessageCreate{
			ChannelID: m.ChannelID, GuildID: m.GuildID, DM: m.DM, AuthorID: m.AuthorID,
			AuthorName: m.AuthorName, AuthorNick: m.AuthorNick, Content: m.Content, Mentions: m.Mentions,
		})
		writeJSON(w, msg)
	})
	mux.HandleFunc("GET /_control/calls", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, s.Calls())
	})
	mux.HandleFunc("POST /_control/drop", func(w http.ResponseWriter, r *http.Request) {
		s.DropConnections()
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /_control/delete-channel", func(w http.ResponseWriter, r *http.Request) {
		var b struct {
			ID string `json:"id"`
		}
		if err := json.NewDecoder(r.Body).Decode(&b); err != nil || b.ID == "" {
			http.Error(w, `want {"id": "…"}`, http.StatusBadRequest)
			return
		}
		s.DeleteChannel(b.ID)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_control/status", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, ControlStatus{Connections: s.Connections(), Readies: s.Readies()})
	})
	return mux
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
