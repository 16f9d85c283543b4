package apiserver_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// TestModelsAreListedInOpenAIsShapeWithTheirAliases: /v1/models lists the
// user's models and a playchat/ alias of each, in OpenAI's exact shape, and
// GET /v1/models/{id} finds an id with slashes plain and %2F-escaped.
func TestModelsAreListedInOpenAIsShapeWithTheirAliases(t *testing.T) {
	e := newEnv(t, envOpts{})
	ctx := context.Background()
	list, err := e.client.ListModels(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, m := range list.Models {
		ids[m.ID] = m.OwnedBy
		if m.Object != "model" || m.CreatedAt == 0 {
			t.Errorf("%s: object %q created %d", m.ID, m.Object, m.CreatedAt)
		}
	}
	if ids["openai/fake-chat"] != "openai" || ids["playchat/openai/fake-chat"] != "playchat" || len(ids) != 2 {
		t.Fatalf("models: %v", ids)
	}

	raw := decode(t, e.do(t, "GET", "/v1/models", nil, ""))
	if raw["object"] != "list" || len(raw) != 2 {
		t.Errorf("list: %v", raw)
	}
	first := raw["data"].([]any)[0].(map[string]any)
	if len(first) != 4 {
		t.Errorf("a model has fields %v, want id, object, created, owned_by", first)
	}

	m, err := e.client.GetModel(ctx, "playchat/openai/fake-chat")
	if err != nil || m.ID != "playchat/openai/fake-chat" {
		t.Fatalf("GetModel plain: %+v, %v", m, err)
	}
	for _, path := range []string{"/v1/models/playchat%2Fopenai%2Ffake-chat", "/v1/models/openai%2Ffake-chat", "/v1/models/openai/fake-chat"} {
		resp := e.do(t, "GET", path, nil, "")
		got := decode(t, resp)
		if resp.StatusCode != 200 || !strings.HasSuffix(got["id"].(string), "openai/fake-chat") {
			t.Errorf("%s: %d %v", path, resp.StatusCode, got)
		}
	}
	wantOpenAIError(t, e.do(t, "GET", "/v1/models/nosuch%2Fmodel", nil, ""), 404, "model_not_found")
	_, err = e.client.GetModel(ctx, "nosuch/model")
	var ae *openai.APIError
	if !errors.As(err, &ae) || ae.HTTPStatusCode != 404 {
		t.Errorf("GetModel unknown: %v", err)
	}
}

// TestEveryRequestNeedsTheToken: no token, a wrong one, another scheme: 401
// in OpenAI's error JSON, for every endpoint, and no CORS header is sent.
func TestEveryRequestNeedsTheToken(t *testing.T) {
	e := newEnv(t, envOpts{})
	for _, auth := range []string{"none", "Bearer wrong-token-0123456789", "Basic " + testToken, "Bearer " + testToken + "x", "Bearer "} {
		for _, ep := range []struct{ method, path string }{{"GET", "/v1/models"}, {"GET", "/v1/models/openai/fake-chat"},
			{"POST", "/v1/chat/completions"}, {"GET", "/nothing"}} {
			resp := e.do(t, ep.method, ep.path, `{"model":"openai/fake-chat","messages":[{"role":"user","content":"hi"}]}`, auth)
			wantOpenAIError(t, resp, http.StatusUnauthorized, "invalid_api_key")
			if resp.Header.Get("WWW-Authenticate") == "" {
				t.Error("no WWW-Authenticate")
			}
		}
	}
	if n := e.fake.RequestCount("/chat/completions"); n != 0 {
		t.Errorf("%d requests reached the model without the token", n)
	}
	cfg := openai.DefaultConfig("wrong-token-0123456789")
	cfg.BaseURL = e.srv.URL + "/v1"
	_, err := openai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "openai/fake-chat", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
	var ae *openai.APIError
	if !errors.As(err, &ae) || ae.HTTPStatusCode != 401 || ae.Code != "invalid_api_key" {
		t.Errorf("go-openai with a wrong token: %v", err)
	}
}

// TestWebPagesAndForeignHostsAreRefused: an Origin header (a page in the
// browser) gets 403 and no CORS header; so does a Host that is not this
// computer (DNS rebinding), even with the token.
func TestWebPagesAndForeignHostsAreRefused(t *testing.T) {
	e := newEnv(t, envOpts{})
	for _, h := range []map[string]string{{"Origin": "https://evil.example"}, {"Host": "evil.example"}} {
		req, _ := http.NewRequest("OPTIONS", e.srv.URL+"/v1/chat/completions", nil)
		if h["Origin"] == "" {
			req.Method = "GET"
			req.URL.Path = "/v1/models"
		}
		req.Header.Set("Authorization", "Bearer "+testToken)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		if h["Host"] != "" {
			req.Host = h["Host"]
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		wantOpenAIError(t, resp, http.StatusForbidden, "")
		for k := range resp.Header {
			if strings.HasPrefix(strings.ToLower(k), "access-control-") {
				t.Errorf("CORS header %s sent", k)
			}
		}
		resp.Body.Close()
	}
}

// TestABodyOver8MiBGets413 and bad bodies get 400, in OpenAI's error JSON.
func TestABodyOver8MiBGets413(t *testing.T) {
	e := newEnv(t, envOpts{})
	big := `{"model":"openai/fake-chat","messages":[{"role":"user","content":"` + strings.Repeat("a", 8<<20) + `"}]}`
	wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", big, ""), http.StatusRequestEntityTooLarge, "request_too_large")
	wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", `{"model":`, ""), http.StatusBadRequest, "api.badJson")
	wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", `{"model":"openai/fake-chat","messages":[]}`, ""), http.StatusBadRequest, "api.noMessages")
	wantOpenAIError(t, e.do(t, "POST", "/v1/chat/completions", `{"model":"openai/fake-chat","n":2,"messages":[{"role":"user","content":"x"}]}`, ""),
		http.StatusBadRequest, "api.onlyOneChoice")
	if n := e.fake.RequestCount("/chat/completions"); n != 0 {
		t.Errorf("%d refused requests reached the model", n)
	}
	e.c.FlushAPILogs()
	logs, _, err := e.c.DB.ListAPILogs(context.Background(), 50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 4 {
		t.Errorf("%d refused requests in api_logs, want 4", len(logs))
	}
	for _, l := range logs {
		if l.Purpose != "api" || l.Error == "" {
			t.Errorf("log %+v", l)
		}
	}
}

// TestAnUnknownModelGets404: an unknown provider, an alias of one, and a
// model the provider does not have: 404 model_not_found, OpenAI's JSON.
func TestAnUnknownModelGets404(t *testing.T) {
	e := newEnv(t, envOpts{})
	e.fake.Enqueue(llmResponse404())
	for _, model := range []string{"nosuch/model", "playchat/nosuch/model", "no-provider", "openai/not-there"} {
		resp := e.do(t, "POST", "/v1/chat/completions", map[string]any{"model": model, "messages": []map[string]string{{"role": "user", "content": "hi"}}}, "")
		eo := wantOpenAIError(t, resp, http.StatusNotFound, "model_not_found")
		if eo["param"] != "model" {
			t.Errorf("%s: param %v", model, eo["param"])
		}
	}
	_, err := e.client.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "nosuch/model", Messages: []openai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
	var ae *openai.APIError
	if !errors.As(err, &ae) || ae.HTTPStatusCode != 404 || ae.Code != "model_not_found" {
		t.Errorf("go-openai: %v", err)
	}
	resp := e.do(t, "GET", "/v2/nothing", nil, "")
	wantOpenAIError(t, resp, http.StatusNotFound, "unknown_url")
	_, _ = io.Copy(io.Discard, resp.Body)
}
