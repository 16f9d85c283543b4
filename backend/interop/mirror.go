package interop

import (
	"context"
	"fmt"
	"strconv"

	"playchat/backend/memory"
)

// MemoryDomain is the folder below _learned/ that mirrored memories go to.
const MemoryDomain = "memory"

// memoryConfidence is the confidence a mirrored memory carries: a model's
// summary of what was said, not a checked fact.
const memoryConfidence = 0.7

// MirrorMemories returns the hook (memory.Summarizer.SetOnArchive) that
// writes each new long-term memory as a learned document in
// _learned/memory/ while enabled() is true (MEMORY_MIRROR_LEARNED, off by
// default) — the seed's consolidator writing back what it summarised. Its
// provenance: source_type "memory", source_id the session, derived_from the
// summarised messages ("message:<id>", the first MaxDerivedFrom), client
// "playchat". A failed write is logged and never fails the summary.
func (s *Service) MirrorMemories(enabled func() bool) func(ctx context.Context, a memory.Archived) {
	return func(ctx context.Context, a memory.Archived) {
		if !enabled() {
			return
		}
		from := make([]string, 0, min(len(a.MessageIDs), MaxDerivedFrom))
		for _, id := range a.MessageIDs[:min(len(a.MessageIDs), MaxDerivedFrom)] {
			from = append(from, "message:"+strconv.FormatInt(id, 10))
		}
		conf := memoryConfidence
		l, err := s.writeLearning(ctx, "playchat", AppendLearningInput{
			Domain: MemoryDomain, Content: a.Summary, SourceType: "memory", SourceID: a.SessionID,
			Title: fmt.Sprintf("Memory %d", a.MemoryID), Confidence: &conf, DerivedFrom: from,
		})
		if err != nil {
			s.o.Log.Warn("mirroring a memory into the knowledge base failed (the memory is kept)",
				"session", a.SessionID, "memory", a.MemoryID, "err", err)
			return
		}
		s.o.Log.Info("memory mirrored into the knowledge base", "memory", a.MemoryID, "path", l.Path)
	}
}
