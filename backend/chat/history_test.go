package chat_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/chat"
)

// A turn reads a long chat's history back from its end only as far as the
// request could send it (issue 29: it read all of it), and says as before
// how many of the oldest messages were left out: the newest ones go, in
// order, and sent + left out is the whole chat. With a window that holds
// the whole chat, all of it goes.
func TestALongChatsTurnReadsOnlyTheHistoryThatCanBeSent(t *testing.T) {
	srv := echoServer(t)
	for _, tc := range []struct {
		window  string
		allSent bool
	}{{"4000", false}, {"200000", true}} {
		c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS="+tc.window, "MAX_OUTPUT_TOKENS=500", "MEMORY_SUMMARIZE_THRESHOLD=100000")
		sid := seedLongSession(t, c.DB, 600, 0, 600)
		res, _, _ := turn(t, c, sid, "and the newest question?")
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		h := res.Context.History
		if h.Sent+h.LeftOut != 600 || (h.LeftOut == 0) == !tc.allSent || h.Sent == 0 {
			t.Fatalf("window %s: history sent %d, left out %d (of 600)", tc.window, h.Sent, h.LeftOut)
		}
		msgs := srv.ChatRequests()[len(srv.ChatRequests())-1].Messages
		if got := msgs[len(msgs)-2].Content; !strings.HasPrefix(got, "メッセージ 599:") {
			t.Fatalf("window %s: the newest history message sent is %.20q", tc.window, got)
		}
		first := msgs[len(msgs)-1-h.Sent].Content
		if want := fmt.Sprintf("メッセージ %d:", 600-h.Sent); !strings.HasPrefix(first, want) {
			t.Fatalf("window %s: the oldest history message sent is %.20q, want %s", tc.window, first, want)
		}
		preview, err := c.Chat.Preview(context.Background(), chat.PreviewRequest{SessionID: sid, Text: "next"})
		if err != nil {
			t.Fatal(err)
		}
		if p := preview.History; p.Sent+p.LeftOut != 602 {
			t.Fatalf("window %s: the preview counts %d + %d history messages, want 602", tc.window, p.Sent, p.LeftOut)
		}
	}
}
