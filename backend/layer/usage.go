package layer

// Item kinds: what an Item or an Omission names.
const (
	// KindNote is a shared note page; ID is the page id in decimal.
	KindNote = "note"
	// KindKBDoc is a local knowledge base document; ID is its path
	// relative to the KB folder.
	KindKBDoc = "kb_doc"
	// KindMemory is a long-term memory (a summary of archived messages); ID
	// is the memory id in decimal.
	KindMemory = "memory"
	// KindBlock is a block of a layer that names no item of its own (the
	// clock, the learned-knowledge headings); ID is "" and Title the
	// layer's name.
	KindBlock = "block"
	// KindTool is a tool of the user's MCP servers (ID: the name sent to
	// the model; Title: "server · real name").
	KindTool = "tool"
)

// Why an item was left out of the context or cut (Omission.Reason).
const (
	// ReasonBudget: left out whole, because the token budget (the layer's
	// share or the whole request's) had no room for it.
	ReasonBudget = "budget"
	// ReasonTruncated: sent, but its block was cut to fit the budget;
	// Omission.Kept and Total are in tokens.
	ReasonTruncated = "truncated"
	// ReasonSections: a KB document sent in part — its sections that best
	// match the message first, as many as layer 3's budget held; Kept and
	// Total are in tokens.
	ReasonSections = "sections"
	// ReasonCharLimit: a pinned note page cut at
	// SESSION_NOTES_CONTENT_LIMIT; Kept and Total are in characters.
	ReasonCharLimit = "char_limit"
	// ReasonTopK: a KB document that matched the message but ranked below
	// LOCAL_KB_TOP_K.
	ReasonTopK = "top_k"
	// ReasonToolCount: the tool was left out past the provider's limit on
	// the number of tools in one request.
	ReasonToolCount = "tool_count"
)

// Units of Omission.Kept and Omission.Total.
const (
	UnitTokens     = "tokens"
	UnitCharacters = "characters"
)

// Item is one thing a block carries into the context: a note page, a KB
// document, a memory.
type Item struct {
	// Kind is one of the Kind constants.
	Kind string `json:"kind"`
	// ID identifies the item within its kind (see the Kind constants).
	ID string `json:"id"`
	// Title is what the user knows the item by (a page title, a document
	// title, a memory's date).
	Title string `json:"title"`
	// Start is the byte offset in Block.Text where the item's text begins
	// (items are in increasing Start order). The context builder uses it to
	// tell which items a cut block still holds; it is not reported.
	Start int `json:"-"`
}

// Omission is an item left out of the context, or cut to fit, and why.
type Omission struct {
	Kind  string `json:"kind"`
	ID    string `json:"id"`
	Title string `json:"title"`
	// Reason is one of the Reason constants.
	Reason string `json:"reason"`
	// Kept and Total say how much of the item (for ReasonTruncated: of its
	// block) was sent, in Unit; both 0 when the item was left out whole.
	Kept  int    `json:"kept"`
	Total int    `json:"total"`
	Unit  string `json:"unit"`
}

// Usage is one layer's part of the context of one request.
type Usage struct {
	// Layer is the layer's Name().
	Layer string `json:"layer"`
	// Tokens is what the layer's blocks used in the request, counted with
	// the model's counter, each system message's overhead included.
	Tokens int `json:"tokens"`
	// FullTokens is what the blocks would have used uncut (≥ Tokens).
	FullTokens int `json:"fullTokens"`
	// Included lists the items sent, whole or cut (a cut one is also in
	// LeftOut with ReasonTruncated).
	Included []Item `json:"included"`
	// LeftOut lists what was left out or cut: by the layer itself while
	// building (ReasonSections, ReasonCharLimit, ReasonTopK) and by the
	// budget (ReasonBudget, ReasonTruncated).
	LeftOut []Omission `json:"leftOut"`
	// IncludedMore and LeftOutMore count the entries beyond those listed
	// (a report lists at most MaxReportItems of each, so a notes index of
	// a thousand pages does not make every stored reply large).
	IncludedMore int `json:"includedMore"`
	LeftOutMore  int `json:"leftOutMore"`
}

// MaxReportItems caps Usage.Included and Usage.LeftOut.
const MaxReportItems = 100

// Capped returns u with at most MaxReportItems included and left-out
// entries listed, the rest counted.
func (u Usage) Capped() Usage {
	if n := len(u.Included); n > MaxReportItems {
		u.Included, u.IncludedMore = u.Included[:MaxReportItems], u.IncludedMore+n-MaxReportItems
	}
	if n := len(u.LeftOut); n > MaxReportItems {
		u.LeftOut, u.LeftOutMore = u.LeftOut[:MaxReportItems], u.LeftOutMore+n-MaxReportItems
	}
	return u
}

// Omit returns the Omission of item for reason, with nothing kept.
func Omit(it Item, reason string) Omission {
	return Omission{Kind: it.Kind, ID: it.ID, Title: it.Title, Reason: reason}
}
