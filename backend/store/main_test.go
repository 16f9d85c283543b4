package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The store's tests start their own binary again as a second process where
// only separate processes show the behaviour: first starts racing on a
// fresh file, a stream owner killed with SIGKILL. helperEnv names the
// action, helperPath the database.
const (
	helperEnv  = "STORE_TEST_HELPER"
	helperPath = "STORE_TEST_DB"
)

func TestMain(m *testing.M) {
	if action := os.Getenv(helperEnv); action != "" {
		os.Exit(runHelper(action, os.Getenv(helperPath)))
	}
	os.Exit(m.Run())
}

// runHelper runs one helper action and returns the exit status:
//
//	open   — Open the database (every first-start step), print "ok" or the error;
//	stream — Open, store a session, a question and a reply still streaming,
//	         print "streaming <id>", then wait until stdin closes (or a kill).
func runHelper(action, path string) int {
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer db.Close()
	switch action {
	case "open":
		fmt.Println("ok")
		return 0
	case "stream":
		s, err := db.CreateSession(ctx, "crash", "openai/m")
		if err != nil {
			fmt.Println("error:", err)
			return 1
		}
		q := Message{SessionID: s.ID, Role: RoleUser, Content: "question"}
		if err := db.InsertMessage(ctx, &q); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		r := Message{SessionID: s.ID, Role: RoleAssistant, Content: "half a rep", Status: StatusStreaming}
		if err := db.InsertMessage(ctx, &r); err != nil {
			fmt.Println("error:", err)
			return 1
		}
		fmt.Println("streaming", r.ID)
		buf := make([]byte, 1)
		os.Stdin.Read(buf)
		return 0
	}
	fmt.Println("error: unknown action", action)
	return 2
}

// helper returns the command running action on the database at path in a
// new process of this test binary.
func helper(action, path string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+action, helperPath+"="+path)
	return cmd
}

// firstLine is the first line of out, trimmed.
func firstLine(out []byte) string {
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}
