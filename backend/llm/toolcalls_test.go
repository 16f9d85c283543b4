package llm

import (
	"encoding/json"
	"reflect"
	"regexp"
	"testing"

	openai "github.com/sashabaranov/go-openai"
)

// accumulate feeds raw chunk JSON (as a provider streams it) through a
// ToolCallAccumulator, like Stream does.
func accumulate(t *testing.T, chunks []string) (complete, truncated []ToolCall) {
	t.Helper()
	var acc ToolCallAccumulator
	for _, raw := range chunks {
		var chunk openai.ChatCompletionStreamResponse
		if err := json.Unmarshal([]byte(raw), &chunk); err != nil {
			t.Fatalf("bad chunk %s: %v", raw, err)
		}
		for _, ch := range chunk.Choices {
			acc.Add(ch.Delta.ToolCalls)
		}
	}
	return acc.Result()
}

// tc builds an expected call; id "" means "a generated call_<n> id".
func tc(id, name, args string) ToolCall {
	return ToolCall{ID: id, Type: openai.ToolTypeFunction, Function: openai.FunctionCall{Name: name, Arguments: args}}
}

var generatedID = regexp.MustCompile(`^call_\d+$`)

// normalizeIDs blanks generated ids so results compare with tc("", …).
func normalizeIDs(t *testing.T, calls []ToolCall, want []ToolCall) []ToolCall {
	t.Helper()
	if calls == nil {
		return nil
	}
	out := make([]ToolCall, len(calls))
	for i, c := range calls {
		if i < len(want) && want[i].ID == "" {
			if !generatedID.MatchString(c.ID) {
				t.Errorf("call %d: id %q, want a generated call_<n>", i, c.ID)
			}
			c.ID = ""
		}
		out[i] = c
	}
	return out
}

// chunk wraps a tool_calls delta array (and finish_reason, "" for null) into
// a chat.completion.chunk body.
func chunk(toolCalls string, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	delta := `{}`
	if toolCalls != "" {
		delta = `{"tool_calls":` + toolCalls + `}`
	}
	return `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + fr + `}]}`
}

func TestToolCallAccumulatorProviderVariants(t *testing.T) {
	tests := []struct {
		name          string
		chunks        []string
		wantComplete  []ToolCall
		wantTruncated []ToolCall
	}{
		{
			name: "whole call in one chunk without index (Ollama)",
			chunks: []string{
				chunk(`[{"id":"call_o1","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"go\"}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_o1", "web_search", `{"query":"go"}`)},
		},
		{
			name: "whole call without index and without id gets a generated id",
			chunks: []string{
				chunk(`[{"function":{"name":"web_search","arguments":"{\"query\":\"go\"}"}}]`, "stop"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"go"}`)},
		},
		{
			name: "two whole calls in one chunk without index or id",
			chunks: []string{
				chunk(`[{"function":{"name":"web_search","arguments":"{\"query\":\"a\"}"}},{"function":{"name":"web_search","arguments":"{\"query\":\"b\"}"}}]`, "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"a"}`), tc("", "web_search", `{"query":"b"}`)},
		},
		{
			name: "OpenAI parallel calls with index 0 and 1",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_a","type":"function","function":{"name":"web_search","arguments":""}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"{\"query\":"}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"\"a\"}"}}]`, ""),
				chunk(`[{"index":1,"id":"call_b","type":"function","function":{"name":"read_note","arguments":""}}]`, ""),
				chunk(`[{"index":1,"function":{"arguments":"{\"id\":7}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_a", "web_search", `{"query":"a"}`), tc("call_b", "read_note", `{"id":7}`)},
		},
		{
			name: "two parallel calls both with index 0 but different ids",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_1","type":"function","function":{"name":"web_search","arguments":""}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"{\"query\":\"a\"}"}}]`, ""),
				chunk(`[{"index":0,"id":"call_2","type":"function","function":{"name":"read_note","arguments":""}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"{\"id\":1}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_1", "web_search", `{"query":"a"}`), tc("call_2", "read_note", `{"id":1}`)},
		},
		{
			name: "id and name only in the first chunk, later fragments without index or id",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_x","type":"function","function":{"name":"web_search","arguments":""}}]`, ""),
				chunk(`[{"function":{"arguments":"{\"query\":"}}]`, ""),
				chunk(`[{"function":{"arguments":"\"東京 "}}]`, ""),
				chunk(`[{"function":{"arguments":"天気\"}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_x", "web_search", `{"query":"東京 天気"}`)},
		},
		{
			name: "arguments starting in the chunk carrying the name keep their leading brace",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_b","type":"function","function":{"name":"web_search","arguments":"{"}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"\"query\""}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":":\"x\"}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_b", "web_search", `{"query":"x"}`)},
		},
		{
			name: "id repeated on every delta, trailing repeat of the whole arguments, two finish chunks",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_r","type":"function","function":{"name":"web_search","arguments":""}}]`, ""),
				chunk(`[{"index":0,"id":"call_r","type":"function","function":{"arguments":"{\"query\":"}}]`, ""),
				chunk(`[{"index":0,"id":"call_r","type":"function","function":{"arguments":"\"x\"}"}}]`, ""),
				chunk(`[{"index":0,"id":"call_r","type":"function","function":{"name":"web_search","arguments":"{\"query\":\"x\"}"}}]`, "tool_calls"),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_r", "web_search", `{"query":"x"}`)},
		},
		{
			name: "name repeated on every delta without id or index",
			chunks: []string{
				chunk(`[{"function":{"name":"web_search","arguments":"{\"query\":"}}]`, ""),
				chunk(`[{"function":{"name":"web_search","arguments":"\"x\"}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"x"}`)},
		},
		{
			name: "null argument fragments are ignored; no parameters gives {}",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_n","type":"function","function":{"name":"list_reminders","arguments":null}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":null}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_n", "list_reminders", `{}`)},
		},
		{
			name: "empty string arguments give {}",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_e","type":"function","function":{"name":"list_reminders","arguments":""}}]`, "tool_calls"),
			},
			wantComplete: []ToolCall{tc("call_e", "list_reminders", `{}`)},
		},
		{
			name: "finish_reason stop after tool-call deltas still returns the calls",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_s","type":"function","function":{"name":"read_note","arguments":"{\"id\":"}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"3}"}}]`, ""),
				chunk("", "stop"),
			},
			wantComplete: []ToolCall{tc("call_s", "read_note", `{"id":3}`)},
		},
		{
			name: "arguments cut off by finish_reason length are truncated",
			chunks: []string{
				chunk(`[{"index":0,"id":"call_ok","type":"function","function":{"name":"read_note","arguments":"{\"id\":1}"}}]`, ""),
				chunk(`[{"index":1,"id":"call_t","type":"function","function":{"name":"write_note","arguments":"{\"content\":"}}]`, ""),
				chunk(`[{"index":1,"function":{"arguments":"\"abc"}}]`, ""),
				chunk("", "length"),
			},
			wantComplete:  []ToolCall{tc("call_ok", "read_note", `{"id":1}`)},
			wantTruncated: []ToolCall{tc("call_t", "write_note", `{"content":"abc`)},
		},
		{
			name: "two complete calls with the same name, both index 0, no ids, in separate chunks",
			chunks: []string{
				chunk(`[{"index":0,"type":"function","function":{"name":"web_search","arguments":"{\"query\":\"a\"}"}}]`, ""),
				chunk(`[{"index":0,"type":"function","function":{"name":"web_search","arguments":"{\"query\":\"b\"}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"a"}`), tc("", "web_search", `{"query":"b"}`)},
		},
		{
			name: "two complete calls with the same name, both index 0, no ids, in one chunk",
			chunks: []string{
				chunk(`[{"index":0,"function":{"name":"web_search","arguments":"{\"query\":\"a\"}"}},{"index":0,"function":{"name":"web_search","arguments":"{\"query\":\"b\"}"}}]`, "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"a"}`), tc("", "web_search", `{"query":"b"}`)},
		},
		{
			name: "same name on index 0 without ids, arguments streamed in fragments for each call",
			chunks: []string{
				chunk(`[{"index":0,"function":{"name":"read_note","arguments":""}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"{\"id\":"}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"1}"}}]`, ""),
				chunk(`[{"index":0,"function":{"name":"read_note","arguments":""}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"{\"id\":2}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "read_note", `{"id":1}`), tc("", "read_note", `{"id":2}`)},
		},
		{
			name: "index 0 reused without ids or a repeated name: the next object is the next call of that name",
			chunks: []string{
				chunk(`[{"index":0,"function":{"name":"read_note","arguments":"{\"id\":1}"}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"{\"id\":2}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "read_note", `{"id":1}`), tc("", "read_note", `{"id":2}`)},
		},
		{
			name: "two complete calls with the same name and neither index nor id",
			chunks: []string{
				chunk(`[{"function":{"name":"web_search","arguments":"{\"query\":\"a\"}"}}]`, ""),
				chunk(`[{"function":{"name":"web_search","arguments":"{\"query\":\"b\"}"}}]`, ""),
				chunk("", "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"a"}`), tc("", "web_search", `{"query":"b"}`)},
		},
		{
			name: "a trailing repeat of the whole arguments with the name but no id is not a second call",
			chunks: []string{
				chunk(`[{"index":0,"function":{"name":"web_search","arguments":"{\"query\":"}}]`, ""),
				chunk(`[{"index":0,"function":{"arguments":"\"x\"}"}}]`, ""),
				chunk(`[{"index":0,"function":{"name":"web_search","arguments":"{\"query\":\"x\"}"}}]`, "tool_calls"),
			},
			wantComplete: []ToolCall{tc("", "web_search", `{"query":"x"}`)},
		},
		{
			name:   "no tool calls at all",
			chunks: []string{chunk("", "stop")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			complete, truncated := accumulate(t, tt.chunks)
			complete = normalizeIDs(t, complete, tt.wantComplete)
			truncated = normalizeIDs(t, truncated, tt.wantTruncated)
			if !reflect.DeepEqual(complete, tt.wantComplete) {
				t.Errorf("complete:\n got %+v\nwant %+v", complete, tt.wantComplete)
			}
			if !reflect.DeepEqual(truncated, tt.wantTruncated) {
				t.Errorf("truncated:\n got %+v\nwant %+v", truncated, tt.wantTruncated)
			}
		})
	}
}

func TestToolCallAccumulatorGeneratedIDsAreUniqueAndStable(t *testing.T) {
	var a, b ToolCallAccumulator
	a.Add([]openai.ToolCall{{Function: openai.FunctionCall{Name: "f", Arguments: "{}"}}})
	b.Add([]openai.ToolCall{{Function: openai.FunctionCall{Name: "f", Arguments: "{}"}}})
	ca, _ := a.Result()
	cb, _ := b.Result()
	if ca[0].ID == cb[0].ID {
		t.Errorf("two accumulators generated the same id %q", ca[0].ID)
	}
	again, _ := a.Result()
	if again[0].ID != ca[0].ID {
		t.Errorf("Result changed the generated id: %q then %q", ca[0].ID, again[0].ID)
	}
}

func TestToolCallAccumulatorResultHasNoIndex(t *testing.T) {
	var a ToolCallAccumulator
	zero := 0
	a.Add([]openai.ToolCall{{Index: &zero, ID: "call_1", Type: "function", Function: openai.FunctionCall{Name: "f", Arguments: "{}"}}})
	calls, _ := a.Result()
	if len(calls) != 1 || calls[0].Index != nil {
		t.Fatalf("got %+v, want one call with a nil Index", calls)
	}
	if a.Len() != 1 {
		t.Errorf("Len = %d, want 1", a.Len())
	}
}
