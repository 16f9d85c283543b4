package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/jatext"
)

func TestCommonTermsExprRequiresTheMustTermsOnlyWhenTheyAreCommon(t *testing.T) {
	terms := []jatext.Term{{Key: "子"}, {Key: "props"}, {Key: "渡す"}}
	must := []bool{true, true, false}
	df := map[string]float64{"子": 40000, "props": 27000, "渡す": 90000}
	if got, want := commonTermsExpr(terms, df, must, 8000), `"子" AND "props"`; got != want {
		t.Errorf("common must terms: %q, want %q", got, want)
	}
	df = map[string]float64{"子": 3000, "props": 2000, "渡す": 90000}
	if got := commonTermsExpr(terms, df, must, 8000); got != "" {
		t.Errorf("must terms in 5,000 sections (under the budget): %q, want none", got)
	}
	if got := commonTermsExpr(terms[:1], map[string]float64{"子": 40000}, must[:1], 8000); got != "" {
		t.Errorf("one term: %q, want none (nothing to require together)", got)
	}
}

// commonTermsTree writes 30 documents holding only "alpha", 30 holding only
// "beta" and both documents holding both words.
func commonTermsTree(t *testing.T, both int) string {
	dir := t.TempDir()
	for i := range 30 {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("a%02d.md", i)), fmt.Sprintf("# Note a%d\n\nalpha alpha alpha filler words %d\n", i, i))
		writeFile(t, filepath.Join(dir, fmt.Sprintf("b%02d.md", i)), fmt.Sprintf("# Note b%d\n\nbeta beta beta filler words %d\n", i, i))
	}
	for i := range both {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("ab%02d.md", i)), fmt.Sprintf("# Note ab%d\n\nalpha and beta together, text %d\n", i, i))
	}
	return dir
}

// A query whose two rarest words are common (over the posting budget)
// ranks only the documents holding both when enough of them do
// (minCommonTermsDocs). When too few do, those come first and the words
// the budget allows follow — either word when it allows neither alone: a
// search never comes back emptier for being cheaper.
func TestCommonTermsAreRequiredTogetherWhenEnoughDocumentsHoldBoth(t *testing.T) {
	saved := postingBudget
	t.Cleanup(func() { postingBudget = saved })
	ctx := context.Background()
	for _, tc := range []struct {
		both     int
		budget   float64 // "alpha" and "beta" are each in 30+ sections
		onlyBoth bool
		// alphaOnly: the budget allows "alpha" alone, so the one-word
		// matches after the documents holding both are alpha's.
		alphaOnly bool
	}{
		{both: minCommonTermsDocs + 2, budget: 20, onlyBoth: true},
		{both: minCommonTermsDocs - 7, budget: 20},
		{both: minCommonTermsDocs - 7, budget: 35, alphaOnly: true},
	} {
		postingBudget = tc.budget
		f := newFixture(t, commonTermsTree(t, tc.both))
		if _, err := f.svc.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
		hits, err := f.svc.Search(ctx, "alpha beta", 40)
		if err != nil {
			t.Fatal(err)
		}
		withBoth, betaOnly := 0, 0
		for i, h := range hits {
			data, err := os.ReadFile(filepath.Join(f.dir, h.Path))
			if err != nil {
				t.Fatal(err)
			}
			alpha, beta := strings.Contains(string(data), "alpha"), strings.Contains(string(data), "beta")
			if alpha && beta {
				withBoth++
				if i >= tc.both {
					t.Errorf("budget %v: a document holding both words ranks %d, after one-word matches", tc.budget, i+1)
				}
			}
			if beta && !alpha {
				betaOnly++
			}
		}
		if tc.alphaOnly && betaOnly > 0 {
			t.Errorf("budget %v allows alpha alone: %d documents holding only beta ranked", tc.budget, betaOnly)
		}
		if !tc.onlyBoth && !tc.alphaOnly && betaOnly == 0 {
			t.Errorf("budget %v allows neither word alone: no document holding only beta ranked", tc.budget)
		}
		if withBoth != tc.both {
			t.Errorf("%d documents hold both words: %d of them found in %d hits", tc.both, withBoth, len(hits))
		}
		if tc.onlyBoth && len(hits) != tc.both {
			t.Errorf("%d documents hold both words (enough): %d hits, want only those", tc.both, len(hits))
		}
		if !tc.onlyBoth && len(hits) <= tc.both {
			t.Errorf("%d documents hold both words (too few to stand alone): %d hits, want the one-word documents too", tc.both, len(hits))
		}
	}
}

// A conjunction of common terms that still matches more sections than the
// posting budget takes the query's next rarest term, unless fewer than
// lexChunkLimit sections would match it then.
func TestCommonTermsNarrowWhileTheyMatchMoreThanTheBudget(t *testing.T) {
	saved := postingBudget
	postingBudget = 500
	t.Cleanup(func() { postingBudget = saved })
	dir := t.TempDir()
	n := 0
	write := func(count int, text string) {
		for range count {
			n++
			writeFile(t, filepath.Join(dir, fmt.Sprintf("d%02d", n%40), fmt.Sprintf("n%04d.md", n)), fmt.Sprintf("# Note %d\n\n%s\n", n, text))
		}
	}
	write(400, "alpha beta gamma")
	write(250, "alpha beta epsilon")
	write(50, "alpha beta")
	write(500, "gamma delta")
	write(500, "epsilon zeta")
	f := newFixture(t, dir)
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	lx := f.svc.lexes[0]
	for _, tc := range []struct{ query, want string }{
		// alpha and beta (700 sections each) are the two rarest; together
		// they match 700 > 500: gamma narrows them to 400.
		{"alpha beta gamma", `"alpha" AND "beta" AND "gamma"`},
		// epsilon would leave 250 < lexChunkLimit: kept as it was.
		{"alpha beta epsilon", `"alpha" AND "beta"`},
	} {
		terms, err := lx.terms(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		df, _, err := f.svc.termStats(ctx, f.db.Bun(), lx, terms)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.svc.commonTerms(ctx, f.db.Bun(), lx, terms, df, twoRarest(terms, df))
		if err != nil || got.expr != tc.want {
			t.Errorf("%q: common terms %q, %v; want %q", tc.query, got.expr, err, tc.want)
		}
	}
}
