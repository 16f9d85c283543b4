package cli

import (
	"strings"
	"testing"
)

func TestCommandGroupsRefuseMissingAndUnknownVerbs(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"sessions"}, "sessions needs a subcommand: list, search, export or import"},
		{[]string{"kb"}, "kb needs a subcommand: status, reindex, search or import"},
		{[]string{"tools"}, "tools needs a subcommand: import or list"},
		{[]string{"sessions", "lsit"}, `unknown sessions subcommand "lsit" (did you mean "list"?); the subcommands are list, search, export or import`},
		{[]string{"backup", "restor"}, `(did you mean "restore"?)`},
		{[]string{"reminders", "zzzzzz"}, `unknown reminders subcommand "zzzzzz"; the subcommands are list, add or cancel`},
	}
	for _, c := range cases {
		r := runCLI(t, nil, "", c.args...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
		if r.stdout != "" {
			t.Errorf("%v printed on stdout: %q", c.args, r.stdout)
		}
	}
}

func TestCommandGroupHelpGoesToStdout(t *testing.T) {
	r := runCLI(t, nil, "", "knowledge", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "knowledge") {
		t.Fatalf("knowledge --help: exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestOrList(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a b": "a or b", "a b c": "a, b or c"} {
		if got := orList(strings.Fields(in)); got != want {
			t.Errorf("orList(%q) = %q, want %q", in, got, want)
		}
	}
}
