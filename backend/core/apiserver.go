package core

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"time"

	"playchat/backend/apiserver"
)

// APIServerOptions configure Core.APIServer.
type APIServerOptions struct {
	// Token returns the token every request must carry (see
	// EnsureAPIToken); it is asked on every request.
	Token func() string
	// AnyHost accepts any Host header: the local-network mode.
	AnyHost bool
	// AllowedOrigins are web page origins allowed to call the API (none
	// by default).
	AllowedOrigins []string
}

// APIServer returns the OpenAI-compatible API over this core (issue 23):
// plain model ids go to the providers through the LLM client, playchat/
// aliases through the chat service with the context layers; /v1/models
// lists Models' ids; requests refused before any LLM call are recorded in
// api_logs like the calls. Serve it with apiserver.Serve.
func (c *Core) APIServer(o APIServerOptions) *apiserver.Server {
	return apiserver.New(apiserver.Options{
		Token: o.Token, LLM: c.LLM, Chat: c.Chat, Log: c.apiLogs, Logger: c.Log,
		AnyHost: o.AnyHost, AllowedOrigins: o.AllowedOrigins,
		KBDomains:  c.KB.Domains,
		ShareNotes: func() bool { return c.Config().InteropShareNotes },
		Models: func(ctx context.Context) ([]string, error) {
			ms, err := c.Models(ctx)
			if err != nil {
				return nil, err
			}
			var ids []string
			if ms.DefaultModel != "" {
				ids = append(ids, ms.DefaultModel)
			}
			for _, p := range ms.Presets {
				ids = append(ids, p.Value)
			}
			return append(ids, ms.Discovered...), nil
		},
		ModelsTimeout: 3 * time.Second,
	})
}

// EnsureAPIToken returns API_SERVER_TOKEN, first making one (32 random
// bytes, base64url: 43 characters) and saving it in the settings when none
// is set. generated reports a token made now. The token never reaches the
// log.
func (c *Core) EnsureAPIToken(ctx context.Context) (token string, generated bool, err error) {
	if t := c.Config().APIServerToken; t != "" {
		return t, false, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", false, err
	}
	t := "pc-" + base64.RawURLEncoding.EncodeToString(b)
	if err := c.SaveSettings(ctx, map[string]string{"API_SERVER_TOKEN": t}, nil); err != nil {
		return "", false, err
	}
	return t, true, nil
}
