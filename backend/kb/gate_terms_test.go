package kb

import (
	"context"
	"math"
	"slices"
	"testing"

	"playchat/backend/jatext"
)

func TestGateTermsAreTheHeaviestTermsThatOutweighTheRest(t *testing.T) {
	term := func(k string, verb bool) jatext.Term { return jatext.Term{Key: k, Verb: verb} }
	for _, tc := range []struct {
		name   string
		terms  []jatext.Term
		df     map[string]float64
		weight map[string]float64
		want   []bool
	}{
		{"a rare noun outweighs a common one: the common one is left to the budget",
			[]jatext.Term{term("次", false), term("質問", false)},
			map[string]float64{"次": 60000, "質問": 3600}, map[string]float64{"次": 1.8, "質問": 4.6},
			[]bool{false, true}},
		{"two equal terms: a section with one holds half and may pass, so both",
			[]jatext.Term{term("a", false), term("b", false)},
			map[string]float64{"a": 10, "b": 10}, map[string]float64{"a": 2, "b": 2},
			[]bool{true, true}},
		{"a verb counts half: the noun alone does not outweigh the rest here",
			[]jatext.Term{term("算出", false), term("使い分ける", true), term("違い", false)},
			map[string]float64{"算出": 50, "使い分ける": 40, "違い": 900}, map[string]float64{"算出": 6, "使い分ける": 6, "違い": 3},
			[]bool{true, true, false}},
		{"a term in no section is held by none and cannot be the one that counts",
			[]jatext.Term{term("無い語", false), term("ref", false), term("the", false)},
			map[string]float64{"ref": 100, "the": 90000}, map[string]float64{"無い語": 9, "ref": 5, "the": 1},
			[]bool{false, true, true}},
		{"no weight at all: the two rarest, as a search box takes them",
			[]jatext.Term{term("x", false), term("y", false), term("z", false)},
			map[string]float64{"x": 30, "y": 10, "z": 20}, map[string]float64{},
			[]bool{false, true, true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := gateTerms(tc.terms, tc.df, tc.weight); !slices.Equal(got, tc.want) {
				t.Errorf("gateTerms = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPickTermsTakesWhatItMustAndTheRestRarestFirstWithinTheBudget(t *testing.T) {
	terms := []jatext.Term{{Key: "common"}, {Key: "rare"}, {Key: "mid"}, {Key: "absent"}}
	df := map[string]float64{"common": 50000, "rare": 100, "mid": 2000}
	got := pickTerms(terms, df, 8000, []bool{false, true, false, false})
	if want := []bool{false, true, true, true}; !slices.Equal(got, want) {
		t.Errorf("pickTerms = %v, want %v (common is over the budget, absent costs nothing)", got, want)
	}
	// What a caller must have is taken even past the budget.
	got = pickTerms(terms, df, 0, []bool{true, false, false, false})
	if want := []bool{true, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("pickTerms with no budget = %v, want %v", got, want)
	}
}

// TestEverySectionThatPassesTheGateHoldsAGateTerm checks gateTerms'
// argument on the real corpus: for every question (answerable and
// off-topic), every section of every candidate of an unpruned retrieval
// that passes layer 3's lexical gate holds one of the terms gateTerms
// picked — so a MATCH of those terms alone loses no document the gate
// would attach.
func TestEverySectionThatPassesTheGateHoldsAGateTerm(t *testing.T) {
	f := corpusFixture(t)
	ctx := context.Background()
	saved := postingBudget
	postingBudget = math.Inf(1)
	t.Cleanup(func() { postingBudget = saved })
	lx := f.svc.lexes[0]
	qs := slices.Clone(offTopicQuestions)
	for _, q := range corpusQuestions {
		qs = append(qs, q.Q)
	}
	passing := 0
	for _, q := range qs {
		r, err := f.svc.retrieve(ctx, q, 40, false)
		if err != nil {
			t.Fatal(err)
		}
		df, _, err := f.svc.termStats(ctx, f.db.Bun(), lx, r.terms)
		if err != nil {
			t.Fatal(err)
		}
		must := gateTerms(r.terms, df, r.evidenceIDF)
		for _, c := range r.cands {
			title := jatext.Normalize(c.title)
			for i, s := range c.ev.secs {
				if !s.matches() {
					continue
				}
				passing++
				prose, code := zones(c.chunks[i].text, true)
				text := title + "\n" + jatext.Normalize(c.chunks[i].heading) + "\n" + prose + "\n" + code
				held := false
				for _, qt := range r.qterms {
					for j, tm := range r.terms {
						if must[j] && tm.Key == qt.key && qt.in(text) {
							held = true
						}
					}
				}
				if !held {
					t.Errorf("%q: section %d of %s passes the gate (%.2f of the question) but holds none of the gate terms %v",
						q, i, c.path, s.prose, gateKeys(r.terms, must))
				}
			}
		}
	}
	if passing == 0 {
		t.Fatal("no section passed the gate: the test checked nothing")
	}
	t.Logf("%d passing sections checked over %d questions", passing, len(qs))
}

// TestLayerWithNoPostingBudgetStillAttachesTheAnswers runs the question set
// with the posting budget at 0, so every MATCH holds only the gate terms
// (what a very large knowledge base gives for its common words), and
// requires layer 3's hit rate of the full budget and no off-topic text.
func TestLayerWithNoPostingBudgetStillAttachesTheAnswers(t *testing.T) {
	f := corpusFixture(t)
	hitRate := func() int {
		hits := 0
		for _, q := range corpusQuestions {
			for _, d := range layerDocs(t, f, q.Q) {
				if contains(q.Answers, d) {
					hits++
					break
				}
			}
		}
		return hits
	}
	full := hitRate()
	saved := postingBudget
	postingBudget = 0
	t.Cleanup(func() { postingBudget = saved })
	pruned := hitRate()
	t.Logf("layer 3 hits: %d/%d with the posting budget, %d/%d with gate terms only", full, len(corpusQuestions), pruned, len(corpusQuestions))
	if pruned < full {
		t.Errorf("with gate terms only layer 3 attached an answer for %d questions, with the budget %d", pruned, full)
	}
	for _, q := range offTopicQuestions {
		if docs := layerDocs(t, f, q); len(docs) > 0 {
			t.Errorf("off-topic %q injected %v with gate terms only", q, docs)
		}
	}
}

func gateKeys(terms []jatext.Term, keep []bool) []string {
	var out []string
	for i, t := range terms {
		if keep[i] {
			out = append(out, t.Key)
		}
	}
	return out
}
