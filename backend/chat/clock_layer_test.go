package chat_test

import (
	"strings"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/llm/llmtest"
)

// clockHeading opens the reminders clock layer's block (reminders.ClockText).
const clockHeading = "# Current time\n"

// withoutClock drops the clock layer's system message, which core adds to
// every request (issue 10), so tests of other layers and history can count
// messages as before.
func withoutClock(ms []openai.ChatCompletionMessage) []openai.ChatCompletionMessage {
	out := make([]openai.ChatCompletionMessage, 0, len(ms))
	for _, m := range ms {
		if m.Role == "system" && strings.HasPrefix(m.Content, clockHeading) {
			continue
		}
		out = append(out, m)
	}
	return out
}

func TestEveryTurnTellsTheModelTheCurrentLocalTime(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Text("はい", 1))
	srv.Enqueue(llmtest.Text("はい", 1))
	c := newCore(t, srv)
	_, _, sid := turn(t, c, "", "明日の朝9時に燃えるゴミって教えて")
	turn(t, c, sid, "30分後にも")
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d", len(reqs))
	}
	for i, r := range reqs {
		n := len(r.Messages) - len(withoutClock(r.Messages))
		if n != 1 {
			t.Errorf("request %d has %d clock blocks, want 1", i, n)
		}
	}
}
