package cli

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/llm/llmtest"
)

func TestAskJSONErrorsCarryTheEnglishTextAndTheCode(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	r := runCLI(t, append(env, "DEFAULT_MODEL="), "", "ask", "--json", "no model")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("last line %q: %v", lines[len(lines)-1], err)
	}
	// The CLI words chat.noModel for the terminal (--model, DEFAULT_MODEL, .env).
	want := map[string]any{"type": "error", "code": string(apperr.ChatNoModel),
		"value": "no model is configured: pass --model provider/model (e.g. --model openai/gpt-4o-mini), or set DEFAULT_MODEL in "}
	if v, _ := got["value"].(string); len(got) != len(want) || got["type"] != want["type"] || got["code"] != want["code"] || !strings.HasPrefix(v, want["value"].(string)) {
		t.Errorf("error line %v, want %v", got, want)
	}
	if r.code != 1 {
		t.Errorf("exit %d", r.code)
	}

	notFound := llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`}
	srv.Enqueue(notFound, notFound)
	r = runCLI(t, env, "", "ask", "--json", "hi")
	lines = strings.Split(strings.TrimSpace(r.stdout), "\n")
	got = nil
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &got)
	if got["code"] != string(apperr.LLMProviderStatus) || got["value"] != "provider returned 400: model not found" {
		t.Errorf("a provider's refusal as %v", got)
	}
}

func TestJSONErrorOfAnUncodedErrorHasAnEmptyCode(t *testing.T) {
	l := jsonError(errors.New("disk full"))
	if l.Type != "error" || l.Value != "disk full" || l.Code != "" {
		t.Errorf("%+v", l)
	}
}

func TestAskPrintsTheEnglishTextOfAnErrorEvent(t *testing.T) {
	srv := llmtest.NewServer(t)
	env := testEnv(t, srv)
	srv.Enqueue(llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`},
		llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"model not found"}}`})
	r := runCLI(t, env, "", "ask", "hi")
	if !strings.Contains(r.stderr, "playchat: provider returned 400: model not found\n") {
		t.Errorf("stderr = %q", r.stderr)
	}
}
