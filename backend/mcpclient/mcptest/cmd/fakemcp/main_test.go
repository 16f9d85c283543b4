package main

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestTheServerListsItsToolsAndAnswersCalls(t *testing.T) {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer("e2e").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	destructive := map[string]bool{}
	for _, tl := range list.Tools {
		destructive[tl.Name] = tl.Annotations != nil && tl.Annotations.DestructiveHint != nil && *tl.Annotations.DestructiveHint
	}
	if len(destructive) != 2 || destructive["lookup_word"] || !destructive["remove_word"] {
		t.Fatalf("tools %v, want lookup_word (not destructive) and remove_word (destructive)", destructive)
	}
	for name, want := range map[string]string{"lookup_word": "FAKEMCP-RESULT 猫 (e2e)", "remove_word": "FAKEMCP-REMOVED 猫"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{"word": "猫"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*mcp.TextContent).Text; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
