package apiserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"playchat/backend/llm"
)

// replyWriter writes one chat completion to the client: as SSE chunks
// (stream) or as one chat.completion object. In a stream nothing is written
// before the first delta (or the end), so an error before it is still an
// HTTP status; after it an error is an error event. Every stream ends with
// "data: [DONE]". Safe for use from the goroutine of a running turn.
type replyWriter struct {
	w            http.ResponseWriter
	rc           *http.ResponseController
	stream       bool
	includeUsage bool
	id, model    string
	created      int64

	mu      sync.Mutex
	started bool // stream: the headers and the role chunk are out
	ended   bool
	text    strings.Builder
}

// outcome is how a completion ended well.
type outcome struct {
	finishReason                   string
	toolCalls                      []llm.ToolCall
	promptTokens, completionTokens int
	sources                        []Source
	session                        string
}

// start writes the stream's headers and its first chunk (role assistant,
// empty content), once. Callers hold mu.
func (p *replyWriter) start() {
	if p.started {
		return
	}
	p.started = true
	h := p.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	p.w.WriteHeader(http.StatusOK)
	empty := ""
	p.event(p.chunk(delta{Role: "assistant", Content: &empty}, nil))
}

// chunk is one chat.completion.chunk with one choice.
func (p *replyWriter) chunk(d delta, finish *string) chunk {
	return chunk{ID: p.id, Object: "chat.completion.chunk", Created: p.created, Model: p.model,
		Choices: []chunkChoice{{Index: 0, Delta: d, FinishReason: finish}}}
}

// event writes "data: <v as JSON>\n\n" and flushes. A write error (the
// client went away) is ignored: the request's context ends the call.
func (p *replyWriter) event(v any) {
	b, err := marshal(v)
	if err != nil {
		return
	}
	p.raw(b)
}

func (p *replyWriter) raw(b []byte) {
	buf := make([]byte, 0, len(b)+8)
	buf = append(append(append(buf, "data: "...), b...), "\n\n"...)
	if _, err := p.w.Write(buf); err == nil {
		_ = p.rc.Flush()
	}
}

// delta passes on a text delta.
func (p *replyWriter) delta(text string) {
	if text == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.text.WriteString(text)
	if p.stream {
		p.start()
		p.event(p.chunk(delta{Content: &text}, nil))
	}
}

// finish ends a completion that went well: in a stream the tool calls (if
// any), the chunk with finish_reason (and playchat's extensions), the usage
// chunk when asked for, and [DONE]; otherwise the chat.completion object,
// usage always included.
func (p *replyWriter) finish(o outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	if o.finishReason == "" {
		o.finishReason = "stop"
	}
	u := newUsage(o.promptTokens, o.completionTokens)
	if !p.stream {
		var content *string
		if s := p.text.String(); s != "" || len(o.toolCalls) == 0 {
			content = &s
		}
		writeJSON(p.w, http.StatusOK, completion{ID: p.id, Object: "chat.completion", Created: p.created, Model: p.model,
			Choices: []completionChoice{{Index: 0, Message: responseMessage{Role: "assistant", Content: content, ToolCalls: o.toolCalls},
				FinishReason: o.finishReason}},
			Usage: u, Sources: o.sources, Session: o.session})
		return
	}
	p.start()
	if len(o.toolCalls) > 0 {
		calls := make([]toolCallDelta, len(o.toolCalls))
		for i, c := range o.toolCalls {
			typ := string(c.Type)
			if typ == "" {
				typ = "function"
			}
			calls[i] = toolCallDelta{Index: i, ID: c.ID, Type: typ, Function: c.Function}
		}
		p.event(p.chunk(delta{ToolCalls: calls}, nil))
	}
	last := p.chunk(delta{}, &o.finishReason)
	last.Sources, last.Session = o.sources, o.session
	p.event(last)
	if p.includeUsage {
		p.event(chunk{ID: p.id, Object: "chat.completion.chunk", Created: p.created, Model: p.model, Choices: []chunkChoice{}, Usage: u})
	}
	p.raw([]byte("[DONE]"))
}

// fail ends a completion with err: as its HTTP status and error JSON when
// nothing was written yet (a stream included), else as an error event
// followed by [DONE].
func (p *replyWriter) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	if !p.started {
		writeFailure(p.w, err)
		return
	}
	p.event(errorBody{Error: failureOf(err).body})
	p.raw([]byte("[DONE]"))
}

// marshal is JSON without HTML escaping and without the trailing newline.
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}
