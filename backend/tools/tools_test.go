package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func tool(name, schema string) Tool {
	return Tool{Name: name, Parameters: json.RawMessage(schema),
		Run: func(context.Context, Call) (Result, error) { return Result{}, nil }}
}

func TestRegisterRefusesBadToolsAndAddsNoneOfThem(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(tool("b_tool", `{"type":"object"}`), tool("a_tool", `{"type":"object"}`)); err != nil {
		t.Fatal(err)
	}
	for name, ts := range map[string][]Tool{
		"bad name":     {tool("has space", `{}`)},
		"no handler":   {{Name: "x", Parameters: json.RawMessage(`{}`)}},
		"bad schema":   {tool("y", `[1]`)},
		"duplicate":    {tool("a_tool", `{}`)},
		"dup in batch": {tool("z", `{}`), tool("z", `{}`)},
		"one bad of 2": {tool("ok_one", `{}`), tool("bad one", `{}`)},
	} {
		if err := r.Register(ts...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if r.Len() != 2 {
		t.Fatalf("registry has %d tools, want 2", r.Len())
	}
	defs := r.Definitions()
	if defs[0].Function.Name != "a_tool" || defs[1].Function.Name != "b_tool" {
		t.Fatal("definitions are not sorted by name")
	}
}

func TestDecodeArgsRejectsUnknownFieldsWithAMessageForTheModel(t *testing.T) {
	var a struct{ Query string }
	if err := DecodeArgs(nil, &a); err != nil {
		t.Fatalf("empty arguments: %v", err)
	}
	if err := DecodeArgs(json.RawMessage(`{"query":"x","extra":1}`), &a); err == nil || !strings.Contains(err.Error(), "invalid arguments") {
		t.Fatalf("unknown field: %v", err)
	}
}

func TestDisabledToolsAreLeftOutOfDefinitions(t *testing.T) {
	r := NewRegistry()
	on := false
	gated := tool("gated", `{"type":"object"}`)
	gated.Enabled = func() bool { return on }
	if err := r.Register(tool("always", `{"type":"object"}`), gated); err != nil {
		t.Fatal(err)
	}
	if defs := r.Definitions(); len(defs) != 1 || defs[0].Function.Name != "always" {
		t.Fatalf("disabled: %d definitions", len(defs))
	}
	on = true
	if defs := r.Definitions(); len(defs) != 2 {
		t.Fatalf("enabled: %d definitions", len(defs))
	}
	if _, ok := r.Get("gated"); !ok {
		t.Fatal("a disabled tool must stay registered (a call to it still resolves)")
	}
}
