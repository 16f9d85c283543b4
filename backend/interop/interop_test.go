package interop

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/kb"
	"playchat/backend/store"
)

func ptr[T any](v T) *T { return &v }

func TestJapaneseQueriesFindJapaneseDocumentsAtTheAddressReadDocumentTakes(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	doms, err := f.s.ListKBDomains(ctx)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, d := range doms.Domains {
		names = append(names, d.Name)
	}
	// The folder existed, so it was not seeded with the user guide.
	if strings.Join(names, ",") != "rust,vue" || doms.RootDocuments != 0 || doms.Domains[0].Documents != 8 {
		t.Fatalf("domains = %+v", doms)
	}
	for _, tc := range []struct{ q, domain, want string }{
		{"所有権と借用", "", "rust/ch04-"},
		{"算出プロパティ", "", "vue/computed.md"},
		{"ハッシュマップ", "rust", "rust/ch08-03"},
		{"イベントハンドリング", "vue", "vue/event-handling.md"},
	} {
		out, err := f.s.QueryKB(ctx, QueryKBInput{Query: tc.q, Domain: tc.domain, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Hits) == 0 {
			t.Fatalf("%s: no hits", tc.q)
		}
		h := out.Hits[0]
		if !strings.HasPrefix(h.Domain+"/"+h.Path, tc.want) {
			t.Errorf("%s: best hit %s/%s, want %s…", tc.q, h.Domain, h.Path, tc.want)
		}
		for _, h := range out.Hits {
			if tc.domain != "" && h.Domain != tc.domain {
				t.Errorf("%s: hit %s/%s outside domain %s", tc.q, h.Domain, h.Path, tc.domain)
			}
			doc, err := f.s.ReadDocument(ctx, ReadDocumentInput{Domain: h.Domain, Path: h.Path})
			if err != nil {
				t.Fatalf("read_document on hit %+v: %v", h, err)
			}
			if doc.Title != h.Title || !strings.ContainsAny(doc.Content, "のはをに") {
				t.Errorf("read %s/%s: title %q (hit %q), content not Japanese", h.Domain, h.Path, doc.Title, h.Title)
			}
			d, p, err := ParseResourceURI(h.URI)
			if err != nil || d != h.Domain || p != h.Path {
				t.Errorf("URI %s reads back as %q %q (%v)", h.URI, d, p, err)
			}
		}
	}
	doc, err := f.s.ReadDocument(ctx, ReadDocumentInput{Domain: "vue", Path: "computed.md", MaxChars: 100})
	if err != nil || !doc.Truncated || len([]rune(doc.Content)) != 100 || doc.Chars <= 100 {
		t.Errorf("max_chars 100: truncated %v, %d chars of %d (%v)", doc.Truncated, len([]rune(doc.Content)), doc.Chars, err)
	}
}

func TestPathAttacksAreRefusedWithACodeAndNothingWritten(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("# secret\n\n秘密の文書"), 0o644); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink(outside, filepath.Join(f.kbDir, "vue", "link.md")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(outside), filepath.Join(f.kbDir, "escape")); err != nil {
			t.Fatal(err)
		}
	}
	before := tree(t, f.kbDir)
	reads := []ReadDocumentInput{
		{Domain: "..", Path: "secret.md"},
		{Domain: "vue", Path: "../../secret.md"},
		{Domain: "vue", Path: "../computed.md"},
		{Domain: "", Path: "/etc/passwd"},
		{Domain: "/etc", Path: "passwd"},
		{Domain: "vue", Path: `C:\Windows\win.ini`},
		{Domain: "vue", Path: `C:computed.md`},
		{Domain: "vue", Path: `sub\computed.md`},
		{Domain: `vue\..`, Path: "computed.md"},
		{Domain: "vue", Path: "computed.md\x00.txt"},
		{Domain: "vue\x00", Path: "computed.md"},
		{Domain: "vue", Path: "CON.md"},
		{Domain: "vue", Path: "nul"},
		{Domain: "COM1", Path: "x.md"},
		{Domain: "vue", Path: "a//computed.md"},
		{Domain: "vue", Path: "computed.md/"},
		{Domain: "vue", Path: ""},
		{Domain: "vue", Path: "./computed.md"},
		{Domain: "vue", Path: "computed.md."},
		{Domain: "vue", Path: "link.md"},
		{Domain: "escape", Path: "secret.md"},
		{Domain: "vue", Path: "computed.txt"},
	}
	for _, in := range reads {
		doc, err := f.s.ReadDocument(ctx, in)
		code := apperr.CodeOf(err)
		if err == nil || (code != apperr.InteropBadPath && code != apperr.InteropBadDomain && code != apperr.InteropNoDocument) {
			t.Errorf("read_document %q %q: err %v (code %q), content %q", in.Domain, in.Path, err, code, doc.Content)
		}
		if strings.Contains(doc.Content, "秘密") {
			t.Errorf("read_document %q %q read the file outside", in.Domain, in.Path)
		}
	}
	f.perms.set(Permissions{AllowWrite: true})
	for _, d := range []string{"", "..", ".", "a/b", `a\b`, "/abs", "C:", "x\x00", "CON", "con.md", "Lpt9", "a ", "a.", "a:b", "a*b", strings.Repeat("x", 300)} {
		_, err := f.s.AppendLearning(ctx, "test", AppendLearningInput{Domain: d, Content: "内容", SourceType: "conversation", Confidence: ptr(0.5)})
		if apperr.CodeOf(err) != apperr.InteropBadDomain {
			t.Errorf("append_learning domain %q: err %v, want %s", d, err, apperr.InteropBadDomain)
		}
	}
	if runtime.GOOS != "windows" {
		// _learned/evil is a symlink to a folder outside the root.
		if err := os.MkdirAll(filepath.Join(f.kbDir, kb.LearnedDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Dir(outside), filepath.Join(f.kbDir, kb.LearnedDir, "evil")); err != nil {
			t.Fatal(err)
		}
		before = tree(t, f.kbDir)
		if _, err := f.s.AppendLearning(ctx, "test", AppendLearningInput{Domain: "evil", Content: "内容", SourceType: "x", Confidence: ptr(0.5)}); err == nil {
			t.Error("append_learning through a symlinked domain folder succeeded")
		}
		entries, _ := os.ReadDir(filepath.Dir(outside))
		if len(entries) != 1 {
			t.Errorf("the folder outside holds %d entries after the refused write", len(entries))
		}
	}
	if after := tree(t, f.kbDir); after != before {
		t.Errorf("refused calls changed the knowledge base:\nbefore %s\nafter %s", before, after)
	}
}

func TestALearnedDocumentIsFoundByQueryKBAtOnceAndDeduplicated(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	in := AppendLearningInput{Domain: "vue", Title: "リアクティブな配列の注意点", SourceType: "conversation", SourceID: "chat-42",
		Confidence: ptr(0.8), DerivedFrom: []string{"vue/list.md", "vue/reactivity-fundamentals.md"},
		Content: "配列を置き換えるとき、ペンギン式置換法を使うとリアクティビティが保たれる。"}
	if _, err := f.s.AppendLearning(ctx, "claude-desktop", in); apperr.CodeOf(err) != apperr.InteropWriteNotAllowed {
		t.Fatalf("append_learning without permission: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.kbDir, kb.LearnedDir)); !os.IsNotExist(err) {
		t.Fatalf("a refused append_learning created %s (%v)", kb.LearnedDir, err)
	}
	f.perms.set(Permissions{AllowWrite: true})
	start := time.Now()
	l, err := f.s.AppendLearning(ctx, "claude-desktop", in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.s.QueryKB(ctx, QueryKBInput{Query: "ペンギン式置換法"})
	if took := time.Since(start); took > time.Second {
		t.Errorf("write + search took %v, want < 1 s", took)
	}
	if err != nil || len(out.Hits) == 0 || out.Hits[0].Domain != l.Domain || out.Hits[0].Path != l.Path || !out.Hits[0].Learned {
		t.Fatalf("query_kb after append_learning: %+v (%v), want %s/%s first", out.Hits, err, l.Domain, l.Path)
	}
	if l.Domain != kb.LearnedDir || !strings.HasPrefix(l.Path, "vue/") || l.Existing {
		t.Errorf("learning = %+v", l)
	}
	doc, err := f.s.ReadDocument(ctx, ReadDocumentInput{Domain: l.Domain, Path: l.Path})
	if err != nil || doc.Learned == nil {
		t.Fatalf("read learned: %+v, %v", doc, err)
	}
	p := doc.Learned.Provenance
	if p.Client != "claude-desktop" || p.SourceType != "conversation" || p.SourceID != "chat-42" || p.Confidence != 0.8 ||
		len(p.DerivedFrom) != 2 || p.ID != l.ID || p.CreatedAt.IsZero() || p.ContentHash != l.ContentHash || doc.Learned.Edited {
		t.Errorf("provenance = %+v", doc.Learned)
	}
	again, err := f.s.AppendLearning(ctx, "other-client", in)
	if err != nil || again.ID != l.ID || !again.Existing {
		t.Errorf("same content again: %+v (%v), want id %s existing", again, err, l.ID)
	}
	// The user edits the document: it is never overwritten.
	file := filepath.Join(f.kbDir, kb.LearnedDir, "vue", l.ID+".md")
	raw, _ := os.ReadFile(file)
	edited := strings.Replace(string(raw), "ペンギン式置換法", "ペンギン式置換法（ユーザーが訂正）", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := f.s.AppendLearning(ctx, "x", in)
	if err != nil || third.ID != l.ID || !third.Edited {
		t.Errorf("after the user's edit: %+v (%v)", third, err)
	}
	if now, _ := os.ReadFile(file); string(now) != edited {
		t.Error("the edited learned document was overwritten")
	}
	li, err := f.c.KB.Learned(ctx, kb.LearnedDir+"/vue/"+l.ID+".md")
	if err != nil || !li.Edited {
		t.Errorf("kb.Learned after the edit: %+v, %v", li, err)
	}
	if _, err := f.c.KB.Learned(ctx, "vue/computed.md"); apperr.CodeOf(err) != apperr.KBNotLearned {
		t.Errorf("kb.Learned on an ordinary document: %v", err)
	}
	// Different content: a new id.
	in.Content = "別の学び。"
	other, err := f.s.AppendLearning(ctx, "x", in)
	if err != nil || other.ID == l.ID || other.Existing {
		t.Errorf("new content: %+v (%v)", other, err)
	}
}

func TestBadLearningArgumentsAreRefusedAndNothingWritten(t *testing.T) {
	f := newFixture(t)
	f.perms.set(Permissions{AllowWrite: true})
	ctx := context.Background()
	ok := AppendLearningInput{Domain: "vue", Content: "内容", SourceType: "conversation", Confidence: ptr(0.5)}
	for name, mut := range map[string]func(*AppendLearningInput){
		"empty content":     func(in *AppendLearningInput) { in.Content = "  \n" },
		"NUL content":       func(in *AppendLearningInput) { in.Content = "a\x00b" },
		"huge content":      func(in *AppendLearningInput) { in.Content = strings.Repeat("あ", MaxLearningBytes) },
		"no confidence":     func(in *AppendLearningInput) { in.Confidence = nil },
		"confidence 1.5":    func(in *AppendLearningInput) { in.Confidence = ptr(1.5) },
		"confidence -0.1":   func(in *AppendLearningInput) { in.Confidence = ptr(-0.1) },
		"no source_type":    func(in *AppendLearningInput) { in.SourceType = "" },
		"two-line title":    func(in *AppendLearningInput) { in.Title = "a\nb" },
		"two-line derived":  func(in *AppendLearningInput) { in.DerivedFrom = []string{"a\nb"} },
		"long source_id":    func(in *AppendLearningInput) { in.SourceID = strings.Repeat("x", 501) },
		"too many derived":  func(in *AppendLearningInput) { in.DerivedFrom = make([]string, MaxDerivedFrom+1) },
		"control in source": func(in *AppendLearningInput) { in.SourceType = "a\x1bb" },
	} {
		in := ok
		mut(&in)
		if _, err := f.s.AppendLearning(ctx, "x", in); apperr.CodeOf(err) != apperr.InteropBadArgument {
			t.Errorf("%s: %v, want %s", name, err, apperr.InteropBadArgument)
		}
	}
	if _, err := os.Stat(filepath.Join(f.kbDir, kb.LearnedDir)); !os.IsNotExist(err) {
		t.Errorf("refused learnings created %s", kb.LearnedDir)
	}
}

func TestNotesAreHiddenUnlessSharedAndWritesRefusedUnlessAllowed(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.c.Notes.Create(ctx, "買い物", "牛乳", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.ListNotes(ctx); apperr.CodeOf(err) != apperr.InteropNotesNotShared {
		t.Errorf("list_notes not shared: %v", err)
	}
	if _, err := f.s.ReadNote(ctx, ReadNoteInput{Title: "買い物"}); apperr.CodeOf(err) != apperr.InteropNotesNotShared {
		t.Errorf("read_note not shared: %v", err)
	}
	f.perms.set(Permissions{ShareNotes: true})
	list, err := f.s.ListNotes(ctx)
	if err != nil || len(list.Pages) != 1 || list.Pages[0].Preview != "牛乳" {
		t.Fatalf("list_notes shared: %+v, %v", list, err)
	}
	if _, err := f.s.WriteNote(ctx, WriteNoteInput{Mode: "append", PageID: list.Pages[0].ID, Content: "卵"}); apperr.CodeOf(err) != apperr.InteropWriteNotAllowed {
		t.Errorf("write_note without write permission: %v", err)
	}
	f.perms.set(Permissions{AllowWrite: true})
	if _, err := f.s.WriteNote(ctx, WriteNoteInput{Mode: "append", PageID: list.Pages[0].ID, Content: "卵"}); apperr.CodeOf(err) != apperr.InteropNotesNotShared {
		t.Errorf("write_note with write permission but notes not shared: %v", err)
	}
	f.perms.set(Permissions{AllowWrite: true, ShareNotes: true})
	n, err := f.s.WriteNote(ctx, WriteNoteInput{Mode: "append", PageID: list.Pages[0].ID, Content: "卵"})
	if err != nil || n.Content != "牛乳\n卵" {
		t.Errorf("write_note append: %+v, %v", n, err)
	}
	if _, err := f.s.ReadNote(ctx, ReadNoteInput{PageID: 999}); apperr.CodeOf(err) != apperr.InteropNoNote {
		t.Errorf("read_note unknown: %v", err)
	}
	if _, err := f.s.WriteNote(ctx, WriteNoteInput{Mode: "delete", Content: "x"}); apperr.CodeOf(err) != apperr.InteropBadArgument {
		t.Errorf("write_note bad mode: %v", err)
	}
	if n, _ := f.c.Notes.Get(ctx, list.Pages[0].ID); n.Content != "牛乳\n卵" {
		t.Errorf("refused writes changed the page: %q", n.Content)
	}
}

func TestSearchMemoryMatchesWholeWordsOnly(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sess, err := f.c.DB.CreateSession(ctx, "旅行の相談", "openai/x")
	if err != nil {
		t.Fatal(err)
	}
	m := &store.Message{SessionID: sess.ID, Role: "user", Content: "京都に行きたい"}
	if err := f.c.DB.InsertMessage(ctx, m); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.DB.ArchiveIntoMemory(ctx, sess.ID, []int64{m.ID}, "The other day the user planned a trip to 京都 in autumn."); err != nil {
		t.Fatal(err)
	}
	got, err := f.s.SearchMemory(ctx, SearchMemoryInput{Query: "京都の旅行"})
	if err != nil || len(got.Memories) != 1 || got.Memories[0].SessionTitle != "旅行の相談" {
		t.Fatalf("search_memory 京都: %+v, %v", got, err)
	}
	if got, _ := f.s.SearchMemory(ctx, SearchMemoryInput{Query: "her"}); len(got.Memories) != 0 {
		t.Errorf(`"her" matched inside "other": %+v`, got)
	}
	if _, err := f.s.SearchMemory(ctx, SearchMemoryInput{Query: "京都", SessionID: "nope"}); apperr.CodeOf(err) != apperr.InteropNoSession {
		t.Errorf("unknown session: %v", err)
	}
	chats, err := f.s.SearchChats(ctx, SearchChatsInput{Query: "京都"})
	if err != nil || len(chats.Hits) != 1 || chats.Hits[0].SessionID != sess.ID || !strings.Contains(chats.Hits[0].Excerpt, "«京都»") {
		t.Errorf("search_chats: %+v, %v", chats, err)
	}
}
