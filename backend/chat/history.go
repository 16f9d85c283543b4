package chat

import (
	"context"

	"playchat/backend/store"
	"playchat/backend/tokens"
)

// historyPage is how many messages historyWithin reads at a time.
const historyPage = 128

// historyWithin returns the active history of session sessionID, oldest
// first, as far back as a request with an input budget of input tokens
// could send it: buildContextWith sends the history newest first and
// contiguous, so once the messages read fill the whole budget by
// themselves, no older one could go. It reads the history back from its
// newest message historyPage messages at a time and counts them with
// counter as the request would send them (historyMessages); the oldest
// message read is not counted, since it may be joined with one before it.
// A turn in a chat of 2,000 active messages read and decoded all of them
// (issue 29); now one for an 8k-token model reads about a page. unread is
// how many older active messages were not read (left out of the request
// for want of room, as the report says).
func (s *Service) historyWithin(ctx context.Context, sessionID string, counter tokens.Counter, input int) (ms []store.Message, unread int, err error) {
	before := int64(0)
	for {
		page, err := s.db.ActiveHistoryTail(ctx, sessionID, before, historyPage)
		if err != nil {
			return nil, 0, err
		}
		ms = append(page, ms...)
		if len(page) < historyPage {
			return ms, 0, nil // the whole history
		}
		if historyTokens(counter, ms[1:]) > input {
			all, err := s.db.CountActiveMessages(ctx, sessionID)
			return ms, max(all-len(ms), 0), err
		}
		before = page[0].ID
	}
}

// leftUnread counts unread messages (historyWithin) among those a built
// request left out of its history.
func leftUnread(b *Built, unread int) {
	b.Dropped += unread
	b.Report.History.LeftOut += unread
}

// historyTokens is what ms would take in a request as history
// (historyMessages, counted as buildContextWith counts them).
func historyTokens(counter tokens.Counter, ms []store.Message) int {
	n := 0
	for _, m := range historyMessages(ms) {
		c, _ := messageTokens(counter, m)
		n += c
	}
	return n
}
