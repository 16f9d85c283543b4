// Package layer defines the seam between the chat turn and what feeds its
// context (DESIGN.md §5): a Layer builds Blocks of system text for a Query.
// It is a leaf: the layers (notes, kb, memory, learned knowledge, reminders)
// depend on it, and backend/chat sits on top, so no layer imports the
// orchestrator.
package layer

import "context"

// Layer contributes system text to the context of one request (DESIGN.md §5
// layers 1–4). Layers are asked in order; each returns zero or more blocks.
type Layer interface {
	// Name is the layer's short id, e.g. "memory", used in logs and budgets.
	Name() string
	// Build returns the layer's blocks for the query, most important first.
	Build(ctx context.Context, q Query) ([]Block, error)
}

// Prioritized is implemented by a layer whose blocks get their room in the
// budget before other layers' (higher Priority first; a layer without the
// method has priority 0, and equal priorities keep layer order). Priority
// changes who is cut when room is short, never where the blocks go in the
// request.
type Prioritized interface {
	Priority() int
}

// PriorityUserChoice is the priority of a layer holding what the user chose
// explicitly (pinned notes): it outranks layers filled by automatic
// retrieval (priority 0).
const PriorityUserChoice = 10

// Query is what a layer knows about the request it builds for.
type Query struct {
	SessionID string
	// LatestUser is the text of the user's newest message.
	LatestUser string
	Model      string
	// Preview is true when the context is only measured (the context
	// meter, as the user types): a layer must then make no network call
	// and write nothing (the KB retrieves lexically only).
	Preview bool
	// Outside is true for a turn asked from outside the window (a Discord
	// user, chat.TurnRequest.Requester): layers of the owner's private
	// data — the shared notes and the local knowledge base — add nothing,
	// so nobody who can mention the bot reads them through its replies.
	Outside bool
	// NoNotes is true when the shared notes must add nothing though the
	// rest may (an API request while INTEROP_SHARE_NOTES is off: notes are
	// shared with other tools only when the user says so).
	NoNotes bool
	// KBDomain, when not "", limits the local knowledge base (layer 3) to
	// the documents under this top-level folder of it (an API request's
	// x_playchat_kb_domain). Other layers ignore it.
	KBDomain string
}

// Block is one piece of system text from a layer. A block is sent whole, cut
// to fit (Truncatable) or dropped, as the budget allows.
type Block struct {
	Layer       string
	Text        string
	Truncatable bool
	// CutMarker ends the block when it is cut ("" = the chat package's
	// TruncationMarker), so a layer can say where the rest is (e.g.
	// read_note for a pinned page).
	CutMarker string
	// Items lists what the block carries (note pages, KB documents,
	// memories), in text order; nil for a block that names nothing (the
	// context meter then shows the block as a whole).
	Items []Item
	// LeftOut lists what the layer itself left out or cut while building
	// the block (e.g. a pinned page cut at its character limit), for the
	// context meter.
	LeftOut []Omission
}
