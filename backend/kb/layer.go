package kb

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"playchat/backend/jatext"
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

// Layer returns context layer 3 (DESIGN.md §5): for the latest user message,
// up to TopK documents — those whose best section's cosine similarity reaches
// MinScore, or, lexically, that hold enough of the question's terms (see
// minCoverage) — in fused rank order. A document that fits its share of the
// token budget goes whole; a larger one is represented by its best-matching
// sections. Retrieval errors are logged and give an empty layer: the KB never
// fails a turn. The query is embedded once per turn. While the start-up pass
// runs, a turn waits for it at most BootWait.
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

// eligible reports whether a candidate may go into the context.
func eligible(c *candidate, set Settings) bool {
	return (c.hasCos && c.cos >= set.MinScore) || c.coverage >= minCoverage
}

// layerText builds layer 3's text for a message ("" when nothing qualifies).
func (s *Service) layerText(ctx context.Context, message, model string) (string, error) {
	bl, err := s.layerBlock(ctx, message, model)
	return bl.Text, err
}

// layerBlock builds layer 3's block for a message (Text "" when nothing
// qualifies), naming the documents it holds and those it left out: matched
// but below TopK, cut to their best sections, or given no room.
func (s *Service) layerBlock(ctx context.Context, message, model string) (layer.Block, error) {
	set := s.o.Settings()
	out := layer.Block{Layer: LayerName, Truncatable: true}
	if set.TopK <= 0 || strings.TrimSpace(message) == "" {
		return out, nil
	}
	r, err := s.retrieve(ctx, message, max(4*set.TopK, 12))
	if err != nil {
		return out, err
	}
	var chosen []*candidate
	for _, c := range r.cands {
		if !eligible(c, set) {
			continue
		}
		if len(chosen) < set.TopK {
			chosen = append(chosen, c)
		} else if len(out.LeftOut) < maxTopKReported {
			out.LeftOut = append(out.LeftOut, layer.Omit(docItem(c, 0), layer.ReasonTopK))
		}
	}
	if len(chosen) == 0 {
		out.LeftOut = nil
		return out, nil
	}
	counter := tokens.ForModel(model)
	budget := set.TokenBudget
	if budget <= 0 {
		budget = DefaultTokenBudget(model)
	}
	room := budget - counter.Count(LayerHeader) - 8*len(chosen)
	bodies, need := s.allocate(r, chosen, counter, room)
	var b strings.Builder
	b.WriteString(LayerHeader)
	for i, c := range chosen {
		if bodies[i] == "" {
			out.LeftOut = append(out.LeftOut, layer.Omit(docItem(c, 0), layer.ReasonBudget))
			continue
		}
		it := docItem(c, b.Len())
		out.Items = append(out.Items, it)
		fmt.Fprintf(&b, "\n\n### %s\nSource: %s", c.title, c.path)
		if bodies[i] != fullText(c) {
			b.WriteString(" (the sections that best match the message)")
			o := layer.Omit(it, layer.ReasonSections)
			o.Kept, o.Total, o.Unit = counter.Count(bodies[i]), need[i], layer.UnitTokens
			out.LeftOut = append(out.LeftOut, o)
		}
		b.WriteString("\n\n")
		b.WriteString(bodies[i])
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

// allocate shares room among the chosen documents: the smaller ones first
// get what they need, the rest is split evenly, and a document over its
// share is cut down to its best sections. It also returns each document's
// whole size in tokens.
func (s *Service) allocate(r *retrieval, chosen []*candidate, counter tokens.Counter, room int) ([]string, []int) {
	out := make([]string, len(chosen))
	need := make([]int, len(chosen))
	order := make([]int, len(chosen))
	for i, c := range chosen {
		need[i] = counter.Count(fullText(c))
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return need[order[a]] < need[order[b]] })
	left := room
	for n, i := range order {
		share := left / (len(order) - n)
		if need[i] <= share {
			out[i] = fullText(chosen[i])
			left -= need[i]
			continue
		}
		out[i] = s.bestSections(r, chosen[i], counter, share)
		left -= counter.Count(out[i])
	}
	return out, need
}

// sectionCutMark ends a section cut to fit its share.
const sectionCutMark = "\n[…]"

// sectionGap separates sections that were not adjacent in the document.
const sectionGap = "\n\n[…]\n\n"

// bestSections picks the sections of c that match the message best — by the
// IDF-weighted share of the message's terms they hold plus their cosine
// similarity — until share tokens are used, and returns them in document
// order. When not even the best fits, it is cut to share.
func (s *Service) bestSections(r *retrieval, c *candidate, counter tokens.Counter, share int) string {
	if share <= 0 || len(c.chunks) == 0 {
		return ""
	}
	var cos map[int64]float64
	if r.qvec != nil {
		cos = s.vec.chunkScores(r.qvec, c.docID)
	}
	type scored struct {
		i     int
		score float64
	}
	ss := make([]scored, len(c.chunks))
	for i, ch := range c.chunks {
		sc := termShare(r, jatext.Normalize(ch.heading+"\n"+ch.text)) + max(cos[ch.id], 0)
		ss[i] = scored{i, sc}
	}
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].score > ss[b].score })
	picked := map[int]bool{}
	used := 0
	gap := counter.Count(sectionGap)
	for _, x := range ss {
		n := counter.Count(c.chunks[x.i].text) + gap
		if used+n <= share {
			picked[x.i] = true
			used += n
		}
	}
	if len(picked) == 0 {
		return tokens.Truncate(counter, c.chunks[ss[0].i].text, share, sectionCutMark)
	}
	var b strings.Builder
	prev := -2
	for i, ch := range c.chunks {
		if !picked[i] {
			continue
		}
		if b.Len() > 0 {
			if i == prev+1 {
				b.WriteString("\n\n")
			} else {
				b.WriteString(sectionGap)
			}
		}
		b.WriteString(ch.text)
		prev = i
	}
	return b.String()
}
