package chat

import (
	"strings"

	"playchat/backend/layer"
)

// ContextReport is what the context of one request used (the context
// meter): the window, each part's tokens, what was sent and — most
// important — what was left out or cut to fit. It is stored with each
// assistant reply (store.SaveContextReport) and computed live for the next
// turn by Service.Preview. All sizes are tokens as counted by the model's
// counter (tiktoken where known, the documented estimate otherwise).
type ContextReport struct {
	// Model is the "provider/model" the context was built for.
	Model string `json:"model"`
	// Window is the model's context window (or CONTEXT_WINDOW_TOKENS).
	Window int `json:"window"`
	// Output is reserved for the reply (MAX_OUTPUT_TOKENS).
	Output int `json:"output"`
	// Input is the budget of the request: Window − Output − a 5 % margin.
	Input int `json:"input"`
	// Used is the size of the request as built (≤ Input): Prompt + System +
	// Tools + Message + Attachments + every layer's Tokens + History.Tokens.
	Used int `json:"used"`
	// Prompt is the base system prompt's size.
	Prompt int `json:"prompt"`
	// System is what the chat's own system prompt used as sent
	// (store.ChatSettings.SystemPrompt; 0 when it has none), SystemFull its
	// whole size, and SystemCut is true when it did not fit beside the
	// newest message and was cut or left out (System < SystemFull).
	System     int  `json:"system"`
	SystemFull int  `json:"systemFull"`
	SystemCut  bool `json:"systemCut"`
	// Tools is the size of the tool definitions sent with the request
	// (their JSON schemas; about 1k tokens for playchat's own), 0 when none
	// are offered (issue 22: the meter left them out).
	Tools int `json:"tools"`
	// ToolsSent is how many tool definitions were sent.
	ToolsSent int `json:"toolsSent"`
	// ToolsLeftOut are the user's MCP tools not sent because their schemas
	// did not fit the tools' share of the context or the provider's limit
	// on the number of tools (Kind "tool", Reason "budget" or
	// "tool_count"; ID is the name sent to the model, Title the server and
	// the real name).
	ToolsLeftOut []layer.Omission `json:"toolsLeftOut"`
	// Message is the newest user message's size (for a preview, the
	// draft's), its attachments left out.
	Message int `json:"message"`
	// Attachments is what the attachments of the sent messages (the newest
	// one's and the history's) use: their documents' text blocks and their
	// images (ImageTokens). Neither Message nor History counts them.
	Attachments int `json:"attachments"`
	// Layers are the system layers in the order they are sent (knowledge,
	// notes index, pinned notes, KB, memory, clock…), each with what it
	// included and left out.
	Layers []layer.Usage `json:"layers"`
	// History is the conversation sent before the newest message.
	History HistoryUsage `json:"history"`
	// Preview is true for a report computed for a draft (nothing sent).
	Preview bool `json:"preview"`
	// TooLong is true when the prompt, the tool definitions and the newest
	// message alone exceed Input: the turn would fail (Layers and History
	// are then empty).
	TooLong bool `json:"tooLong"`
	// AttachmentsTooLong is true, in a preview, when the draft's documents
	// do not fit beside the conversation: sending brings the offer to send
	// the part that fits or to add them to the knowledge base instead
	// (checkFits). Attachments and Used then count the documents in full,
	// so Used may exceed Input; the rest of the report is the draft's with
	// its images only.
	AttachmentsTooLong bool `json:"attachmentsTooLong,omitempty"`
}

// HistoryUsage is the part of the context that is the conversation (layer 5).
type HistoryUsage struct {
	// Tokens is what the sent history messages used.
	Tokens int `json:"tokens"`
	// Sent is how many history messages were sent (not counting the newest
	// user message).
	Sent int `json:"sent"`
	// LeftOut is how many of the oldest active messages were left out for
	// lack of room (archived messages are in memory instead and not counted).
	LeftOut int `json:"leftOut"`
}

// LeftOutCount is the number of items left out or cut in the report, the
// left-out history messages counted as one entry.
func (r ContextReport) LeftOutCount() int {
	n := len(r.ToolsLeftOut)
	for _, u := range r.Layers {
		n += len(u.LeftOut) + u.LeftOutMore
	}
	if r.History.LeftOut > 0 {
		n++
	}
	if r.SystemCut {
		n++
	}
	return n
}

// usageOf starts a layer's usage record with the full size of its blocks
// (tokens). What the layer itself left out while building a block is added
// as the block is sent, cut or dropped.
func usageOf(name string, full int) layer.Usage {
	return layer.Usage{Layer: name, FullTokens: full, Included: []layer.Item{}, LeftOut: []layer.Omission{}}
}

// blockItems returns the block's items, or one KindBlock item standing for
// the whole block when it names none.
func blockItems(bl layer.Block, layerName string) []layer.Item {
	if len(bl.Items) > 0 {
		return bl.Items
	}
	return []layer.Item{{Kind: layer.KindBlock, Title: layerName}}
}

// sentWhole records a block sent uncut, of c tokens.
func sentWhole(u *layer.Usage, bl layer.Block, c int) {
	u.Tokens += c
	u.Included = append(u.Included, blockItems(bl, u.Layer)...)
	u.LeftOut = append(u.LeftOut, bl.LeftOut...)
}

// dropped records a block left out whole for lack of room. What the layer
// had cut of its items (a page at its character limit) is superseded; what
// it left out of the block altogether (a document below top-k) still is.
func dropped(u *layer.Usage, bl layer.Block) {
	items := blockItems(bl, u.Layer)
	in := map[string]bool{}
	for _, it := range items {
		in[it.Kind+"\x00"+it.ID] = true
		u.LeftOut = append(u.LeftOut, layer.Omit(it, layer.ReasonBudget))
	}
	for _, o := range bl.LeftOut {
		if !in[o.Kind+"\x00"+o.ID] {
			u.LeftOut = append(u.LeftOut, o)
		}
	}
}

// cut records a block cut to text (its first kept bytes followed by
// marker), kept of full tokens: the items starting inside the kept part are
// included, the one the cut falls in is also reported truncated, and those
// starting after the cut are left out.
func cut(u *layer.Usage, bl layer.Block, text, marker string, kept, full int) {
	if text == bl.Text || !strings.HasSuffix(text, marker) {
		sentWhole(u, bl, kept) // Truncate found it fits after all
		return
	}
	u.LeftOut = append(u.LeftOut, bl.LeftOut...)
	u.Tokens += kept
	keptBytes := len(text) - len(marker)
	items := blockItems(bl, u.Layer)
	for i, it := range items {
		end := len(bl.Text)
		if i+1 < len(items) {
			end = items[i+1].Start
		}
		switch {
		case it.Start >= keptBytes && len(bl.Items) > 0:
			u.LeftOut = append(u.LeftOut, layer.Omit(it, layer.ReasonBudget))
		case end > keptBytes:
			u.Included = append(u.Included, it)
			o := layer.Omit(it, layer.ReasonTruncated)
			o.Kept, o.Total, o.Unit = kept, full, layer.UnitTokens
			u.LeftOut = append(u.LeftOut, o)
		default:
			u.Included = append(u.Included, it)
		}
	}
}
