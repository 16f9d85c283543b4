package kb

import (
	"context"
	"slices"
	"testing"

	"playchat/backend/layer"
)

// TestALayerLimitedToADomainAttachesOnlyItsDocuments: with KBDomain the
// layer attaches documents of that top-level folder (and its learned
// documents) only, even when a better match lies in another folder.
func TestALayerLimitedToADomainAttachesOnlyItsDocuments(t *testing.T) {
	f := startedFixture(t, map[string]string{
		"家事/料理.md":          "# 料理メモ\n\nカレーの隠し味はチョコレート。\n",
		"仕事/料理.md":          "# 社食メモ\n\n社食のカレーの隠し味はコーヒー。\n",
		"_learned/仕事/x1.md": "# 学んだこと\n\nカレーの隠し味にはヨーグルトもある。\n",
		"root.md":           "# ルート\n\nカレー。\n",
	})
	ctx := context.Background()
	ds, err := f.svc.Domains(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"仕事", "家事"}; !slices.Equal(ds, want) {
		t.Fatalf("Domains = %q, want %q", ds, want)
	}
	paths := func(domain string) []string {
		bls, err := f.svc.Layer().Build(ctx, layer.Query{LatestUser: "カレーの隠し味は何？", Model: "openai/gpt-4o-mini", KBDomain: domain})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range bls {
			for _, it := range b.Items {
				out = append(out, it.ID)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := paths("家事"); !slices.Equal(got, []string{"家事/料理.md"}) {
		t.Errorf("domain 家事: %q", got)
	}
	if got := paths("仕事"); !slices.Equal(got, []string{"_learned/仕事/x1.md", "仕事/料理.md"}) {
		t.Errorf("domain 仕事: %q", got)
	}
	if got := paths(""); !slices.Contains(got, "家事/料理.md") || !slices.Contains(got, "仕事/料理.md") {
		t.Errorf("no domain: %q", got)
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`, "_learned", "x\x00"} {
		if ValidDomainName(bad) {
			t.Errorf("ValidDomainName(%q) = true", bad)
		}
	}
}
