package apiserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"playchat/backend/apperr"
)

// DefaultHost is where the API listens unless the local-network mode
// names another address.
const DefaultHost = "127.0.0.1"

// shutdownGrace is how long Serve waits for open requests when it stops.
const shutdownGrace = 5 * time.Second

// ListenAddr returns the host:port to listen on. listen is "" (127.0.0.1 at
// port), an IP address (at port) or an IP address with its own port
// ("0.0.0.0:8901"); "localhost" means 127.0.0.1; port 0 is any free port. lan reports an address
// that is not a loopback one: the local-network mode, which the caller
// must announce. Errors are apperr.APIBadListen.
func ListenAddr(listen string, port int) (addr string, lan bool, err error) {
	host, p := listen, strconv.Itoa(port)
	if h, pp, serr := net.SplitHostPort(listen); serr == nil {
		host, p = h, pp
	}
	bad := func(detail string) (string, bool, error) {
		return "", false, apperr.New(apperr.APIBadListen, map[string]any{"addr": listen, "detail": detail})
	}
	switch host {
	case "":
		host = DefaultHost
	case "localhost":
		host = DefaultHost
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return bad("the host must be an IP address, such as 127.0.0.1 or 0.0.0.0")
	}
	n, perr := strconv.Atoi(p)
	if perr != nil || n < 0 || n > 65535 {
		return bad("the port must be a number from 0 (any free port) to 65535")
	}
	return net.JoinHostPort(ip.String(), strconv.Itoa(n)), !ip.IsLoopback(), nil
}

// Serve answers requests on ln with h until ctx ends, then stops: open
// requests get shutdownGrace to finish, after which their connections are
// closed (their contexts end, so running calls are cancelled). It returns
// nil after a stop that ctx asked for.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) }}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
