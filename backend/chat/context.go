package chat

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"playchat/backend/apperr"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

// byPriority returns the indexes of layers, highest Priority first, stable.
func byPriority(layers []layer.Layer) []int {
	idx := make([]int, len(layers))
	prio := make([]int, len(layers))
	for i, l := range layers {
		idx[i] = i
		if p, ok := l.(layer.Prioritized); ok {
			prio[i] = p.Priority()
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return prio[idx[a]] > prio[idx[b]] })
	return idx
}

// Budget is how the context window of one request is shared out, in tokens.
type Budget struct {
	// Window is the model's context window.
	Window int
	// Output is reserved for the reply (MAX_OUTPUT_TOKENS).
	Output int
	// Input is what the request may use: Window − Output − a 5 % margin for
	// the counting error of estimated tokenizers.
	Input int
	// LayerShare caps each system layer at this fraction of Input.
	LayerShare float64
}

// NewBudget derives the budget from a context window and the reply
// reservation (both in tokens), with tokens.InputBudget.
func NewBudget(window, output int) Budget {
	input, output := tokens.InputBudget(window, output)
	return Budget{Window: window, Output: output, Input: input, LayerShare: 0.25}
}

// Built is the context of one request and how it was cut.
type Built struct {
	Messages []llm.Message
	// Tokens is the counted (or estimated) size of Messages.
	Tokens int
	// Dropped counts history messages left out for lack of room (the oldest).
	Dropped int
	// Trimmed names the layers whose blocks were cut or dropped.
	Trimmed []string
	// OverShare lists layers whose full text exceeded their share (the
	// memory layer uses it to trigger re-summarisation).
	OverShare []string
	// Report is what each part used and what was left out or cut (the
	// context meter).
	Report ContextReport
}

// minRecentMessages is how many of the newest history messages are kept
// before any system layer gets room, so a long memory or document can never
// push the conversation itself out.
const minRecentMessages = 4

// buildContext assembles the request (DESIGN.md §5) within budget b.
//
// Priority when the budget is short, highest first:
//  1. the base system prompt and the user's newest message (never cut; if
//     they alone do not fit, the turn fails with a clear error);
//  2. the newest minRecentMessages of the history;
//  3. the system layers (1 knowledge, 2 notes index, 2.5 pinned notes,
//     3 local KB, 4 long-term memory), each capped at LayerShare of the
//     input budget, given room in Priority order (the pinned notes the user
//     chose before everything retrieval chose), then in layer order — a
//     truncatable block is cut with tokens.Truncate (at a paragraph, line,
//     sentence or word boundary, else a character) with a visible
//     TruncationMarker, other blocks are dropped whole; the blocks are sent
//     in layer order whatever the priority;
//  4. the rest of the history, newest first, until the budget is spent.
//
// history is the session's active messages, oldest first, ending with the
// newest user message.
//
// toolTokens is the size of the tool definitions the request carries; it
// is spent first, with the base prompt.
func buildContext(ctx context.Context, counter tokens.Counter, b Budget, base string, toolTokens int, layers []layer.Layer, q layer.Query, history []store.Message) (Built, error) {
	return buildContextWith(ctx, counter, b, base, "", toolTokens, layers, q, history)
}

// buildContextWith is buildContext with the chat's own system prompt
// (store.ChatSettings.SystemPrompt, "" for none).
//
// Where it sits: its own system message right after playchat's base prompt
// (who playchat is, the local time, a turn's extra text) and before the
// context layers, so the user's instructions read as the chat's standing
// orders and the layers as the material they apply to.
//
// Its room: it is spent right after the base prompt, the tool definitions
// and the newest user message, before any history or layer — it yields to
// nothing but the newest message. When it does not fit beside them it is
// cut (tokens.Truncate, with TruncationMarker) or, with no room at all,
// left out, and the report says so (SystemCut, SystemFull): the window's
// context meter tells the user.
func buildContextWith(ctx context.Context, counter tokens.Counter, b Budget, base, system string, toolTokens int, layers []layer.Layer, q layer.Query, history []store.Message) (Built, error) {
	count := func(s string) int { return counter.Count(s) + tokens.MessageOverhead }
	// countMsg counts a history message; its attachments are their own
	// part of the report (Attachments), not History's or Message's.
	countMsg := func(m llm.Message) (all, own int) {
		all, att := messageTokens(counter, m)
		return all, all - att
	}
	var out Built

	hist := historyMessages(history)
	if len(hist) == 0 {
		return out, fmt.Errorf("no user message to answer")
	}
	latest := hist[len(hist)-1]
	rep := ContextReport{Model: q.Model, Window: b.Window, Output: b.Output, Input: b.Input, Preview: q.Preview,
		Prompt: count(base), Tools: toolTokens, Layers: make([]layer.Usage, len(layers))}
	latestAll, latestOwn := countMsg(latest)
	rep.Message, rep.Attachments = latestOwn, latestAll-latestOwn
	used := rep.Prompt + rep.Tools + latestAll
	if used > b.Input {
		rep.Used, rep.TooLong, rep.Layers = used, true, []layer.Usage{}
		out.Report = rep
		return out, apperr.New(apperr.ChatTooLongForModel, map[string]any{"used": used, "limit": b.Input})
	}

	// 1b. the chat's own system prompt.
	system = strings.TrimSpace(system)
	if system != "" {
		full := count(system)
		rep.SystemFull = full
		text, c := system, full
		if room := b.Input - used; c > room {
			rep.SystemCut = true
			text = tokens.Truncate(counter, system, room-tokens.MessageOverhead-16, TruncationMarker)
			c = 0
			if text != "" {
				c = count(text)
			}
		}
		system, rep.System = text, c
		used += c
	}

	// 2. the newest messages before the latest one.
	rest := hist[:len(hist)-1]
	keep := 0 // how many of rest, counted from the end, are kept
	for keep < len(rest) && keep < minRecentMessages {
		c, own := countMsg(rest[len(rest)-1-keep])
		if used+c > b.Input {
			break
		}
		used += c
		rep.History.Tokens += own
		rep.Attachments += c - own
		keep++
	}

	// 3. system layers: built in order, given room in priority order, sent
	// in order.
	share := int(float64(b.Input) * b.LayerShare)
	built := make([][]layer.Block, len(layers))
	for i, l := range layers {
		blocks, err := l.Build(ctx, q)
		if err != nil {
			return out, fmt.Errorf("context layer %s: %w", l.Name(), err)
		}
		built[i] = blocks
		full := 0
		for _, bl := range blocks {
			full += count(bl.Text)
		}
		if full > share {
			out.OverShare = append(out.OverShare, l.Name())
		}
		rep.Layers[i] = usageOf(l.Name(), full)
	}
	kept := make([][]string, len(layers))
	for _, i := range byPriority(layers) {
		layerUsed := 0
		u := &rep.Layers[i]
		for _, bl := range built[i] {
			c := count(bl.Text)
			room := min(share-layerUsed, b.Input-used)
			text := bl.Text
			if c > room {
				out.Trimmed = appendOnce(out.Trimmed, layers[i].Name())
				if !bl.Truncatable {
					dropped(u, bl)
					continue
				}
				marker := bl.CutMarker
				if marker == "" {
					marker = TruncationMarker
				}
				text = tokens.Truncate(counter, bl.Text, room-tokens.MessageOverhead-16, marker)
				if text == "" {
					dropped(u, bl)
					continue
				}
				full := c
				c = count(text)
				cut(u, bl, text, marker, c, full)
			} else {
				sentWhole(u, bl, c)
			}
			kept[i] = append(kept[i], text)
			layerUsed += c
			used += c
		}
	}
	var layerMsgs []llm.Message
	for _, texts := range kept {
		for _, text := range texts {
			layerMsgs = append(layerMsgs, llm.Message{Role: store.RoleSystem, Content: text})
		}
	}

	// 4. older history, newest first, contiguous.
	for keep < len(rest) {
		c, own := countMsg(rest[len(rest)-1-keep])
		if used+c > b.Input {
			break
		}
		used += c
		rep.History.Tokens += own
		rep.Attachments += c - own
		keep++
	}
	// A conversation cut short starts with a question: a reply whose
	// question was left out goes too (the model would read an answer to
	// nothing, and some providers want the first message to be the
	// user's).
	for keep > 0 && keep < len(rest) && rest[len(rest)-keep].Role != store.RoleUser {
		c, own := countMsg(rest[len(rest)-keep])
		used -= c
		rep.History.Tokens -= own
		rep.Attachments -= c - own
		keep--
	}
	out.Dropped = len(rest) - keep
	rep.History.Sent, rep.History.LeftOut = keep, out.Dropped
	rep.Used = used
	for i := range rep.Layers {
		rep.Layers[i] = rep.Layers[i].Capped()
	}
	out.Report = rep

	msgs := make([]llm.Message, 0, 2+len(layerMsgs)+keep+1)
	msgs = append(msgs, llm.Message{Role: store.RoleSystem, Content: base})
	if system != "" {
		msgs = append(msgs, llm.Message{Role: store.RoleSystem, Content: system})
	}
	msgs = append(msgs, layerMsgs...)
	msgs = append(msgs, rest[len(rest)-keep:]...)
	msgs = append(msgs, latest)
	out.Messages = msgs
	out.Tokens = used
	return out, nil
}

// historyMessages turns stored messages into request messages. A question
// that got no reply with text — the reply failed, the user stopped it
// before its first word, the message itself was refused — is an
// unanswered question (Unanswered): it is left out with its empty reply,
// so it is never re-sent without the user seeing it (the window offers
// Retry and Remove on it) and a message the provider refused cannot make
// every later one fail (issue 21). Roles still alternate. The last message
// is the question being answered now and always goes. Partial replies go
// as they were shown (an interrupted one too). A reply still streaming —
// another turn's, of this process or another (`playchat ask` beside the
// window) — is left out with its question: half of it would read to the
// model as the whole answer.
func historyMessages(ms []store.Message) []llm.Message {
	out := make([]llm.Message, 0, len(ms))
	skip := unansweredAt(ms)
	for i, m := range ms {
		if m.Role != store.RoleUser && m.Role != store.RoleAssistant {
			continue
		}
		if skip[i] || (m.Role == store.RoleAssistant && (!hasText(m) || m.Status == store.StatusStreaming)) {
			continue
		}
		if m.Role == store.RoleUser && i+1 < len(ms) && ms[i+1].Role == store.RoleAssistant && ms[i+1].Status == store.StatusStreaming {
			continue
		}
		// Two of a kind in a row can only come from rows written outside
		// the turn pipeline (an import): they are joined, so strict
		// providers accept the request.
		msg := withFiles(m.Role, m.Content, m.Files)
		if n := len(out); n > 0 && out[n-1].Role == m.Role {
			out[n-1] = joinMessages(out[n-1], msg)
			continue
		}
		out = append(out, msg)
	}
	return out
}

func hasText(m store.Message) bool { return strings.TrimSpace(m.Content) != "" }

// unansweredAt marks the indexes of ms (a branch, oldest first) holding an
// unanswered question: a user message, not the last message, whose next
// message is not an assistant reply with text.
func unansweredAt(ms []store.Message) map[int]bool {
	out := map[int]bool{}
	for i := 0; i < len(ms)-1; i++ {
		if ms[i].Role != store.RoleUser {
			continue
		}
		next := ms[i+1]
		if next.Role != store.RoleAssistant || !hasText(next) {
			out[i] = true
		}
	}
	return out
}

// Unanswered returns the ids of the unanswered questions of a branch
// (oldest first, as store.DB.BranchMessages returns it): user messages that
// got no reply with text. A last message that is a user message counts too
// unless answering is true (its turn is running). The window marks them
// and offers Retry (Regenerate with RegenerateRequest.QuestionID) and
// Remove (Service.RemoveUnanswered); the context leaves them out. While
// answering, the last question's reply stored so far with no text yet (a
// round of tool calls, or one waiting for the user's approval) is its
// reply being written, not a failed one.
func Unanswered(branch []store.Message, answering bool) map[int64]bool {
	out := map[int64]bool{}
	n := len(branch)
	for i := range unansweredAt(branch) {
		if answering && i == n-2 && branch[i+1].Role == store.RoleAssistant && branch[i+1].Status == store.StatusStreaming {
			continue
		}
		out[branch[i].ID] = true
	}
	if n > 0 && !answering && branch[n-1].Role == store.RoleUser {
		out[branch[n-1].ID] = true
	}
	return out
}

// TruncationMarker ends a block cut to fit the budget.
const TruncationMarker = "\n…(truncated to fit the context window)"

func appendOnce(ss []string, s string) []string {
	for _, x := range ss {
		if x == s {
			return ss
		}
	}
	return append(ss, s)
}

// BasePrompt is the first system message of every request: who the assistant
// is. It states no time: the request's one statement of "now" is the clock
// layer's block (reminders.ClockLayer, which a chat cannot switch off), the
// last layer, so this prompt and the layers before the clock stay the same
// from turn to turn — a prefix a provider's prompt cache can reuse.
func BasePrompt() string {
	return "You are playchat, a helpful assistant with a memory of this conversation. " +
		"Answer in the language the user writes in."
}
