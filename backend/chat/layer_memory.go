package chat

import (
	"context"
	"strings"

	"playchat/backend/store"
)

// memoryLayer is context layer 4: the session's long-term memories
// (summaries of archived messages), oldest first, as one system message.
type memoryLayer struct{ db *store.DB }

// MemoryLayerHeader opens the long-term memory system message.
const MemoryLayerHeader = "## Long-term memory\nSummaries of earlier parts of this conversation, oldest first. They are background: prefer the recent messages when they disagree."

func (memoryLayer) Name() string { return "memory" }

func (l memoryLayer) Build(ctx context.Context, q Query) ([]Block, error) {
	if q.SessionID == "" {
		return nil, nil
	}
	mems, err := l.db.ActiveMemories(ctx, q.SessionID)
	if err != nil || len(mems) == 0 {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(MemoryLayerHeader)
	for _, m := range mems {
		b.WriteString("\n\n### ")
		b.WriteString(m.CreatedAt.Local().Format("2006-01-02 15:04"))
		b.WriteString("\n")
		b.WriteString(strings.TrimSpace(m.Summary))
	}
	// Truncatable: when over budget the newest summaries are the ones cut,
	// and the memory compactor re-summarises the oldest after the turn.
	return []Block{{Layer: "memory", Text: b.String(), Truncatable: true}}, nil
}
