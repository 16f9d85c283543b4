package mcpclient

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A playchat killed with SIGKILL cannot end its servers' trees: the
// parent-death signal kills each server, not what the server started. The
// next start (SweepOrphans, run by Manager.Start) kills what is left, and
// nothing of a running playchat.
func TestProcessesLeftByAKilledPlaychatAreKilledAtTheNextStart(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	app := exec.Command(exe, "-test.run=^$")
	app.Env = append(os.Environ(), fakeAppEnv+"="+t.TempDir())
	out, err := app.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	grandchild, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		_ = app.Process.Kill()
		t.Fatalf("the fake playchat said %q", line)
	}
	t.Cleanup(func() { _ = syscall.Kill(grandchild, syscall.SIGKILL) })

	// A live playchat's processes are not touched by the sweep.
	if _, err := SweepOrphans(); err != nil {
		t.Fatal(err)
	}
	if !alive(grandchild) {
		t.Fatal("the sweep killed a process of a running playchat")
	}

	_ = app.Process.Signal(syscall.SIGKILL)
	_ = app.Wait()
	time.Sleep(200 * time.Millisecond) // the parent-death signal reaches the server
	if !alive(grandchild) {
		t.Skip("the grandchild ended with its owner: nothing was left to sweep on this kernel")
	}
	n, err := SweepOrphans()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(grandchild) {
		if time.Now().After(deadline) {
			t.Fatalf("the grandchild %d of a killed playchat still runs after the sweep (%d killed)", grandchild, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if n < 1 {
		t.Fatalf("SweepOrphans reported %d processes killed", n)
	}
}

func TestOwnerAliveJudgesByPidAndStartTime(t *testing.T) {
	if !ownerAlive(ownerMark()) {
		t.Fatalf("this process (%s) is not alive", ownerMark())
	}
	pid := os.Getpid()
	start, err := startTicks(pid)
	if err != nil {
		t.Fatal(err)
	}
	ns := pidNamespace()
	if ns == "" {
		t.Fatal("no pid namespace read from /proc/self/ns/pid")
	}
	if ownerAlive(strconv.Itoa(pid) + ":" + strconv.FormatUint(start+1, 10) + ":" + ns) {
		t.Fatal("a reused pid (another start time) counted as the owner")
	}
	// A dead owner in another pid namespace (a container's playchat): its pids
	// mean nothing here, so its processes are left alone.
	if !ownerAlive("999999999:1:" + ns + "0") {
		t.Fatal("a mark from another pid namespace was judged dead")
	}
	if ownerAlive("999999999:1:" + ns) {
		t.Fatal("a dead owner in this namespace counted as alive")
	}
	if !ownerAlive("garbage") {
		t.Fatal("a mark that cannot be read must be left alone")
	}
}

func TestAfterShutdownNoProcessOfTheServersTreeRemains(t *testing.T) {
	m := newManager(t, fakeStdio(t, "s", "normal"))
	waitState(t, m, "s", StateReady)
	res, err := m.Call(context.Background(), "s", "spawn", nil)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(res.Text)
	m.mu.Lock()
	pgid := m.runners["s"].tree.pgid
	m.mu.Unlock()
	if !alive(grandchild) {
		t.Fatal("the grandchild is not running")
	}
	m.Shutdown(context.Background())
	deadline := time.Now().Add(5 * time.Second)
	for alive(grandchild) || syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("still running: grandchild %v, group %v", alive(grandchild), syscall.Kill(-pgid, 0) == nil)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether pid runs (a zombie counts as gone).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
