package apiserver_test

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"playchat/backend/apiserver"
	"playchat/backend/core"
	"playchat/internal/testnet"
)

func getModels(url string) (int, error) {
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url+"/models", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func TestRunnerStartsMovesAndStopsWithTheSettings(t *testing.T) {
	e := newEnv(t, envOpts{})
	var r apiserver.Runner
	t.Cleanup(r.Close)
	var lans []bool
	handler := func(lan bool) (*apiserver.Server, error) {
		lans = append(lans, lan)
		return e.c.APIServer(core.APIServerOptions{Token: func() string { return testToken }, AnyHost: lan}), nil
	}
	port := testnet.FreePort(t)
	if err := r.Apply(true, "", port, handler); err != nil {
		t.Fatal(err)
	}
	st := r.Status()
	if !st.Running || st.LAN || st.URL != "http://127.0.0.1:"+strconv.Itoa(port)+"/v1" {
		t.Fatalf("status %+v", st)
	}
	if code, err := getModels(st.URL); err != nil || code != http.StatusOK {
		t.Fatalf("GET /v1/models: %d %v", code, err)
	}
	if n, err := apiserver.ProbeModels(context.Background(), st.URL, testToken); err != nil || n < 2 {
		t.Fatalf("ProbeModels: %d %v", n, err)
	}
	if _, err := apiserver.ProbeModels(context.Background(), st.URL, "wrong-token-0123456789"); err == nil {
		t.Fatal("ProbeModels with a wrong token succeeded")
	}
	// The same settings again: nothing restarts.
	if err := r.Apply(true, "", port, handler); err != nil || len(lans) != 1 {
		t.Fatalf("a second Apply with the same settings: %v, %d handlers built", err, len(lans))
	}
	// The local-network mode on another port: a new handler that accepts any Host.
	port2 := testnet.FreePort(t)
	if err := r.Apply(true, "0.0.0.0", port2, handler); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(); !st.Running || !st.LAN || !strings.Contains(st.URL, ":"+strconv.Itoa(port2)+"/") || !lans[len(lans)-1] {
		t.Fatalf("after moving to the LAN: %+v %v", st, lans)
	}
	if _, err := getModels("http://127.0.0.1:" + strconv.Itoa(port) + "/v1"); err == nil {
		t.Fatal("the old port still answers")
	}
	if err := r.Apply(false, "0.0.0.0", port2, handler); err != nil {
		t.Fatal(err)
	}
	if st := r.Status(); st.Running || st.URL != "" || st.Err != "" {
		t.Fatalf("after switching off: %+v", st)
	}
}

func TestRunnerReportsABadAddressAndATakenPort(t *testing.T) {
	e := newEnv(t, envOpts{})
	var r apiserver.Runner
	t.Cleanup(r.Close)
	handler := func(lan bool) (*apiserver.Server, error) {
		return e.c.APIServer(core.APIServerOptions{Token: func() string { return testToken }, AnyHost: lan}), nil
	}
	if err := r.Apply(true, "my-host", 8901, handler); err == nil || r.Status().Err == "" || r.Status().Running {
		t.Fatalf("a host name: %v %+v", err, r.Status())
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	if err := r.Apply(true, "", port, handler); err == nil || !strings.Contains(r.Status().Err, strconv.Itoa(port)) {
		t.Fatalf("a taken port: %v %+v", err, r.Status())
	}
}
