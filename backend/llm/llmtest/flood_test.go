package llmtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestSplitEveryCutsRunesNotBytes(t *testing.T) {
	got := SplitEvery("あいうえおか", 4)
	want := []string{"あいうえ", "おか"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("SplitEvery = %q, want %q", got, want)
	}
	if SplitEvery("", 3) != nil {
		t.Fatal("empty text must give no deltas")
	}
	if n := len(SplitEvery("abc", 0)); n != 3 {
		t.Fatalf("size 0 counts as 1: got %d deltas", n)
	}
}

func TestFillerTextHasExactlyNRunesAndMarkdown(t *testing.T) {
	for _, n := range []int{1, 37, 2000, 20000} {
		s := FillerText(n)
		if got := utf8.RuneCountInString(s); got != n {
			t.Fatalf("FillerText(%d) has %d runes", n, got)
		}
	}
	long := FillerText(2000)
	for _, want := range []string{"```go", "| 東京 |", "- first point", "吾輩は猫"} {
		if !strings.Contains(long, want) {
			t.Errorf("FillerText lacks %q", want)
		}
	}
}

func TestFloodScriptStreamsOneDeltaPerRune(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{Generate: 2000, DeltaSize: 1})
	resp := post(t, s, `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`)
	evs, err := sseEvents(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	// 2,000 content deltas + the finish chunk + [DONE].
	if len(evs) != 2002 {
		t.Fatalf("got %d events, want 2002", len(evs))
	}
}

func TestDefaultReplyWithDeltaSize(t *testing.T) {
	s := NewServer(t, WithReply("hello"), WithDeltaSize(2))
	resp := post(t, s, `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`)
	evs, err := sseEvents(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 5 { // "he", "ll", "o", finish, [DONE]
		t.Fatalf("got %d events, want 5: %q", len(evs), evs)
	}
}

func TestTextEncoderWritesWhatChunkEventWrites(t *testing.T) {
	enc := newTextEncoder(`chatcmpl-fake-7`, `fake/<model> & "quoted"`)
	for _, text := range []string{"", "あ", "plain text", `<b>&amp;</b>`, "quote \" back\\slash", "tab\tnl\ncr\r\x01\x1f",
		"line\u2028para\u2029", "emoji 😀", "bad utf-8 \xff\xfe", "{\"json\": [1, 2]}"} {
		for _, first := range []bool{true, false} {
			delta := map[string]any{"content": text}
			if first {
				delta["role"] = "assistant"
			}
			want := chunkEvent(`chatcmpl-fake-7`, `fake/<model> & "quoted"`, delta, nil)
			if got := enc.event(text, first); got != want {
				t.Errorf("event(%q, %v) =\n%s\nwant\n%s", text, first, got, want)
			}
		}
	}
}

// An untimed reply's events share writes; a held one still sends every
// event before the hold at once, so a client reads them while it waits.
func TestHeldFloodSendsEverythingBeforeTheHold(t *testing.T) {
	s := NewServer(t)
	hold := make(chan struct{})
	s.Enqueue(Response{Generate: 300, DeltaSize: 1, Hold: hold, HoldAfter: 250})
	resp := post(t, s, `{"model":"m","stream":true,"messages":[{"role":"user","content":"go"}]}`)
	br := bufio.NewReader(resp.Body)
	var got strings.Builder
	read := make(chan error, 1)
	go func() {
		for n := 0; n < 250; {
			line, err := br.ReadString('\n')
			if err != nil {
				read <- fmt.Errorf("after %d events: %w", n, err)
				return
			}
			if p, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
				var chunk struct {
					Choices []struct {
						Delta struct{ Content string } `json:"delta"`
					} `json:"choices"`
				}
				if err := json.Unmarshal([]byte(p), &chunk); err != nil {
					read <- err
					return
				}
				got.WriteString(chunk.Choices[0].Delta.Content)
				n++
			}
		}
		read <- nil
	}()
	select {
	case err := <-read:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		close(hold)
		t.Fatal("the events before the hold did not arrive while it held")
	}
	close(hold)
	rest, err := sseEvents(br)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != FillerText(250) || len(rest) != 50+2 { // 50 deltas, finish, [DONE]
		t.Fatalf("before the hold %q, then %d events", got.String(), len(rest))
	}
}
