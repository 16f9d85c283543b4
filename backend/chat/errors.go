package chat

import (
	"errors"
	"net"
	"net/url"
	"syscall"

	"playchat/backend/apperr"
	"playchat/backend/redact"
)

// userError is err as the person at the window reads it (English), with
// the credentials of any URL in it masked.
func userError(err error) string { return redact.URLCredentials(userErr(err).Error()) }

// userInfo is err as the window receives it in an error event.
func userInfo(err error) apperr.Info { return apperr.InfoOf(userErr(err)) }

// userErr gives a network failure a code naming the server and the reason
// instead of Go's "Post …: dial tcp …"; other errors come back unchanged.
func userErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		host := ue.URL
		if u, perr := url.Parse(ue.URL); perr == nil && u.Host != "" {
			host = u.Scheme + "://" + u.Host
		}
		reason := ue.Err.Error()
		var op *net.OpError
		if errors.As(ue.Err, &op) && op.Err != nil {
			reason = op.Err.Error()
		}
		if ue.Timeout() {
			reason = "timed out"
		}
		return apperr.New(apperr.ChatUnreachable, map[string]any{"host": host, "reason": reason, "kind": reachKind(ue)})
	}
	return err
}

// reachKind sorts a transport failure for the window: "timeout", "refused",
// "noHost", "reset", or "" for anything else.
func reachKind(ue *url.Error) string {
	var dns *net.DNSError
	switch {
	case ue.Timeout():
		return "timeout"
	case errors.Is(ue, syscall.ECONNREFUSED):
		return "refused"
	case errors.As(ue, &dns) && dns.IsNotFound:
		return "noHost"
	case errors.Is(ue, syscall.ECONNRESET):
		return "reset"
	}
	return ""
}
