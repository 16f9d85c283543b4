package cli

import (
	"context"
	"os"
	"testing"
)

// cliArgsEnv makes the test binary, started again by a test, run the
// command in its arguments after "--" as `playchat` would (TestMain): the
// tests that need real separate processes, such as many first starts at
// once.
const cliArgsEnv = "CLI_TEST_RUN"

func TestMain(m *testing.M) {
	if os.Getenv(cliMCPEnv) != "" {
		runFakeMCP()
		os.Exit(0)
	}
	if os.Getenv(cliArgsEnv) != "" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		os.Exit(Run(context.Background(), args, Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Environ: os.Environ()}))
	}
	os.Exit(m.Run())
}
