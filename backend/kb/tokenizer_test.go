package kb

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"playchat/backend/jatext"
	"playchat/internal/testcorpus"
)

// retrievalScore is hit@1, hit@3 and the mean reciprocal rank (over the
// first 10) of a question set.
type retrievalScore struct {
	hit1, hit3, mrr float64
	misses          []string
}

func (r retrievalScore) String() string {
	return fmt.Sprintf("hit@1 %.3f  hit@3 %.3f  MRR@10 %.3f", r.hit1, r.hit3, r.mrr)
}

func scoreQuestions(t testing.TB, f *fixture) retrievalScore {
	t.Helper()
	var r retrievalScore
	for _, q := range corpusQuestions {
		got := f.searchPaths(t, q.Q, 10)
		rank := 0
		for i, p := range got {
			if contains(q.Answers, p) {
				rank = i + 1
				break
			}
		}
		if rank == 1 {
			r.hit1++
		}
		if rank >= 1 && rank <= 3 {
			r.hit3++
		} else {
			top := got[:min(3, len(got))]
			r.misses = append(r.misses, fmt.Sprintf("%s → rank %d, top %v", q.Q, rank, top))
		}
		if rank > 0 {
			r.mrr += 1 / float64(rank)
		}
	}
	n := float64(len(corpusQuestions))
	r.hit1, r.hit3, r.mrr = r.hit1/n, r.hit3/n, r.mrr/n
	return r
}

// indexCorpus builds a fixture over the corpus with the given lexicons.
func indexCorpus(t testing.TB, lexes []lexicon, opts ...fixtureOpt) (*fixture, time.Duration) {
	t.Helper()
	f := newFixture(t, corpusDir(t), opts...)
	for _, lx := range lexes {
		if lx.name == "trigram" {
			for _, stmt := range trigramSchema {
				if _, err := f.db.Bun().Exec(stmt); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	f.svc.lexes = lexes
	start := time.Now()
	rep, err := f.svc.Reconcile(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed < testcorpus.MinDocs || rep.Failed > 0 {
		t.Fatalf("corpus pass = %+v, want %d+ indexed and none failed", rep, testcorpus.MinDocs)
	}
	return f, time.Since(start)
}

// TestTokenizerChoice measures retrieval quality of the three tokenisations
// issue 4 offers on the corpus question set and checks the one in use is
// not beaten: kagome segmentation (unicode61 over kagome's terms), FTS5's
// trigram tokenizer (dictionary-free; queries become their 3-rune windows),
// and both fused by RRF. Run with -v to see the numbers.
func TestTokenizerChoice(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes the corpus three times")
	}
	options := []struct {
		name  string
		lexes []lexicon
	}{
		{"kagome", []lexicon{kagomeLexicon}},
		{"trigram", []lexicon{trigramLexicon}},
		{"kagome+trigram (RRF)", []lexicon{kagomeLexicon, trigramLexicon}},
	}
	scores := map[string]retrievalScore{}
	for _, o := range options {
		f, took := indexCorpus(t, o.lexes)
		start := time.Now()
		s := scoreQuestions(t, f)
		perQuery := time.Since(start) / time.Duration(len(corpusQuestions))
		scores[o.name] = s
		t.Logf("%-22s %s  (index %v, %v/query)", o.name, s, took.Round(time.Millisecond), perQuery.Round(10*time.Microsecond))
		for _, m := range s.misses {
			t.Logf("    miss: %s", m)
		}
		f.svc.Close()
	}
	k := scores["kagome"]
	if k.hit3 < 0.85 {
		t.Errorf("kagome hit@3 = %.3f, want ≥ 0.85", k.hit3)
	}
	for name, s := range scores {
		if s.hit3 > k.hit3 && !strings.HasPrefix(name, "kagome") {
			t.Errorf("%s (hit@3 %.3f) beats the kagome segmentation in use (%.3f): revisit the choice", name, s.hit3, k.hit3)
		}
	}
}

// The heading paths of sections are segmented heading by heading; the
// terms must be those of the whole path.
func TestHeadingSegmenterMatchesWholePath(t *testing.T) {
	h := headingSegmenter{title: "所有権とは？"}
	var err error
	if h.titleTerms, err = jatext.Segment(h.title); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"", "所有権とは？", "所有権とは？ › 所有権規則", "所有権とは？ › 所有権規則 › v-if と v-for",
		"Vue.js ガイド › コンポーネントの基本 › Props", "ｶﾞｲﾄﾞ › ＡＢＣ › ①の例"} {
		got, err := h.segment(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jatext.Segment(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("segment(%q) = %q, want %q", path, got, want)
		}
	}
}
