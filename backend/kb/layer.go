package kb

import (
	"context"
	"fmt"
	"strings"

	"playchat/backend/layer"
	"playchat/backend/tokens"
)

// LayerName is context layer 3's name in logs and budgets.
const LayerName = "kb"

// LayerHeader opens context layer 3. As in the original app it says that
// these documents outrank web search and that the model should not search
// when they answer.
const LayerHeader = "## Local knowledge base\n" +
	"The documents below are from the user's own knowledge base and were selected for the latest message. " +
	"They take priority over web search results: if they answer the question, answer from them and do NOT call web_search. " +
	"Mention the document's path when you rely on it."

// DefaultTokenBudget is layer 3's budget, in tokens, when Settings.TokenBudget
// is 0: a fifth of the model's context window (the chat budget gives each
// system layer a quarter of the input, so this fits in it with room for the
// counting margin), at most 12,000 tokens.
func DefaultTokenBudget(model string) int {
	return min(tokens.ContextWindow(model, 0)/5, 12000)
}

// Layer returns context layer 3 (DESIGN.md §5): for the latest user
// message, at most TopK documents that answer it well enough (see choose:
// a section whose prose holds half the question, or a cosine similarity
// that reaches MinScore and stands out), in fused rank order, within the
// token budget. Each document brings its sections that hold the question
// first, best first, then its other sections; the budget goes to each
// document's best section, then to more of the best document before the
// weaker ones (fill). Retrieval errors are logged and give an empty layer:
// the KB never fails a turn. The query is embedded once per turn. While
// the start-up pass runs, a turn waits for it at most BootWait.
func (s *Service) Layer() layer.Layer { return kbLayer{s} }

type kbLayer struct{ s *Service }

// Name is LayerName.
func (kbLayer) Name() string { return LayerName }

// Build returns one truncatable block, or none when nothing qualifies.
// A preview (the context meter) does not wait for the start-up pass and
// retrieves lexically only: it embeds nothing.
func (l kbLayer) Build(ctx context.Context, q layer.Query) ([]layer.Block, error) {
	if q.Outside {
		return nil, nil // the owner's private data stays in the window
	}
	ctx = withDomain(ctx, q.KBDomain)
	if q.Preview {
		ctx = context.WithValue(ctx, lexicalOnlyKey{}, true)
	} else {
		l.s.waitBoot(ctx, BootWait)
	}
	bl, err := l.s.layerBlock(ctx, q.LatestUser, q.Model)
	if err != nil {
		l.s.log.Warn("knowledge base layer skipped", "err", err)
		return nil, nil
	}
	if bl.Text == "" {
		return nil, nil
	}
	return []layer.Block{bl}, nil
}

// lexicalOnlyKey marks a context whose retrieval must not embed the query
// (no network call): a layer preview.
type lexicalOnlyKey struct{}

// maxTopKReported caps the documents reported as left out by TopK.
const maxTopKReported = 5

// relativeFloor is how far below the best document another may score and
// still be attached lexically: at least this fraction of the best one's
// evidence score (its best section's, evidence.go), so a weak match does
// not fill the room a strong one leaves. On the evaluation set an
// answering document that is not the best scores at least 0.73 of the
// best; at 0.8 some are lost (TestLayerRelevance).
const relativeFloor = 0.6

// choose returns the candidates layer 3 may attach, in fused rank order,
// at most topK, and those that also qualified but ranked below topK. A
// document qualifies lexically when one of its sections matches the
// question (sectionEvidence.matches) and its score is at least
// relativeFloor of the best such document's; semantically when its best
// section's cosine similarity reaches r.semFloor (LOCAL_KB_MIN_SCORE, or
// more where the collection's similarities are all high: standOut).
func choose(r *retrieval, topK int) (chosen, beyond []*candidate) {
	lexTop := 0.0
	for _, c := range r.cands {
		if c.ev.ok {
			lexTop = max(lexTop, c.ev.score())
		}
	}
	for _, c := range r.cands {
		lex := c.ev.ok && c.ev.score() >= relativeFloor*lexTop
		switch {
		case !lex && !c.semantic(r):
		case len(chosen) < topK:
			chosen = append(chosen, c)
		default:
			beyond = append(beyond, c)
		}
	}
	return chosen, beyond
}

// semantic reports whether c matches semantically: its best section's
// cosine similarity reaches r.semFloor.
func (c *candidate) semantic(r *retrieval) bool { return c.hasCos && c.cos >= r.semFloor }

// layerText builds layer 3's text for a message ("" when nothing qualifies).
func (s *Service) layerText(ctx context.Context, message, model string) (string, error) {
	bl, err := s.layerBlock(ctx, message, model)
	return bl.Text, err
}

// layerBlock builds layer 3's block for a message (Text "" when nothing
// qualifies), naming the documents it holds and those it left out: matched
// but below TopK, sent in part, or given no room.
func (s *Service) layerBlock(ctx context.Context, message, model string) (layer.Block, error) {
	set := s.o.Settings()
	out := layer.Block{Layer: LayerName, Truncatable: true}
	if set.TopK <= 0 || strings.TrimSpace(message) == "" {
		return out, nil
	}
	// A lexical block is kept until the index changes (rankCache): the
	// turn that sends a draft builds the block the context meter's
	// preview built for it a moment before. A hybrid one is not (the
	// section vectors change without a write of the index).
	hybrid := s.embeddingModel() != "" && ctx.Value(lexicalOnlyKey{}) == nil
	key := s.blockKey(ctx, message, model, set)
	if !hybrid {
		if bl, ok := s.ranks.block(key); ok {
			return bl, nil
		}
	}
	gen := s.ranks.generation()
	out, err := s.buildBlock(ctx, set, message, model)
	if err == nil && !hybrid {
		s.ranks.putBlock(key, gen, out)
	}
	return out, err
}

// blockKey is what layer 3's block for message depends on besides the
// index: the model (its tokenizer and budget), the settings and the domain
// retrieval is limited to.
func (s *Service) blockKey(ctx context.Context, message, model string, set Settings) string {
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d\x00%g\x00%s\x00%s", message, model, set.TopK, set.TokenBudget, set.MinScore, domainOf(ctx), set.Dir)
}

// buildBlock builds layerBlock's block with settings set.
func (s *Service) buildBlock(ctx context.Context, set Settings, message, model string) (layer.Block, error) {
	out := layer.Block{Layer: LayerName, Truncatable: true}
	r, err := s.retrieve(ctx, message, max(4*set.TopK, 12), true)
	if err != nil {
		return out, err
	}
	chosen, beyond := choose(r, set.TopK)
	if len(chosen) == 0 {
		return out, nil
	}
	for _, c := range beyond[:min(len(beyond), maxTopKReported)] {
		out.LeftOut = append(out.LeftOut, layer.Omit(docItem(c, 0), layer.ReasonTopK))
	}
	counter := tokens.ForModel(model)
	budget := set.TokenBudget
	if budget <= 0 {
		budget = DefaultTokenBudget(model)
	}
	plans := s.planDocs(r, chosen, counter)
	fill(plans, counter, budget-counter.Count(LayerHeader))
	var b strings.Builder
	b.WriteString(LayerHeader)
	for _, p := range plans {
		if p.n == 0 {
			out.LeftOut = append(out.LeftOut, layer.Omit(docItem(p.c, 0), layer.ReasonBudget))
			continue
		}
		it := docItem(p.c, b.Len())
		out.Items = append(out.Items, it)
		body := p.write(&b)
		if !p.whole() {
			o := layer.Omit(it, layer.ReasonSections)
			o.Kept, o.Total, o.Unit = counter.Count(body), counter.Count(fullText(p.c)), layer.UnitTokens
			out.LeftOut = append(out.LeftOut, o)
		}
	}
	if len(out.Items) == 0 {
		return layer.Block{Layer: LayerName, Truncatable: true}, nil
	}
	out.Text = b.String()
	return out, nil
}

// docItem names a candidate document as a context item starting at start.
func docItem(c *candidate, start int) layer.Item {
	title := c.title
	if title == "" {
		title = c.path
	}
	return layer.Item{Kind: layer.KindKBDoc, ID: c.path, Title: title, Start: start}
}

func fullText(c *candidate) string {
	parts := make([]string, len(c.chunks))
	for i, ch := range c.chunks {
		parts[i] = ch.text
	}
	return strings.Join(parts, "\n\n")
}
