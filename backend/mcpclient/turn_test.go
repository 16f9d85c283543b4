package mcpclient_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/event"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/mcpclient"
	"playchat/backend/tools"
)

type recorder struct {
	mu     sync.Mutex
	events []event.Event
	onTool func(event.ToolActivity)
}

func (r *recorder) Emit(e event.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	fn := r.onTool
	r.mu.Unlock()
	if a, ok := e.Value.(event.ToolActivity); ok && fn != nil {
		fn(a)
	}
}

func (r *recorder) tools() []event.ToolActivity {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []event.ToolActivity
	for _, e := range r.events {
		if a, ok := e.Value.(event.ToolActivity); ok {
			out = append(out, a)
		}
	}
	return out
}

func openCore(t *testing.T, srv *llmtest.Server, servers []mcpclient.Server, env ...string) *core.Core {
	t.Helper()
	environ := append([]string{"OPENAI_BASE_URL=" + srv.URL, "DEFAULT_MODEL=openai/fake-model"}, env...)
	c, err := core.Open(context.Background(), core.Options{DataDir: t.TempDir(), Environ: environ,
		Logger: slog.New(slog.DiscardHandler), LLMOptions: []llm.Option{llm.WithSleep(func(context.Context, time.Duration) error { return nil })}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.MCP.Store().Update(func(cfg *mcpclient.Config) error { cfg.Servers = servers; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := c.StartMCP(); err != nil {
		t.Fatal(err)
	}
	for _, s := range servers {
		mcpclient.WaitState(t, c.MCP, s.Name, mcpclient.StateReady)
	}
	return c
}

func toolCall(id, name, args string) llmtest.Response {
	b, _ := json.Marshal(map[string]any{"index": 0, "id": id, "type": "function",
		"function": map[string]any{"name": name, "arguments": args}})
	return llmtest.Response{ToolCallChunks: []string{string(b)}}
}

func run(t *testing.T, c *core.Core, req chat.TurnRequest, rec *recorder) chat.Result {
	t.Helper()
	tr, err := c.Chat.Start(context.Background(), req, rec)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Wait()
}

func toolNames(ts []llmtestTool) string {
	var n []string
	for _, t := range ts {
		n = append(n, t.Function.Name)
	}
	return strings.Join(n, ",")
}

type llmtestTool = struct {
	Type     string
	Function *struct{ Name string }
}

func names(req llmtest.RecordedRequest) []string {
	var n []string
	for _, t := range req.Tools {
		n = append(n, t.Function.Name)
	}
	return n
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestTheModelCallsAServersToolDuringATurnAndGetsItsResult(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "local files", "normal")})
	name := mcpclient.ModelName("local files", "echo")
	if name != "local_files__echo_"+name[len(name)-6:] {
		t.Fatalf("model name = %s", name)
	}
	srv.Enqueue(toolCall("call_1", name, `{"text":"東京"}`), llmtest.Text("答えです", 2))
	rec := &recorder{}
	res := run(t, c, chat.TurnRequest{Text: "echo please"}, rec)
	if res.Err != nil || res.Reply.Content != "答えです" {
		t.Fatalf("result = %+v", res)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || !has(names(reqs[0]), name) || !has(names(reqs[0]), "read_note") {
		t.Fatalf("requests = %d, tools = %v", len(reqs), names(reqs[0]))
	}
	last := reqs[1].Messages[len(reqs[1].Messages)-1]
	if last.Role != "tool" || last.ToolCallID != "call_1" || last.Content != "echo: 東京" {
		t.Fatalf("tool message = %+v", last)
	}
	acts := rec.tools()
	if len(acts) != 2 || acts[0].Server != "local files" || acts[0].Label != "echo" || acts[1].Status != "done" {
		t.Fatalf("activity = %+v", acts)
	}
	if res.Context.ToolsSent != len(reqs[0].Tools) || len(res.Context.ToolsLeftOut) != 0 {
		t.Fatalf("report tools = %d sent, %v left out", res.Context.ToolsSent, res.Context.ToolsLeftOut)
	}
}

func TestAnIsErrorResultAndImagesReachTheModel(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "s", "normal")})
	srv.Enqueue(toolCall("c1", "s__fail", `{}`), toolCall("c2", "s__picture", `{}`), llmtest.Text("ok", 1))
	rec := &recorder{}
	if res := run(t, c, chat.TurnRequest{Text: "go"}, rec); res.Err != nil {
		t.Fatal(res.Err)
	}
	reqs := srv.ChatRequests()
	failMsg := reqs[1].Messages[len(reqs[1].Messages)-1]
	if failMsg.Content != "disk is full" {
		t.Fatalf("isError result = %+v", failMsg)
	}
	acts := rec.tools()
	if acts[1].Status != "error" {
		t.Fatalf("isError activity = %+v", acts[1])
	}
	msgs := reqs[2].Messages
	img := msgs[len(msgs)-1]
	if img.Role != "user" || len(img.MultiContent) != 2 || img.MultiContent[1].ImageURL == nil ||
		img.MultiContent[1].ImageURL.URL != "data:image/png;base64,UE5HREFUQQ==" {
		t.Fatalf("image message = %+v", img)
	}
}

func TestDiscordTurnsGetNoMCPToolsUnlessTheServerAllowsIt(t *testing.T) {
	srv := llmtest.NewServer(t)
	open := mcpclient.FakeStdio(t, "open", "normal")
	open.AllowDiscord = true
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "private", "normal"), open})
	srv.Enqueue(toolCall("c1", "private__echo", `{"text":"x"}`), llmtest.Text("ok", 1))
	run(t, c, chat.TurnRequest{Text: "hi", Requester: &tools.Requester{Origin: "discord", UserID: "1"}}, &recorder{})
	reqs := srv.ChatRequests()
	ns := names(reqs[0])
	if has(ns, "private__echo") || !has(ns, "open__echo") {
		t.Fatalf("discord tools = %v", ns)
	}
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(got, "error") {
		t.Fatalf("a call of a private tool from Discord = %q", got)
	}
}

func TestToolsThatDoNotFitTheBudgetAreLeftOutAndReported(t *testing.T) {
	srv := llmtest.NewServer(t)
	// A small window: playchat's own tools fit, the server's do not all.
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "s", "normal")},
		"CONTEXT_WINDOW_TOKENS=1800", "MAX_OUTPUT_TOKENS=300")
	res := run(t, c, chat.TurnRequest{Text: "hi"}, &recorder{})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	sent := names(srv.ChatRequests()[0])
	if len(res.Context.ToolsLeftOut) == 0 || res.Context.ToolsSent != len(sent) {
		t.Logf("report %+v", res.Context)
		t.Fatalf("left out %v, sent %v", res.Context.ToolsLeftOut, sent)
	}
	for _, o := range res.Context.ToolsLeftOut {
		if has(sent, o.ID) || o.Kind != "tool" || o.Reason != "budget" || !strings.HasPrefix(o.Title, "s · ") {
			t.Fatalf("omission %+v (sent %v)", o, sent)
		}
	}
}

func TestDestructiveToolsNeedApproval(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "s", "normal")})
	// Without a window to ask: refused with a clear result.
	srv.Enqueue(toolCall("c1", "s__delete_everything", `{}`), llmtest.Text("ok", 1))
	run(t, c, chat.TurnRequest{Text: "go"}, &recorder{})
	reqs := srv.ChatRequests()
	if got := reqs[1].Messages[len(reqs[1].Messages)-1].Content; !strings.Contains(got, "needs approval in the playchat window") {
		t.Fatalf("unapproved result = %q", got)
	}
	// With the window: the activity item asks, "always" runs it and is
	// remembered for the server.
	ap := mcpclient.NewApprovals()
	c.MCP.SetApprovals(ap)
	rec := &recorder{}
	rec.onTool = func(a event.ToolActivity) {
		if a.Approval {
			go ap.Decide(a.ID, mcpclient.AllowAlways)
		}
	}
	srv.Enqueue(toolCall("c2", "s__delete_everything", `{}`), llmtest.Text("ok", 1))
	run(t, c, chat.TurnRequest{Text: "go"}, rec)
	reqs = srv.ChatRequests()
	if got := reqs[3].Messages[len(reqs[3].Messages)-1].Content; got != "deleted" {
		t.Fatalf("approved result = %q", got)
	}
	cfg, _ := c.MCP.Store().Load()
	if !cfg.Servers[0].AlwaysAllow {
		t.Fatal("allow always was not stored")
	}
}

var _ = toolNames

// A call waiting for the user's click is stored with the reply so far (a
// window that loads the chat meanwhile still shows the buttons), and the
// answer given is shown and kept with the finished reply.
func TestAWaitingApprovalIsStoredWhileItWaitsAndTheDecisionIsKept(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "s", "normal")})
	ap := mcpclient.NewApprovals()
	c.MCP.SetApprovals(ap)
	stored := make(chan string, 1)
	sessions := make(chan string, 1)
	rec := &recorder{}
	rec.onTool = func(a event.ToolActivity) {
		if !a.Approval {
			return
		}
		go func() {
			// The streaming row holds the waiting item before the click.
			sid := <-sessions
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) {
				ms, _ := c.DB.SessionMessages(context.Background(), sid)
				for _, m := range ms {
					if m.Role == "assistant" && strings.Contains(m.ToolActivity, `"approval":true`) {
						stored <- m.Status
						ap.Decide(a.ID, mcpclient.AllowOnce)
						return
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			stored <- "never"
			ap.Decide(a.ID, mcpclient.Deny)
		}()
	}
	srv.Enqueue(toolCall("c1", "s__delete_everything", `{}`), llmtest.Text("ok", 1))
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "go"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	sessions <- tr.SessionID
	res := tr.Wait()
	if st := <-stored; st != "streaming" {
		t.Fatalf("the waiting item was stored in a %q row", st)
	}
	var decided, asked bool
	for _, a := range rec.tools() {
		asked = asked || a.Approval
		if a.ID == "c1" && a.Decision == mcpclient.AllowOnce {
			decided = true
		}
		if a.Approval && a.Decision != "" {
			t.Fatalf("an event both asks and answers: %+v", a)
		}
	}
	if !asked || !decided {
		t.Fatalf("events %+v: want the question, then the answer \"once\"", rec.tools())
	}
	var final []event.ToolActivity
	if err := json.Unmarshal([]byte(res.Reply.ToolActivity), &final); err != nil {
		t.Fatal(err)
	}
	if len(final) != 1 || final[0].Status != "done" || final[0].Approval || final[0].Decision != mcpclient.AllowOnce {
		t.Fatalf("stored activity %+v: want one done item, answered once, no longer asking", final)
	}
	if got := srv.ChatRequests()[1].Messages; got[len(got)-1].Content != "deleted" {
		t.Fatalf("the approved call's result did not reach the model: %q", got[len(got)-1].Content)
	}
}

// The same turn over the other transport: a streamable-HTTP server's tool
// (with its header) is offered, called and its result sent back.
func TestAToolOfAStreamableHTTPServerIsCalledDuringATurn(t *testing.T) {
	srv := llmtest.NewServer(t)
	web := mcpclient.Server{Name: "web", Transport: mcpclient.TransportHTTP, URL: mcpclient.FakeHTTP(t),
		Headers: map[string]string{"X-Token": "secret"}}
	c := openCore(t, srv, []mcpclient.Server{web})
	srv.Enqueue(toolCall("h1", "web__echo", `{"text":"大阪"}`), llmtest.Text("done", 1))
	rec := &recorder{}
	res := run(t, c, chat.TurnRequest{Text: "echo over http"}, rec)
	reqs := srv.ChatRequests()
	if res.Err != nil || len(reqs) != 2 || !has(names(reqs[0]), "web__echo") {
		t.Fatalf("result %+v, %d requests", res.Err, len(reqs))
	}
	if last := reqs[1].Messages[len(reqs[1].Messages)-1]; last.Role != "tool" || last.ToolCallID != "h1" || last.Content != "echo: 大阪" {
		t.Fatalf("tool message = %+v", last)
	}
	if acts := rec.tools(); len(acts) != 2 || acts[0].Server != "web" || acts[1].Status != "done" {
		t.Fatalf("activity = %+v", acts)
	}
}

// Stop while a call waits for approval ends the turn at once: the call is
// never run, its item ends, and the model is not asked again.
func TestStopWhileAnApprovalWaitsEndsTheTurnAndRunsNothing(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := openCore(t, srv, []mcpclient.Server{mcpclient.FakeStdio(t, "s", "normal")})
	c.MCP.SetApprovals(mcpclient.NewApprovals())
	rec := &recorder{}
	rec.onTool = func(a event.ToolActivity) {
		if a.Approval {
			go c.Chat.Stop("turn-stop")
		}
	}
	srv.Enqueue(toolCall("c1", "s__delete_everything", `{}`), llmtest.Text("never sent", 1))
	start := time.Now()
	run(t, c, chat.TurnRequest{TurnID: "turn-stop", Text: "go"}, rec)
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the turn took %s after Stop", d)
	}
	if n := len(srv.ChatRequests()); n != 1 {
		t.Fatalf("%d requests: the model was asked again after Stop", n)
	}
	acts := rec.tools()
	if end := acts[len(acts)-1]; end.ID != "c1" || end.Status == "running" || end.Decision != "" {
		t.Fatalf("last activity %+v: want c1 ended without a decision", end)
	}
	for _, a := range acts {
		if strings.Contains(a.Result, "deleted") {
			t.Fatalf("the call ran: %+v", a)
		}
	}
}
