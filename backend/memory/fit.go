package memory

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"playchat/backend/store"
	"playchat/backend/tokens"
)

// CutMarker ends a message or summary cut so that a summary request fits
// the summariser model's window.
const CutMarker = "\n…(cut to fit the summary model's context window)"

// maxReduceRounds bounds the merging of partial summaries; each round at
// least halves their number, so 8 rounds merge 256 parts.
const maxReduceRounds = 8

// plan is how one summary job's requests are sized.
type plan struct {
	model   string
	counter tokens.Counter
	input   int // tokens the whole request may use
	output  int // tokens reserved for the summary (sent as max tokens)
}

// newPlan sizes requests for model under set (CONTEXT_WINDOW_TOKENS and
// MAX_OUTPUT_TOKENS apply to the summariser as to chat).
func newPlan(model string, set Settings) plan {
	window := tokens.ContextWindow(model, set.ContextWindowTokens)
	input, output := tokens.InputBudget(window, set.MaxOutputTokens)
	return plan{model: model, counter: tokens.ForModel(model), input: input, output: output}
}

// room is how many tokens the user message of a request with instruction
// as its system message may count.
func (p plan) room(instruction string) int {
	return p.input - p.counter.Count(instruction) - 2*tokens.MessageOverhead - 3
}

// requestTokens is the counted size of a summary request.
func (p plan) requestTokens(instruction, text string) int {
	return p.counter.Count(instruction) + p.counter.Count(text) + 2*tokens.MessageOverhead + 3
}

// turnsOf groups messages into turns: each user message with the replies
// after it (leading replies without a user message form a turn of their
// own). A turn is never split between two summary requests.
func turnsOf(ms []store.Message) [][]store.Message {
	var out [][]store.Message
	for _, m := range ms {
		if strings.TrimSpace(m.Content) == "" {
			continue
		}
		if m.Role == store.RoleUser || len(out) == 0 {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], m)
	}
	return out
}

// turnSplit returns where to split active messages so the first part ends
// after a whole turn: the first user message at or after want, or, when
// none follows, the last one before it (0 when there is none).
func turnSplit(ms []store.Message, want int) int {
	for i := want; i < len(ms); i++ {
		if ms[i].Role == store.RoleUser {
			return i
		}
	}
	for i := min(want, len(ms)-1); i > 0; i-- {
		if ms[i].Role == store.RoleUser {
			return i
		}
	}
	return 0
}

// renderTurn renders one turn as "role: content" paragraphs within room
// tokens: whole when it fits, else the longer messages are cut (with
// CutMarker) so that every message keeps a fair share — a short question
// stays whole beside a long answer.
func (p plan) renderTurn(ms []store.Message, room int) string {
	line := func(m store.Message, content string) string { return fmt.Sprintf("%s: %s\n\n", m.Role, content) }
	need := make([]int, len(ms))
	total := 0
	for i, m := range ms {
		need[i] = p.counter.Count(line(m, m.Content))
		total += need[i]
	}
	out := make([]string, len(ms))
	if total <= room {
		for i, m := range ms {
			out[i] = line(m, m.Content)
		}
		return strings.Join(out, "")
	}
	order := make([]int, len(ms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return need[order[a]] < need[order[b]] })
	left := room
	for k, i := range order {
		share := left / (len(order) - k)
		m := ms[i]
		if need[i] <= share {
			out[i] = line(m, m.Content)
		} else {
			frame := p.counter.Count(line(m, ""))
			out[i] = line(m, tokens.Truncate(p.counter, m.Content, share-frame, CutMarker))
		}
		left -= p.counter.Count(out[i])
	}
	return strings.Join(out, "")
}

// chunks packs turns, in order, into texts that each fit room tokens.
func (p plan) chunks(turns [][]store.Message, room int) []string {
	var out []string
	var cur strings.Builder
	used := 0
	for _, t := range turns {
		text := p.renderTurn(t, room)
		n := p.counter.Count(text)
		if used > 0 && used+n > room {
			out = append(out, cur.String())
			cur.Reset()
			used = 0
		}
		cur.WriteString(text)
		used += n
	}
	if used > 0 {
		out = append(out, cur.String())
	}
	return out
}

// summariseMessages summarises ms (whole turns) in requests that fit the
// window: one request when they fit, else one per chunk of whole turns
// ("map"), then the partial summaries merged ("reduce").
func (s *Summarizer) summariseMessages(ctx context.Context, sessionID string, p plan, ms []store.Message) (string, error) {
	parts := p.chunks(turnsOf(ms), p.room(conversationPrompt))
	if len(parts) == 0 {
		return "", fmt.Errorf("no text to summarise")
	}
	partials := make([]string, 0, len(parts))
	for _, text := range parts {
		out, err := s.summarise(ctx, sessionID, p, conversationPrompt, text)
		if err != nil {
			return "", err
		}
		partials = append(partials, out)
	}
	return s.reduce(ctx, sessionID, p, partials)
}

// reduce merges summaries (oldest first) into one, in requests that fit the
// window: each summary is cut to half the room, then consecutive ones are
// merged in groups that fit, round after round.
func (s *Summarizer) reduce(ctx context.Context, sessionID string, p plan, texts []string) (string, error) {
	room := p.room(memoriesPrompt)
	for round := 0; len(texts) > 1; round++ {
		if round == maxReduceRounds {
			return "", fmt.Errorf("could not merge %d partial summaries into one", len(texts))
		}
		var next []string
		var group, raw []string
		used := 0
		flush := func() error {
			if len(group) == 0 {
				return nil
			}
			if len(group) == 1 {
				next = append(next, raw[0])
			} else {
				out, err := s.summarise(ctx, sessionID, p, memoriesPrompt, strings.Join(group, ""))
				if err != nil {
					return err
				}
				next = append(next, out)
			}
			group, raw, used = nil, nil, 0
			return nil
		}
		for i, t := range texts {
			part := fmt.Sprintf("### Part %d\n%s\n\n", i+1, tokens.Truncate(p.counter, t, room/2-8, CutMarker))
			n := p.counter.Count(part)
			if used > 0 && used+n > room {
				if err := flush(); err != nil {
					return "", err
				}
			}
			group, raw = append(group, part), append(raw, t)
			used += n
		}
		if err := flush(); err != nil {
			return "", err
		}
		texts = next
	}
	return texts[0], nil
}
