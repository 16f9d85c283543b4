package chat

import (
	"context"
	"strconv"
	"strings"

	"playchat/backend/layer"
	"playchat/backend/memory"
	"playchat/backend/store"
)

// memoryLayer is context layer 4: the session's long-term memories
// (summaries of archived messages), oldest first, as one system message.
type memoryLayer struct{ db *store.DB }

// MemoryLayerHeader opens the long-term memory system message.
const MemoryLayerHeader = memory.LayerHeader

func (memoryLayer) Name() string { return "memory" }

// Build returns memory.LayerText of the session's active memories as one
// block (the text memory.Summarizer.Compact measures).
func (l memoryLayer) Build(ctx context.Context, q layer.Query) ([]layer.Block, error) {
	if q.SessionID == "" {
		return nil, nil
	}
	mems, err := l.db.ActiveMemories(ctx, q.SessionID)
	if err != nil || len(mems) == 0 {
		return nil, err
	}
	// Truncatable: when over budget the newest summaries are the ones cut,
	// and the memory compactor re-summarises the oldest after the turn.
	return []layer.Block{{Layer: "memory", Text: memory.LayerText(mems), Truncatable: true, Items: memoryItems(mems)}}, nil
}

// memoryItems names each memory of memory.LayerText(mems) with the byte
// offset where its entry ("\n\n### date\nsummary") begins.
func memoryItems(mems []store.Memory) []layer.Item {
	items := make([]layer.Item, len(mems))
	off := len(memory.LayerHeader)
	for i, m := range mems {
		date := m.CreatedAt.Local().Format("2006-01-02 15:04")
		items[i] = layer.Item{Kind: layer.KindMemory, ID: strconv.FormatInt(m.ID, 10), Title: date, Start: off}
		off += len("\n\n### ") + len(date) + 1 + len(strings.TrimSpace(m.Summary))
	}
	return items
}
