package interop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/kb"
	"playchat/backend/memory"
)

// With MEMORY_MIRROR_LEARNED on, a new memory becomes a learned document in
// _learned/memory/ that names its session and summarised messages and is
// found at once; off (the default), nothing is written; a write that
// cannot happen is logged and the hook returns (the summary stands).
func TestMirroredMemoriesBecomeLearnedDocuments(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	on := false
	hook := f.s.MirrorMemories(func() bool { return on })
	a := memory.Archived{SessionID: "sess-1", MemoryID: 7, MessageIDs: []int64{11, 12, 13},
		Summary: "ユーザーはフクロウ式ソートの安定性について尋ね、安定だと確認した。"}
	hook(ctx, a)
	if _, err := os.Stat(filepath.Join(f.kbDir, kb.LearnedDir)); !os.IsNotExist(err) {
		t.Fatalf("the mirror wrote while off (%v)", err)
	}
	on = true
	hook(ctx, a)
	out, err := f.s.QueryKB(ctx, QueryKBInput{Query: "フクロウ式ソート"})
	if err != nil || len(out.Hits) == 0 || !out.Hits[0].Learned || !strings.HasPrefix(out.Hits[0].Path, MemoryDomain+"/") {
		t.Fatalf("query_kb after the mirror: %+v %v", out.Hits, err)
	}
	doc, err := f.s.ReadDocument(ctx, ReadDocumentInput{Domain: out.Hits[0].Domain, Path: out.Hits[0].Path})
	if err != nil || doc.Learned == nil {
		t.Fatalf("read: %+v %v", doc, err)
	}
	p := doc.Learned.Provenance
	if p.SourceType != "memory" || p.SourceID != "sess-1" || p.Client != "playchat" ||
		strings.Join(p.DerivedFrom, ",") != "message:11,message:12,message:13" {
		t.Fatalf("provenance %+v", p)
	}
	// The same memory again (a retried job): still one document.
	hook(ctx, a)
	ents, _ := os.ReadDir(filepath.Join(f.kbDir, kb.LearnedDir, MemoryDomain))
	if len(ents) != 1 {
		t.Fatalf("%d documents after mirroring the same memory twice", len(ents))
	}
	// A knowledge base that cannot take the file: the hook only logs.
	blocked := newFixture(t)
	if err := os.WriteFile(filepath.Join(blocked.kbDir, kb.LearnedDir), []byte("a file, not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	blocked.s.MirrorMemories(func() bool { return true })(ctx, a)
	if b, _ := os.ReadFile(filepath.Join(blocked.kbDir, kb.LearnedDir)); string(b) != "a file, not a folder" {
		t.Fatal("the failed mirror changed the blocking file")
	}
}
