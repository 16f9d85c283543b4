package chat_test

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/assistant"
	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

func f64(v float64) *float64 { return &v }

func systemTexts(r llmtest.RecordedRequest) []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role == "system" {
			out = append(out, m.Content)
		}
	}
	return out
}

// The request carries the chat's own system prompt (its own system message
// right after playchat's base prompt), temperature, top-p, max output
// tokens and model; the layers the chat switched off are absent; and a
// change applies from the next turn.
func TestTheRequestCarriesTheChatsSettings(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	if _, err := c.Notes.Create(ctx, "Zebra facts", "Zebras are striped.", ""); err != nil {
		t.Fatal(err)
	}
	cs := store.ChatSettings{SystemPrompt: "Answer as a Japanese teacher and correct my grammar.", Model: "openai/teacher-model",
		Temperature: f64(0.3), TopP: f64(0.8), MaxOutputTokens: 321, LayersOff: []string{store.LayerNotes}}
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "I goed to school", ChatSettings: &cs}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	rec := srv.Requests()[0]
	if rec.Model != "teacher-model" {
		t.Fatalf("model sent = %q, want teacher-model", rec.Model)
	}
	if rec.Temperature == nil || *rec.Temperature < 0.29 || *rec.Temperature > 0.31 || rec.TopP == nil || *rec.TopP < 0.79 {
		t.Fatalf("temperature %v top_p %v, want 0.3 and 0.8", rec.Temperature, rec.TopP)
	}
	if rec.MaxTokens+rec.MaxCompletionTokens != 321 {
		t.Fatalf("max tokens sent = %d/%d, want 321", rec.MaxTokens, rec.MaxCompletionTokens)
	}
	sys := systemTexts(rec)
	if len(sys) < 2 || !strings.HasPrefix(sys[0], "You are playchat") || sys[1] != cs.SystemPrompt {
		t.Fatalf("system messages = %q, want the base prompt then the chat's", sys)
	}
	for _, s := range sys {
		if strings.Contains(s, "Zebra facts") {
			t.Fatal("the notes index was sent although the chat switched it off")
		}
	}

	// Switch the notes back on and the prompt off: the next turn has them.
	if _, err := c.DB.SetSessionSettings(ctx, tr.SessionID, store.ChatSettings{}); err != nil {
		t.Fatal(err)
	}
	res, _, _ := turn(t, c, tr.SessionID, "next")
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	rec = srv.Requests()[1]
	joined := strings.Join(systemTexts(rec), "\n")
	if !strings.Contains(joined, "Zebra facts") || strings.Contains(joined, "Japanese teacher") || rec.Temperature != nil {
		t.Fatalf("after the change: system %q, temperature %v", joined, rec.Temperature)
	}
	if rec.Model != "teacher-model" {
		t.Fatalf("the chat's model was lost: %q", rec.Model)
	}
}

// The system prompt counts in the budget: it has its own part in the
// report, and when it does not fit beside the newest message it is cut and
// the report says so (the message is kept whole).
func TestTheSystemPromptCountsInTheBudget(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=4096", "MAX_OUTPUT_TOKENS=512")
	ctx := context.Background()
	cs := store.ChatSettings{SystemPrompt: "Be brief."}
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "hello", ChatSettings: &cs}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Wait()
	if res.Context.System == 0 || res.Context.SystemCut || res.Context.Used < res.Context.Prompt+res.Context.System+res.Context.Message {
		t.Fatalf("report = system %d cut %v used %d", res.Context.System, res.Context.SystemCut, res.Context.Used)
	}

	long := store.ChatSettings{SystemPrompt: strings.Repeat("Always answer with great care and many details. ", 600)}
	if _, err := c.DB.SetSessionSettings(ctx, tr.SessionID, long); err != nil {
		t.Fatal(err)
	}
	r, err := c.Chat.Preview(ctx, chat.PreviewRequest{SessionID: tr.SessionID, Text: "short question"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.SystemCut || r.System >= r.SystemFull || r.Used > r.Input || r.LeftOutCount() == 0 {
		t.Fatalf("over-long system prompt: system %d of %d, cut %v, used %d of %d", r.System, r.SystemFull, r.SystemCut, r.Used, r.Input)
	}
	res, _, _ = turn(t, c, tr.SessionID, "short question")
	if res.Err != nil {
		t.Fatalf("a turn with a cut system prompt failed: %v", res.Err)
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.LastUserMessage() != "short question" || !strings.Contains(systemTexts(last)[1], chat.TruncationMarker) {
		t.Fatal("the system prompt was not cut with the marker, or the message was lost")
	}
}

// A chat started from an assistant keeps its copy: editing the assistant
// later does not change the chat, until the user applies the new version.
func TestAnAssistantsLaterEditDoesNotChangeAnExistingChat(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	ctx := context.Background()
	a, err := c.Assistants.Create(ctx, assistant.Draft{Name: "Pirate", Icon: "🏴‍☠️",
		Settings: store.ChatSettings{SystemPrompt: "Talk like a pirate.", Temperature: f64(0.9)}})
	if err != nil {
		t.Fatal(err)
	}
	cp := assistant.CopyOf(a)
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "hi", ChatSettings: &cp.Settings, AssistantID: cp.AssistantID, AssistantVersion: cp.Version}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	tr.Wait()
	if _, err := c.Assistants.Update(ctx, a.ID, assistant.Draft{Name: "Pirate", Settings: store.ChatSettings{SystemPrompt: "Talk like a robot."}}); err != nil {
		t.Fatal(err)
	}
	turn(t, c, tr.SessionID, "again")
	rec := srv.Requests()[1]
	if got := systemTexts(rec)[1]; got != "Talk like a pirate." || rec.Temperature == nil {
		t.Fatalf("after the assistant's edit the chat sent %q (temperature %v)", got, rec.Temperature)
	}
	of, err := c.Assistants.OfChat(ctx, tr.SessionID)
	if err != nil || of.Assistant == nil || !of.Newer || of.CopiedVersion != 1 {
		t.Fatalf("OfChat = %+v, %v; want the newer version offered", of, err)
	}
	if _, err := c.Assistants.Apply(ctx, tr.SessionID, a.ID); err != nil {
		t.Fatal(err)
	}
	turn(t, c, tr.SessionID, "and now")
	rec = srv.Requests()[2]
	if got := systemTexts(rec)[1]; got != "Talk like a robot." || rec.Temperature != nil {
		t.Fatalf("after Apply the chat sent %q (temperature %v)", got, rec.Temperature)
	}
	if of, _ = c.Assistants.OfChat(ctx, tr.SessionID); of.Newer {
		t.Fatal("the applied version is still offered as newer")
	}
}

// A chat on a reasoning model never sends its temperature.
func TestAReasoningModelNeverReceivesTheChatsTemperature(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv)
	cs := store.ChatSettings{Model: "openai/o3-mini", Temperature: f64(0.1), TopP: f64(0.5)}
	tr, err := c.Chat.Start(context.Background(), chat.TurnRequest{Text: "think", ChatSettings: &cs}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	rec := srv.Requests()[0]
	if rec.Model != "o3-mini" || rec.Temperature != nil || rec.TopP != nil {
		t.Fatalf("sent model %q temperature %v top_p %v", rec.Model, rec.Temperature, rec.TopP)
	}
}
