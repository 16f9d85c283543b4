package llm

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"

	openai "github.com/sashabaranov/go-openai"
)

// ToolCallAccumulator joins streamed tool-call deltas into whole calls
// (DESIGN.md §6). Providers differ: the index may be missing (Ollama sends
// each call whole), parallel calls may share index 0 with different ids, the
// id and name may come only in the first delta, arguments may be split
// anywhere (even in the delta carrying the name), the id may be repeated on
// every delta, and a trailing delta may repeat the whole arguments. Feed it
// every delta's tool_calls in stream order with Add; call Result at the end.
//
// The zero value is ready to use. It is not safe for concurrent use.
type ToolCallAccumulator struct {
	calls   []*accCall
	byID    map[string]*accCall
	byIndex map[int]*accCall // the latest call seen with each index
	last    *accCall
}

type accCall struct {
	id, name string
	typ      openai.ToolType
	args     strings.Builder
}

// generatedIDs numbers the ids given to calls that arrived without one, so
// they stay unique across the rounds of a turn.
var generatedIDs atomic.Int64

// Add folds one chunk's tool-call deltas into the calls seen so far. Empty
// argument fragments (a JSON null or a missing field) add nothing.
func (a *ToolCallAccumulator) Add(deltas []openai.ToolCall) {
	for _, d := range deltas {
		c := a.target(d)
		if d.ID != "" && c.id == "" {
			c.id = d.ID
			a.byID[d.ID] = c
		}
		if d.Function.Name != "" && c.name == "" {
			c.name = d.Function.Name
		}
		if d.Type != "" && c.typ == "" {
			c.typ = d.Type
		}
		if d.Index != nil {
			a.byIndex[*d.Index] = c
		}
		a.last = c
		frag := d.Function.Arguments
		if frag == "" {
			continue
		}
		// A trailing delta repeating the whole, already complete arguments.
		if cur := strings.TrimSpace(c.args.String()); cur != "" && strings.TrimSpace(frag) == cur && json.Valid([]byte(cur)) {
			continue
		}
		c.args.WriteString(frag)
	}
}

// target finds the call a delta belongs to, or starts a new one.
func (a *ToolCallAccumulator) target(d openai.ToolCall) *accCall {
	if a.byID == nil {
		a.byID = map[string]*accCall{}
		a.byIndex = map[int]*accCall{}
	}
	name := d.Function.Name
	if d.ID != "" {
		if c, ok := a.byID[d.ID]; ok {
			return c
		}
		// A call announced by index before its id arrived.
		if d.Index != nil {
			if c, ok := a.byIndex[*d.Index]; ok && c.id == "" && (name == "" || c.name == "" || c.name == name) {
				return c
			}
		}
		return a.start()
	}
	if d.Index != nil {
		if c, ok := a.byIndex[*d.Index]; ok {
			// The index reused for the next call without ids.
			if startsNext(c, d) {
				return a.startAfter(c, name)
			}
			return c
		}
		if name != "" || a.last == nil {
			return a.start()
		}
		// Arguments for an index not seen yet, after a call whose first
		// delta had no index: a continuation.
		return a.last
	}
	// No id, no index.
	if a.last == nil {
		return a.start()
	}
	if startsNext(a.last, d) {
		return a.startAfter(a.last, name)
	}
	if name != "" && a.last.name != name {
		return a.start()
	}
	return a.last // a continuation, or the name repeated on every delta
}

func (a *ToolCallAccumulator) start() *accCall {
	c := &accCall{}
	a.calls = append(a.calls, c)
	return c
}

// startAfter starts the call that follows prev on the same index (or on no
// index). A call announced by arguments alone keeps prev's name: providers
// that send the name once per index do so for every call on it.
func (a *ToolCallAccumulator) startAfter(prev *accCall, name string) *accCall {
	c := a.start()
	if name == "" {
		c.name, c.typ = prev.name, prev.typ
	}
	return c
}

// startsNext reports whether delta d (without a known id) begins a new call
// rather than continuing c: c's arguments are already a whole JSON value and d
// carries a name or the start of another JSON object. A delta repeating c's
// whole arguments (with c's name or none) is the trailing repeat some
// providers send, not a new call.
func startsNext(c *accCall, d openai.ToolCall) bool {
	if !argsComplete(c) {
		return false
	}
	name := d.Function.Name
	frag := strings.TrimSpace(d.Function.Arguments)
	if frag == strings.TrimSpace(c.args.String()) && (name == "" || name == c.name) {
		return false
	}
	return name != "" || strings.HasPrefix(frag, "{")
}

// argsComplete reports whether a call's arguments so far are a whole JSON value.
func argsComplete(c *accCall) bool {
	s := strings.TrimSpace(c.args.String())
	return s != "" && json.Valid([]byte(s))
}

// Result returns the calls in the order first seen. complete holds calls whose
// arguments are valid JSON (empty arguments become "{}"); truncated holds calls
// whose arguments are not (cut off, e.g. finish_reason "length"). A call that
// arrived without an id gets a generated "call_<n>"; Type defaults to
// "function"; Index is nil. Calls with neither a name nor arguments are dropped.
func (a *ToolCallAccumulator) Result() (complete, truncated []ToolCall) {
	for _, c := range a.calls {
		args := strings.TrimSpace(c.args.String())
		if c.name == "" && args == "" {
			continue
		}
		if c.id == "" {
			c.id = "call_" + strconv.FormatInt(generatedIDs.Add(1), 10)
		}
		typ := c.typ
		if typ == "" {
			typ = openai.ToolTypeFunction
		}
		valid := true
		if args == "" {
			args = "{}"
		} else {
			valid = json.Valid([]byte(args))
		}
		tc := ToolCall{ID: c.id, Type: typ, Function: openai.FunctionCall{Name: c.name, Arguments: args}}
		if valid {
			complete = append(complete, tc)
		} else {
			truncated = append(truncated, tc)
		}
	}
	return complete, truncated
}

// Len returns the number of calls seen so far (complete or not).
func (a *ToolCallAccumulator) Len() int { return len(a.calls) }
