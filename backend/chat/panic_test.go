package chat_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/chat"
	"playchat/backend/layer"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

// panicLayer is a context layer with a bug: building it panics.
type panicLayer struct{}

func (panicLayer) Name() string { return "buggy" }
func (panicLayer) Build(context.Context, layer.Query) ([]layer.Block, error) {
	var m map[string]int
	m["boom"]++ // assignment to a nil map panics
	return nil, nil
}

// A bug inside a turn (issue 14: crash safety) is recovered: the turn ends
// with one chat.internal error event instead of streaming for ever or taking
// the process down, the user's message stays stored and the failed reply
// says why; the next turn of a working service runs as usual.
func TestAPanicInsideATurnEndsItWithAnInternalError(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	buggy := chat.New(chat.Options{
		DB: c.DB, LLM: c.LLM, Tools: c.Tools, Layers: []layer.Layer{panicLayer{}},
		Settings: func() chat.Settings { return chat.Settings{DefaultModel: "openai/fake-model"} },
	})
	rec := &recorder{}
	tr, err := buggy.Start(context.Background(), chat.TurnRequest{Text: "こんにちは"}, rec)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Wait()
	var ae *apperr.Error
	if !errors.As(res.Err, &ae) || ae.Code != apperr.ChatInternal || !strings.Contains(ae.Error(), "nil map") {
		t.Fatalf("turn error = %v, want chat.internal naming the panic", res.Err)
	}
	if got := rec.types(); got != "session_id,error" {
		t.Fatalf("events = %s, want session_id,error", got)
	}
	msgs, _ := c.DB.SessionMessages(context.Background(), tr.SessionID)
	if len(msgs) != 2 || msgs[0].Content != "こんにちは" || msgs[1].Status != store.StatusError ||
		!strings.Contains(msgs[1].ErrorInfo, "chat.internal") {
		t.Fatalf("stored after the panic = %+v", msgs)
	}
	if buggy.Running() != 0 {
		t.Fatal("the panicked turn is still listed as running")
	}
	// The app's own service still answers.
	srv.Enqueue(llmtest.Text("はい", 1))
	if res, _, _ := turn(t, c, tr.SessionID, "もう一度"); res.Err != nil {
		t.Fatalf("the next turn failed: %v", res.Err)
	}
}
