// Command fakemcp is a small MCP server over stdio for the window's
// end-to-end test of the user's own MCP servers (scripts/e2e-mcptools.sh):
// it is what a user would paste as an mcpServers entry, built in this repo
// so the test needs no network and no npm. Its tools:
//
//   - lookup_word (read-only): answers "FAKEMCP-RESULT <word> (<label>)",
//     where label is the -label flag (default "fakemcp"), so a test can see
//     the result reach the model's next request and the arguments arrive;
//   - remove_word (destructive): answers "FAKEMCP-REMOVED <word>"; playchat
//     asks the user before it runs.
//
// Every call is also written to stderr, which playchat keeps in the
// server's log.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	label := flag.String("label", "fakemcp", "a word added to every lookup_word result")
	flag.Parse()
	if err := newServer(*label).Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fakemcp:", err)
		os.Exit(1)
	}
}

type wordIn struct {
	Word string `json:"word" jsonschema:"the word"`
}

// newServer returns the server with its two tools.
func newServer(label string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "fakemcp", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "lookup_word", Description: "looks a word up",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in wordIn) (*mcp.CallToolResult, any, error) {
			fmt.Fprintf(os.Stderr, "fakemcp: lookup_word %q\n", in.Word)
			return text(fmt.Sprintf("FAKEMCP-RESULT %s (%s)", in.Word, label)), nil, nil
		})
	yes := true
	mcp.AddTool(s, &mcp.Tool{Name: "remove_word", Description: "removes a word",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
		func(ctx context.Context, _ *mcp.CallToolRequest, in wordIn) (*mcp.CallToolResult, any, error) {
			fmt.Fprintf(os.Stderr, "fakemcp: remove_word %q\n", in.Word)
			return text("FAKEMCP-REMOVED " + in.Word), nil, nil
		})
	return s
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
