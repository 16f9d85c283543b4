package kb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/layer"
	"playchat/backend/llm/llmtest"
)

// The context meter: layer 3 names the documents it sends and those it left
// out — cut to their best sections, or matched below LOCAL_KB_TOP_K.
func TestTheKBLayerNamesItsDocumentsAndWhatItLeftOut(t *testing.T) {
	f := newFixture(t, "")
	var b strings.Builder
	b.WriteString("# 旅行の手引き\n")
	for _, topic := range []string{"持ち物", "両替", "パスポートの更新", "空港までの移動", "ホテルの予約"} {
		b.WriteString("\n## " + topic + "\n\n")
		b.WriteString(strings.Repeat(topic+"についての詳しい説明が続きます。", 40))
		b.WriteString("\n")
	}
	writeFile(t, filepath.Join(f.dir, "travel.md"), b.String())
	writeFile(t, filepath.Join(f.dir, "memo/passport.md"), "# パスポート\n\nパスポートの更新は区役所ではなく旅券窓口で。\n")
	f.set.update(func(s *Settings) { s.TokenBudget = 900 })
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	q := layer.Query{LatestUser: "パスポートの更新はどうすればいい？", Model: "openai/gpt-4o-mini"}
	bls, err := f.svc.Layer().Build(ctx, q)
	if err != nil || len(bls) != 1 {
		t.Fatalf("blocks = %d, err %v", len(bls), err)
	}
	bl := bls[0]
	paths := map[string]int{}
	for _, it := range bl.Items {
		if it.Kind != layer.KindKBDoc || !strings.HasPrefix(bl.Text[it.Start:], "\n\n### ") {
			t.Fatalf("item %+v does not start at its document's heading", it)
		}
		paths[it.ID] = it.Start
	}
	if _, ok := paths["travel.md"]; !ok || len(paths) != 2 {
		t.Fatalf("items = %+v", bl.Items)
	}
	var sections *layer.Omission
	for i, o := range bl.LeftOut {
		if o.ID == "travel.md" && o.Reason == layer.ReasonSections {
			sections = &bl.LeftOut[i]
		}
	}
	if sections == nil || sections.Kept <= 0 || sections.Kept >= sections.Total || sections.Unit != layer.UnitTokens {
		t.Fatalf("travel.md not reported as cut to its best sections: %+v", bl.LeftOut)
	}

	f.set.update(func(s *Settings) { s.TopK = 1 })
	bls, _ = f.svc.Layer().Build(ctx, q)
	if len(bls) != 1 || len(bls[0].Items) != 1 {
		t.Fatalf("TopK 1: items %+v", bls)
	}
	sent := bls[0].Items[0].ID
	var topK []string
	for _, o := range bls[0].LeftOut {
		if o.Reason == layer.ReasonTopK {
			topK = append(topK, o.ID)
		}
	}
	if len(topK) != 1 || topK[0] == sent {
		t.Fatalf("sent %s; left out by top k: %v", sent, topK)
	}
}

// A preview (the context meter as the user types) embeds nothing: only the
// lexical side retrieves, so a purely semantic match is not in it, while
// the real turn's layer finds it.
func TestALayerPreviewMakesNoEmbeddingRequest(t *testing.T) {
	client, srv := fakeEmbedder(t, llmtest.WithEmbedFunc(func(_, in string) []float32 {
		v := make([]float32, 256)
		if strings.Contains(in, "ネコ") || strings.Contains(in, "キャット") {
			v[0] = 1
		} else {
			v[1] = 1
		}
		return v
	}))
	f := newFixture(t, "", withEmbedder(client, fakeModel))
	writeFile(t, filepath.Join(f.dir, "pets.md"), "# ペット\n\nうちのネコは魚が好き。\n")
	writeFile(t, filepath.Join(f.dir, "car.md"), "# 車\n\nタイヤ交換の記録。\n")
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.EmbedPending(ctx); err != nil {
		t.Fatal(err)
	}
	before := srv.RequestCount("/embeddings")
	if before == 0 {
		t.Fatal("the documents' embeddings were not requested at /embeddings")
	}
	q := layer.Query{LatestUser: "キャットフードのおすすめは？", Model: "openai/gpt-4o-mini", Preview: true}
	bls, err := f.svc.Layer().Build(ctx, q)
	if err != nil || len(bls) != 0 {
		t.Fatalf("preview blocks = %+v, err %v; want none (no shared word, no embedding)", bls, err)
	}
	if n := srv.RequestCount("/embeddings"); n != before {
		t.Fatalf("the preview made %d embedding requests", n-before)
	}
	q.Preview = false
	if bls, _ = f.svc.Layer().Build(ctx, q); len(bls) != 1 || len(bls[0].Items) != 1 || bls[0].Items[0].ID != "pets.md" {
		t.Fatalf("turn blocks = %+v, want pets.md by its embedding", bls)
	}
}
