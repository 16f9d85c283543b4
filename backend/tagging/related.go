package tagging

import (
	"context"
	"strings"

	"playchat/backend/jatext"
	"playchat/backend/store"
)

// relatedScan is how many of the newest tagged messages RelatedTag weighs.
const relatedScan = 200

// RelatedTag picks a tag close to text, for the topic of a tip, among the
// messages of sessionIDs only — the chats the tip may draw on (a Discord
// channel's own chat); no session means none, so nothing of any other
// chat can leak into a post (issue 21). Among their newest tagged
// messages, the one sharing the most nouns with text (its content or tags
// holding them; a tag that is itself one of the nouns counts double), the
// most recent on a tie, and of its tags one that text names, else its
// first. An empty text (or one sharing nothing) is compared with the word
// pool of those sessions instead: their recent talk. With nothing in
// common it is the newest tag; with no tag at all, the newest noun of text
// or the pool; "" when there is nothing. Its errors are the database's and
// the dictionary's.
func (s *Service) RelatedTag(ctx context.Context, text string, sessionIDs []string) (string, error) {
	var nouns []string
	if strings.TrimSpace(text) != "" {
		var err error
		if nouns, err = jatext.Nouns(text); err != nil {
			return "", err
		}
	}
	if len(sessionIDs) == 0 {
		return lastOf(nouns), nil
	}
	pool := NewWordPool(PoolSize)
	if err := pool.Reseed(ctx, s.db, sessionIDs); err != nil {
		return "", err
	}
	words := pool.Words()
	tagged, err := s.db.RecentTaggedMessages(ctx, relatedScan, sessionIDs)
	if err != nil {
		return "", err
	}
	if len(tagged) == 0 {
		if n := lastOf(nouns); n != "" {
			return n, nil
		}
		return lastOf(words), nil
	}
	for _, ws := range [][]string{nouns, words} {
		if tag := bestTag(tagged, ws); tag != "" {
			return tag, nil
		}
	}
	for _, m := range tagged {
		if len(m.Tags) > 0 {
			return m.Tags[0], nil
		}
	}
	return "", nil
}

// bestTag is RelatedTag's choice among tagged (newest first) for words; ""
// when no message shares a word.
func bestTag(tagged []store.TaggedMessage, words []string) string {
	set := map[string]bool{}
	for _, w := range words {
		set[jatext.Normalize(w)] = true
	}
	if len(set) == 0 {
		return ""
	}
	best, bestScore := -1, 0
	for i, m := range tagged {
		content := jatext.Normalize(m.Content)
		score := 0
		for w := range set {
			if strings.Contains(content, w) {
				score++
			}
		}
		for _, t := range m.Tags {
			if set[jatext.Normalize(t)] {
				score += 2
			}
		}
		if score > bestScore { // ties keep the newer (earlier) message
			best, bestScore = i, score
		}
	}
	if best < 0 || len(tagged[best].Tags) == 0 {
		return ""
	}
	for _, t := range tagged[best].Tags {
		if set[jatext.Normalize(t)] {
			return t
		}
	}
	return tagged[best].Tags[0]
}

func lastOf(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[len(ss)-1]
}
