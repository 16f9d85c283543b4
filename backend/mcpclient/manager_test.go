package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStdioAndHTTPServersListTheirToolsAndAnswerCalls(t *testing.T) {
	httpSrv := Server{Name: "web", Transport: TransportHTTP, URL: fakeHTTP(t), Headers: map[string]string{"X-Token": "secret"}}
	m := newManager(t, fakeStdio(t, "local", "normal"), httpSrv)
	for _, name := range []string{"local", "web"} {
		st := waitState(t, m, name, StateReady)
		if len(st.Tools) != 9 {
			t.Fatalf("%s: %d tools", name, len(st.Tools))
		}
		res, err := m.Call(context.Background(), name, "echo", json.RawMessage(`{"text":"こんにちは"}`))
		if err != nil || res.Text != "echo: こんにちは" || res.IsError {
			t.Fatalf("%s: call = %+v, %v", name, res, err)
		}
	}
	// The header is a secret in the view.
	sts, _ := m.Statuses()
	if sts[1].Config.Headers["X-Token"] != "secret" && sts[1].Config.Headers["X-Token"] != Mask {
		t.Fatalf("header view = %q", sts[1].Config.Headers["X-Token"])
	}
}

func TestAServerThatNeverAnswersIsNotRespondingWhileAnotherWorks(t *testing.T) {
	old := StartTimeout
	StartTimeout = 700 * time.Millisecond
	t.Cleanup(func() { StartTimeout = old })
	m := newManager(t, fakeStdio(t, "stuck", "hang"), fakeStdio(t, "good", "normal"))
	waitState(t, m, "good", StateReady)
	// Only the ready server's tools are offered meanwhile.
	for _, o := range m.Offer(false) {
		if o.Server != "good" {
			t.Fatalf("offered %s of %s", o.ModelName, o.Server)
		}
	}
	st := waitState(t, m, "stuck", StateNotResponding)
	if !strings.Contains(st.Reason, "did not answer") {
		t.Fatalf("reason = %q", st.Reason)
	}
}

func TestAServerThatExitsShowsItsExitCodeAndLastStderrLines(t *testing.T) {
	m := newManager(t, fakeStdio(t, "broken", "exit"))
	st := waitState(t, m, "broken", StateFailed)
	if st.ExitCode == nil || *st.ExitCode != 2 || len(st.Stderr) != 2 || !strings.Contains(st.Reason, "code 2") ||
		!strings.Contains(st.Reason, "Cannot find module") {
		t.Fatalf("status = %+v", st)
	}
	b, err := os.ReadFile(st.LogFile)
	if err != nil || !strings.Contains(string(b), "Cannot find module") {
		t.Fatalf("log = %q, %v", b, err)
	}
}

func TestACrashedServerIsRestarted(t *testing.T) {
	m := newManager(t, fakeStdio(t, "crashy", "normal"))
	waitState(t, m, "crashy", StateReady)
	_, err := m.Call(context.Background(), "crashy", "crash", nil)
	if err == nil {
		t.Fatal("a crashing call succeeded")
	}
	st := waitState(t, m, "crashy", StateFailed)
	if st.ExitCode == nil || *st.ExitCode != 3 || !strings.Contains(strings.Join(st.Stderr, "\n"), "crashing on purpose") {
		t.Fatalf("status = %+v", st)
	}
	if len(m.Offer(false)) != 0 {
		t.Fatal("a failed server's tools are offered")
	}
	if err := m.Restart("crashy"); err != nil {
		t.Fatal(err)
	}
	waitState(t, m, "crashy", StateReady)
	if res, err := m.Call(context.Background(), "crashy", "echo", json.RawMessage(`{"text":"again"}`)); err != nil || res.Text != "echo: again" {
		t.Fatalf("after restart: %+v %v", res, err)
	}
}

func TestACallTimesOutUnlessProgressKeepsItAlive(t *testing.T) {
	s := fakeStdio(t, "slow", "normal")
	s.TimeoutSeconds = 1
	m := newManager(t, s)
	waitState(t, m, "slow", StateReady)
	start := time.Now()
	_, err := m.Call(context.Background(), "slow", "sleep", json.RawMessage(`{"millis":5000}`))
	if !errors.Is(err, ErrTimeout) || time.Since(start) > 3*time.Second {
		t.Fatalf("err = %v after %s", err, time.Since(start))
	}
	// 2.5 s of work with progress every 300 ms outlives the 1 s timeout.
	res, err := m.Call(context.Background(), "slow", "sleep", json.RawMessage(`{"millis":2500,"progress":300}`))
	if err != nil || res.Text != "slept" {
		t.Fatalf("with progress: %+v %v", res, err)
	}
}

func TestStopCancelsTheCallAndTheServerIsTold(t *testing.T) {
	flag := filepath.Join(t.TempDir(), "cancelled")
	s := fakeStdio(t, "slow", "normal")
	s.Env["MCPCLIENT_CANCEL_FILE"] = flag
	m := newManager(t, s)
	waitState(t, m, "slow", StateReady)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	_, err := m.Call(ctx, "slow", "sleep", json.RawMessage(`{"millis":20000}`))
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Fatalf("err = %v after %s", err, time.Since(start))
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(flag); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server was not told the call was cancelled")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestResultsAreCappedOnCharacterBoundariesAndIsErrorAndImagesPassThrough(t *testing.T) {
	m := newManager(t, fakeStdio(t, "s", "normal"))
	waitState(t, m, "s", StateReady)
	res, err := m.Call(context.Background(), "s", "big", json.RawMessage(`{"runes":20000}`))
	if err != nil || !res.Truncated || !strings.HasPrefix(res.Text, strings.Repeat("あ", MaxResultRunes)+"\n…(truncated: 16000 of 20000") {
		t.Fatalf("big: %v truncated=%v %q", err, res.Truncated, res.Text[len(res.Text)-60:])
	}
	res, err = m.Call(context.Background(), "s", "fail", nil)
	if err != nil || !res.IsError || res.Text != "disk is full" {
		t.Fatalf("fail: %+v %v", res, err)
	}
	res, err = m.Call(context.Background(), "s", "picture", nil)
	if err != nil || len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || string(res.Images[0].Data) != "PNGDATA" {
		t.Fatalf("picture: %+v %v", res, err)
	}
}

func TestANonProtocolLineOnStdoutIsLoggedNotFatal(t *testing.T) {
	m := newManager(t, fakeStdio(t, "chatty", "banner"))
	st := waitState(t, m, "chatty", StateReady)
	b, _ := os.ReadFile(st.LogFile)
	if !strings.Contains(string(b), "[stdout, not protocol] Server starting") {
		t.Fatalf("log = %q", b)
	}
}

func TestArgumentsAndEnvArriveIntactAndExpanded(t *testing.T) {
	t.Setenv("PLAYCHAT_TEST_VALUE", "値")
	s := fakeStdio(t, "s", "normal")
	s.Args = append(s.Args, "日本語の引数", "${env:PLAYCHAT_TEST_VALUE}", "${MISSING_VAR:-既定}")
	s.Env["FOO"] = "${PLAYCHAT_TEST_VALUE}-x"
	m := newManager(t, s)
	waitState(t, m, "s", StateReady)
	res, err := m.Call(context.Background(), "s", "args", nil)
	if err != nil || !strings.HasSuffix(res.Text, "|日本語の引数|値|既定 FOO=値-x") {
		t.Fatalf("args = %q, %v", res.Text, err)
	}
}
