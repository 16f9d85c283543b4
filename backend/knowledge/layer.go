package knowledge

import (
	"context"
	"fmt"
	"strings"

	"playchat/backend/layer"
)

// LayerName is layer 1's id in budgets and logs.
const LayerName = "knowledge"

// layerIntro heads layer 1's block.
const layerIntro = "Learned knowledge from earlier web searches (newest first; headings only). " +
	"Call read_knowledge with an id to read an entry's key points and sources before relying on it, " +
	"and prefer it to a new web_search for the same question. The local knowledge base, when it has " +
	"the answer, outranks these.\n"

// Layer returns context layer 1 (DESIGN.md §5): the headings of the newest
// KNOWLEDGE_CONTEXT_LIMIT entries with their ids and dates, as one
// truncatable block (the builder cuts it at a line to fit its share of the
// token budget, dropping the oldest headings first). No entries or a limit
// of 0: no block.
func (s *Service) Layer() layer.Layer { return knowledgeLayer{s} }

type knowledgeLayer struct{ s *Service }

func (knowledgeLayer) Name() string { return LayerName }

func (l knowledgeLayer) Build(ctx context.Context, _ layer.Query) ([]layer.Block, error) {
	limit := l.s.settings().ContextLimit
	if limit <= 0 {
		return nil, nil
	}
	es, err := l.s.List(ctx, limit)
	if err != nil || len(es) == 0 {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(layerIntro)
	for _, e := range es {
		fmt.Fprintf(&b, "- [%d] %s (%s)\n", e.ID, oneLine(e.Heading), e.FetchedAt.Format("2006-01-02"))
	}
	return []layer.Block{{Layer: LayerName, Text: strings.TrimRight(b.String(), "\n"), Truncatable: true,
		CutMarker: "\n…(older learned knowledge left out to fit the context window)"}}, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
