package llm_test

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

func TestALoggedProviderErrorKeepsItsCodeAndNoKey(t *testing.T) {
	h := newHarness(t)
	body := `{"error":{"message":"bad key sk-live-abcdefgh123"}}`
	h.srv.Enqueue(llmtest.Response{Status: 401, ErrorBody: body})
	if _, _, err := h.stream(t, context.Background(), userRequest("x")); err == nil {
		t.Fatal("a 401 succeeded")
	}
	logs := h.sink.all()
	if len(logs) != 1 {
		t.Fatalf("logs = %+v", logs)
	}
	in := apperr.ParseStored(logs[0].Error)
	if in.Code != apperr.LLMProviderStatus || in.Params["status"] != float64(401) || !strings.HasPrefix(in.Message, "provider returned 401") {
		t.Errorf("logged error read back as %+v", in)
	}
	if strings.Contains(logs[0].Error, "abcdefgh123") {
		t.Errorf("the key reached the log: %s", logs[0].Error)
	}
	if in := apperr.ParseStored(llm.CanceledLogError); in.Code != apperr.LLMCancelled || in.Message != "cancelled (stopped by the user)" {
		t.Errorf("a cancelled call is logged as %+v", in)
	}
}
