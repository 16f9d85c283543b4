package app

import (
	"encoding/json"
	"strings"
	"testing"

	"playchat/backend/mcpclient"
)

func TestToolsServiceImportsPastedJSONRefusingBrokenEntriesAndMasksSecrets(t *testing.T) {
	a, _ := newTestApp(t)
	a.approvals = mcpclient.NewApprovals()
	s := &ToolsService{a}
	pasted := `{"mcpServers":{"github":{"command":"/nonexistent/github-mcp","env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"ghp_verysecret"}},"broken":{"args":["x"]}}}`
	res, err := s.Import(pasted, false)
	if err != nil || res.Applied || len(res.Refused) != 1 || res.Refused[0].Name != "broken" || len(res.Servers) != 0 {
		t.Fatalf("import = %+v, %v", res, err)
	}
	res, err = s.Import(pasted, true)
	if err != nil || !res.Applied || len(res.Added) != 1 || len(res.Servers) != 1 {
		t.Fatalf("import skipping refused = %+v, %v", res, err)
	}
	b, _ := json.Marshal(res.Servers)
	if strings.Contains(string(b), "ghp_verysecret") || res.Servers[0].Config.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != mcpclient.Mask {
		t.Fatalf("the secret reached the window: %s", b)
	}
	// Saving the masked form keeps the secret; the row then fails with a
	// reason naming the missing command.
	cfg := res.Servers[0].Config
	cfg.AskFirst = true
	if _, err := s.Save(cfg, "github"); err != nil {
		t.Fatal(err)
	}
	c, _ := a.backend()
	stored, _ := c.MCP.Store().Load()
	if stored.Servers[0].Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "ghp_verysecret" || !stored.Servers[0].AskFirst {
		t.Fatalf("stored = %+v", stored.Servers[0])
	}
	if _, err := s.Save(ToolsConfig{Name: "me", Transport: "stdio", Command: "playchat", Args: []string{"mcp"}}, ""); err == nil {
		t.Fatal("playchat's own server was added")
	}
	if ok, err := s.Decide("nope", "once"); ok || err != nil {
		t.Fatalf("decide = %v %v", ok, err)
	}
	if _, err := s.Decide("nope", "maybe"); err == nil {
		t.Fatal("a bad decision was accepted")
	}
}
