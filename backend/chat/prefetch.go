package chat

import (
	"context"

	"playchat/backend/layer"
)

// A turn's context layers do not depend on its history: run starts
// building them (each in its own goroutine) before it reads the history,
// so the slowest of them — the knowledge-base query, tens of milliseconds
// at 45,000 documents — runs beside the history's read instead of after
// it (issue 29). buildContextWith then takes their blocks as if it had
// built them itself, in the same order, with the same errors.

// prefetched is a layer whose Build for one query was started ahead
// (prefetchLayers): Build with that query waits for that result; any other
// query is built anew.
type prefetched struct {
	layer.Layer
	q      layer.Query
	done   chan struct{}
	blocks []layer.Block
	err    error
	// panicked is what the ahead Build panicked with (nil if it did not):
	// Build panics with it again in its caller's goroutine, where the
	// turn recovers it as before.
	panicked any
}

// prefetchLayers starts building each of layers for q and returns them as
// layers whose Build for q returns those results.
func prefetchLayers(ctx context.Context, layers []layer.Layer, q layer.Query) []layer.Layer {
	out := make([]layer.Layer, len(layers))
	for i, l := range layers {
		p := &prefetched{Layer: l, q: q, done: make(chan struct{})}
		go func() {
			defer close(p.done)
			defer func() { p.panicked = recover() }()
			p.blocks, p.err = l.Build(ctx, q)
		}()
		out[i] = p
	}
	return out
}

// Build returns the result started ahead when q is its query.
func (p *prefetched) Build(ctx context.Context, q layer.Query) ([]layer.Block, error) {
	if q != p.q {
		return p.Layer.Build(ctx, q)
	}
	<-p.done // the ahead Build has ctx: it ends when ctx does
	if p.panicked != nil {
		panic(p.panicked)
	}
	return p.blocks, p.err
}

// Priority is the wrapped layer's (layer.Prioritized; 0 without one).
func (p *prefetched) Priority() int {
	if pr, ok := p.Layer.(layer.Prioritized); ok {
		return pr.Priority()
	}
	return 0
}
