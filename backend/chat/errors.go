package chat

import (
	"errors"
	"fmt"
	"net"
	"net/url"
)

// userError renders err for the person at the window: a network failure
// names the server and the reason instead of Go's "Post …: dial tcp …".
func userError(err error) string {
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
		return fmt.Sprintf("cannot reach the model server at %s (%s)", host, reason)
	}
	return err.Error()
}
