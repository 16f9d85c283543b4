package chat_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
)

func TestFailedToolCallsCarryACodeInTheirActivity(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	cut := toolCall("cx", "lookup", `{"query":"東京 天`)
	cut.FinishReason = "length"
	srv.Enqueue(toolCall("c1", "lookup", `{"query":"fail"}`), toolCall("c2", "no_such_tool", `{}`), cut,
		llmtest.Text("done anyway", 1))
	res, rec, _ := turn(t, c, "", "try")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	errs := map[string]*apperr.Info{}
	for _, e := range rec.events {
		if a, ok := e.Value.(event.ToolActivity); ok && a.Status == "error" {
			errs[a.ID] = a.Error
		}
	}
	if e := errs["c1"]; e == nil || e.Code != apperr.ToolFailed || !strings.Contains(e.Params["detail"].(string), "lookup backend is down") {
		t.Errorf("a tool's own error as %+v", e)
	}
	if e := errs["c2"]; e == nil || e.Code != apperr.ToolUnknown || e.Params["name"] != "no_such_tool" {
		t.Errorf("an unknown tool as %+v", e)
	}
	if e := errs["cx"]; e == nil || e.Code != apperr.ToolArgumentsTruncated {
		t.Errorf("cut-off arguments as %+v", e)
	}
}

func TestTheToolLimitErrorEventCarriesItsCodeAndRounds(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "TOOL_MAX_ROUNDS=1")
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	srv.Enqueue(toolCall("c0", "lookup", `{"query":"a"}`), toolCall("c1", "lookup", `{"query":"b"}`))
	_, rec, _ := turn(t, c, "", "loop")
	ev, _ := rec.events[len(rec.events)-1].Value.(apperr.Info)
	if ev.Code != apperr.ChatToolLimit || ev.Params["rounds"] != 1 ||
		ev.Message != "the model reached the tool-call limit (1 rounds): it kept calling tools and gave no answer" {
		t.Errorf("error event %+v", ev)
	}
}

func TestAFailedReplyIsStoredWithItsErrorCode(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "OPENAI_BASE_URL=http://127.0.0.1:9/v1")
	res, _, _ := turn(t, c, "", "hi")
	msgs, err := c.DB.SessionMessages(context.Background(), res.Reply.SessionID)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("messages %+v, %v", msgs, err)
	}
	var in apperr.Info
	if err := json.Unmarshal([]byte(msgs[1].ErrorInfo), &in); err != nil || in.Code != apperr.ChatUnreachable || in.Message != msgs[1].Error {
		t.Errorf("stored error info %q (%v)", msgs[1].ErrorInfo, err)
	}
}
