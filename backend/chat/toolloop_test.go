package chat_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/backend/tools"
)

// lookupTool answers {"query": string}; query "fail" makes it fail.
func lookupTool(calls *[]string) tools.Tool {
	return tools.Tool{
		Name: "lookup", Label: "Look up", Description: "look something up",
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
		Detail: func(args json.RawMessage) string {
			var a struct{ Query string }
			json.Unmarshal(args, &a)
			return a.Query
		},
		Run: func(ctx context.Context, c tools.Call) (tools.Result, error) {
			var a struct{ Query string }
			if err := tools.DecodeArgs(c.Args, &a); err != nil {
				return tools.Result{}, err
			}
			*calls = append(*calls, a.Query)
			if a.Query == "fail" {
				return tools.Result{}, errors.New("lookup backend is down")
			}
			return tools.Result{Content: "result for " + a.Query, NotesUpdated: a.Query == "note"}, nil
		},
	}
}

func toolCall(id, name, args string) llmtest.Response {
	b, _ := json.Marshal(map[string]any{"index": 0, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": args}})
	return llmtest.Response{ToolCallChunks: []string{string(b)}}
}

func TestAPlainTurnWithToolsAttachedIsOneRequest(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	turn(t, c, "", "hi")
	reqs := srv.ChatRequests()
	var names []string
	for _, tl := range reqs[0].Tools {
		names = append(names, tl.Function.Name)
	}
	if len(reqs) != 1 || strings.Join(names, ",") != "cancel_reminder,create_reminder,list_reminders,lookup,read_note,write_note" {
		t.Fatalf("requests = %d, tools = %v", len(reqs), names)
	}
}

func TestAToolCallRunsAndTheModelAnswersWithItsResult(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	srv.Enqueue(toolCall("call_a", "lookup", `{"query":"東京 天気"}`), llmtest.Text("東京は晴れです。", 3))

	res, rec, sid := turn(t, c, "", "東京の天気は？")
	if res.Err != nil || res.Reply.Content != "東京は晴れです。" {
		t.Fatalf("result = %+v", res)
	}
	if got := rec.types(); got != "session_id,tool,tool,chunk,done" {
		t.Fatalf("events = %s", got)
	}
	start := rec.events[1].Value.(event.ToolActivity)
	end := rec.events[2].Value.(event.ToolActivity)
	if start.ID != "call_a" || start.Status != "running" || start.Label != "Look up" || start.Detail != "東京 天気" ||
		end.ID != "call_a" || end.Status != "done" || end.Result != "result for 東京 天気" {
		t.Fatalf("tool events = %+v / %+v", start, end)
	}
	if strings.Join(calls, ",") != "東京 天気" {
		t.Fatalf("tool ran %v", calls)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	second := reqs[1].Messages
	asst, tool := second[len(second)-2], second[len(second)-1]
	if asst.Role != "assistant" || len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "call_a" ||
		tool.Role != "tool" || tool.ToolCallID != "call_a" || tool.Content != "result for 東京 天気" {
		t.Fatalf("second request tail = %+v / %+v", asst, tool)
	}
	// The activity is stored with the reply.
	msgs, _ := c.DB.SessionMessages(context.Background(), sid)
	var acts []event.ToolActivity
	if err := json.Unmarshal([]byte(msgs[1].ToolActivity), &acts); err != nil || len(acts) != 1 ||
		acts[0].Name != "lookup" || acts[0].Status != "done" || acts[0].Detail != "東京 天気" {
		t.Fatalf("stored activity = %q (%v)", msgs[1].ToolActivity, err)
	}
}

func TestToolErrorsGoBackToTheModelAndNeverAbortTheTurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	srv.Enqueue(
		toolCall("c1", "lookup", `{"query":"fail"}`),
		toolCall("c2", "no_such_tool", `{}`),
		toolCall("c3", "lookup", `{"query":"note"}`),
		llmtest.Text("done anyway", 1))
	res, rec, _ := turn(t, c, "", "try")
	if res.Err != nil || res.Reply.Status != store.StatusComplete || res.Reply.Content != "done anyway" {
		t.Fatalf("result = %+v", res)
	}
	if got := rec.types(); got != "session_id,tool,tool,tool,tool,tool,tool,notes_updated,chunk,done" {
		t.Fatalf("events = %s", got)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("requests = %d", len(reqs))
	}
	msg := func(i int) string { m := reqs[i].Messages; return m[len(m)-1].Content }
	if !strings.Contains(msg(1), "error: lookup backend is down") || !strings.Contains(msg(2), `unknown tool "no_such_tool"`) {
		t.Fatalf("tool errors sent as %q / %q", msg(1), msg(2))
	}
}

func TestTruncatedArgumentsAreNotRunAndTheModelIsTold(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	cut := toolCall("cx", "lookup", `{"query":"東京 天`)
	cut.FinishReason = "length"
	srv.Enqueue(cut, llmtest.Text("sorry", 1))
	res, rec, _ := turn(t, c, "", "go")
	if res.Err != nil || len(calls) != 0 {
		t.Fatalf("res = %+v, calls = %v", res, calls)
	}
	act := rec.events[1].Value.(event.ToolActivity)
	if act.ID != "cx" || act.Status != "error" || !strings.Contains(act.Result, "truncated") {
		t.Fatalf("activity = %+v", act)
	}
	last := srv.ChatRequests()[1].Messages
	tool := last[len(last)-1]
	if tool.ToolCallID != "cx" || !strings.Contains(tool.Content, "cut off") || last[len(last)-2].ToolCalls[0].Function.Arguments != "{}" {
		t.Fatalf("model not told: %+v", tool)
	}
}

func TestToolRoundsAreCappedAndTheLastRequestHasNoTools(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "TOOL_MAX_ROUNDS=2")
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	for i := 0; i < 5; i++ {
		srv.Enqueue(toolCall(fmt.Sprint("c", i), "lookup", `{"query":"again"}`))
	}
	res, rec, _ := turn(t, c, "", "loop forever")
	if !errors.Is(res.Err, chat.ErrToolLimit) || res.Reply.Status != store.StatusError ||
		!strings.HasSuffix(rec.types(), "error") {
		t.Fatalf("a model that never answers: %+v (events %s)", res, rec.types())
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 3 || len(calls) != 2 || len(reqs[2].Tools) != 0 || len(reqs[1].Tools) == 0 {
		t.Fatalf("requests = %d, calls = %d, tools on last = %d", len(reqs), len(calls), len(reqs[len(reqs)-1].Tools))
	}
}

func TestAProviderThatRejectsToolsIsRetriedWithoutAndRemembered(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	srv.Enqueue(llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"this model does not support tools"}}`},
		llmtest.Text("plain answer", 1))
	res, _, sid := turn(t, c, "", "hi")
	if res.Err != nil || res.Reply.Content != "plain answer" {
		t.Fatalf("res = %+v", res)
	}
	turn(t, c, sid, "again")
	reqs := srv.ChatRequests()
	if len(reqs) != 3 || len(reqs[0].Tools) == 0 || len(reqs[1].Tools) != 0 || len(reqs[2].Tools) != 0 {
		t.Fatalf("requests = %d; tools: %d %d", len(reqs), len(reqs[0].Tools), len(reqs[1].Tools))
	}
}

func TestABare400ToToolsIsRetriedWithoutThem(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	var calls []string
	c.Tools.Register(lookupTool(&calls))
	srv.Enqueue(llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"Unrecognized request argument supplied: tools"}}`},
		llmtest.Text("plain answer", 1))
	res, _, sid := turn(t, c, "", "hi")
	if res.Err != nil || res.Reply.Content != "plain answer" {
		t.Fatalf("res = %+v", res)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || len(reqs[0].Tools) == 0 || len(reqs[1].Tools) != 0 {
		t.Fatalf("requests = %d", len(reqs))
	}
	turn(t, c, sid, "again") // remembered: no tools any more
	if reqs := srv.ChatRequests(); len(reqs) != 3 || len(reqs[2].Tools) != 0 {
		t.Fatal("the tool-less model got tools again")
	}

	// A 400 that is not about tools fails the same way without them, and
	// the model is not marked tool-less.
	srv2 := llmtest.NewServer(t)
	c2 := newCore(t, srv2)
	c2.Tools.Register(lookupTool(&calls))
	tooLong := llmtest.Response{Status: 400, ErrorBody: `{"error":{"message":"context too long"}}`}
	srv2.Enqueue(tooLong, tooLong)
	res, _, sid2 := turn(t, c2, "", "big")
	if res.Err == nil || !strings.Contains(res.Err.Error(), "context too long") {
		t.Fatalf("400 not about tools = %+v", res)
	}
	turn(t, c2, sid2, "small")
	if reqs := srv2.ChatRequests(); len(reqs[len(reqs)-1].Tools) == 0 {
		t.Fatal("a failure unrelated to tools marked the model tool-less")
	}
}
