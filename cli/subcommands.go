package cli

import (
	"context"
	"fmt"
	"strings"
)

// runFunc is one command's body: its arguments after the command words.
type runFunc func(ctx context.Context, args []string, env Env) error

// sub is one verb of a command group (`list` in `playchat sessions list`).
type sub struct {
	name string
	run  runFunc
}

// dispatch runs the verb args[0] of the command group cmd with the rest of
// args. No verb is a usage error naming the verbs (in the order given);
// -h/--help asks for the group's help; an unknown verb is a usage error that
// suggests the nearest verb when it is a likely typo.
func dispatch(ctx context.Context, cmd string, args []string, env Env, subs ...sub) error {
	names := make([]string, len(subs))
	for i, s := range subs {
		names[i] = s.name
	}
	if len(args) == 0 {
		return usageError{fmt.Sprintf("%s needs a subcommand: %s", cmd, orList(names))}
	}
	if isHelp(args[0]) {
		return helpRequested{cmd: cmd}
	}
	for _, s := range subs {
		if s.name == args[0] {
			return s.run(ctx, args[1:], env)
		}
	}
	msg := fmt.Sprintf("unknown %s subcommand %q", cmd, args[0])
	if near := nearest(args[0], names); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return usageError{msg + "; the subcommands are " + orList(names)}
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
