package llm

import (
	"io"
	"strings"
	"testing"
)

// chunkedReader returns its parts one per Read.
type chunkedReader struct{ parts []string }

func (r *chunkedReader) Read(p []byte) (int, error) {
	if len(r.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.parts[0])
	if r.parts[0] = r.parts[0][n:]; r.parts[0] == "" {
		r.parts = r.parts[1:]
	}
	return n, nil
}

func (r *chunkedReader) Close() error { return nil }

// sniff reads parts through a doneSniffer and reports whether it saw the
// [DONE] line (and that every byte came through unchanged).
func sniff(t *testing.T, parts ...string) bool {
	t.Helper()
	st := &attemptState{}
	got, err := io.ReadAll(newDoneSniffer(&chunkedReader{parts: append([]string(nil), parts...)}, st))
	if err != nil || string(got) != strings.Join(parts, "") {
		t.Fatalf("read %q, %v; want %q", got, err, strings.Join(parts, ""))
	}
	return st.sawDone
}

func TestDoneSnifferFindsTheMarkerWhereverReadsCutIt(t *testing.T) {
	event := `data: {"choices":[{"delta":{"content":"あ"}}]}` + "\n\n"
	for _, body := range []string{
		event + "data: [DONE]\n\n",
		event + "data:[DONE]\n\n",
		"data: [DONE]\n\n", // the marker opens the body
		strings.Repeat(event, 3) + "data: [DONE]",
	} {
		for cut := 0; cut <= len(body); cut++ {
			if !sniff(t, body[:cut], body[cut:]) {
				t.Errorf("marker missed in %q cut at %d", body, cut)
			}
		}
		if !sniff(t, strings.Split(body, "")...) {
			t.Errorf("marker missed in %q read byte by byte", body)
		}
		// Many short reads around a long one.
		if !sniff(t, body[:1], body[1:2], body[2:len(body)-3], body[len(body)-3:]) {
			t.Errorf("marker missed in %q read in odd pieces", body)
		}
	}
}

func TestDoneSnifferIgnoresLookalikes(t *testing.T) {
	event := `data: {"choices":[{"delta":{"content":"data: [DONE]"}}]}` + "\n\n"
	for _, body := range []string{
		event,                        // the marker's text inside a delta, not at a line start
		event + "data: [DONE",        // cut before the bracket closes
		event + "event: x\n" + "id:", // other SSE fields
		"xdata: [DONE]\n\n",
	} {
		for cut := 0; cut <= len(body); cut++ {
			if sniff(t, body[:cut], body[cut:]) {
				t.Errorf("marker seen in %q cut at %d", body, cut)
			}
		}
		if sniff(t, strings.Split(body, "")...) {
			t.Errorf("marker seen in %q read byte by byte", body)
		}
	}
}

func TestDoneSnifferReadsAllocateNothing(t *testing.T) {
	body := strings.Repeat(`data: {"choices":[{"delta":{"content":"あ"}}]}`+"\n\n", 4)
	src := &chunkedReader{}
	s := newDoneSniffer(src, &attemptState{})
	buf := make([]byte, 4096)
	pieces, backing := []string{body[:5], body[5:100], body[100:]}, make([]string, 3)
	allocs := testing.AllocsPerRun(100, func() {
		copy(backing, pieces)
		src.parts = backing
		for range 3 {
			_, _ = s.Read(buf)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per 3 reads, want 0", allocs)
	}
}
