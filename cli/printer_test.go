package cli

import (
	"errors"
	"strings"
	"testing"

	"playchat/backend/event"
)

// recorder is an io.Writer that notes each write in a shared log.
type recorder struct{ log *[]string }

func (r recorder) Write(b []byte) (int, error) {
	*r.log = append(*r.log, "write "+strings.TrimSpace(string(b)))
	return len(b), nil
}

// A process killed as soon as it reads "done" keeps the call's api_logs
// record, which core writes in the background: the printer settles it
// (core.FlushAPILogs) before it writes a turn's last event, done or error.
func TestThePrinterSettlesTheAPILogBeforeTheTurnsLastEvent(t *testing.T) {
	for _, last := range []event.Event{{Type: event.Done}, {Type: event.Error, Value: errors.New("boom")}} {
		var log []string
		p := &printer{w: recorder{&log}, errw: recorder{&log}, json: true, settle: func() { log = append(log, "settle") }}
		p.Emit(event.Event{Type: event.Chunk, Value: "hi"})
		p.Emit(last)
		if len(log) != 3 || !strings.HasPrefix(log[0], "write ") || log[1] != "settle" || !strings.Contains(log[2], string(last.Type)) {
			t.Errorf("%s: the printer did %q; want the chunk, settle, then the %s event", last.Type, log, last.Type)
		}
	}
}
