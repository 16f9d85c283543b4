//go:build !windows

package mcpclient

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own, so the whole
// tree (npx → node → …) is signalled together; on Linux the child is also
// killed when playchat dies (proc_linux.go).
func setProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setDeathSignal(cmd.SysProcAttr)
}

// killTree kills cmd's process group.
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// procTree is a started server process and everything it started.
type procTree struct {
	cmd  *exec.Cmd
	pgid int
}

// startTree starts cmd as the leader of its own process group.
func startTree(cmd *exec.Cmd) (*procTree, error) {
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &procTree{cmd: cmd, pgid: cmd.Process.Pid}, nil
}

// terminate asks the whole group to end (SIGTERM).
func (t *procTree) terminate() { _ = syscall.Kill(-t.pgid, syscall.SIGTERM) }

// kill kills the whole group.
func (t *procTree) kill() { _ = syscall.Kill(-t.pgid, syscall.SIGKILL) }

// alive reports whether any process of the group is still running.
func (t *procTree) alive() bool { return syscall.Kill(-t.pgid, 0) == nil }

// release frees what the tree holds (nothing on Unix).
func (t *procTree) release() {}
