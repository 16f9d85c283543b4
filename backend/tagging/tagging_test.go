package tagging

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/jatext"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/internal/testcorpus"
)

type fixture struct {
	db  *store.DB
	srv *llmtest.Server
	llm *llm.Client

	mu      sync.Mutex
	updates []Update
	got     chan Update
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv := llmtest.NewServer(t)
	// One attempt per request: a failure reaches the tagger's own retry.
	c := llm.New(llm.Providers{OpenAIBaseURL: srv.URL}, llm.WithRetry(1, time.Millisecond))
	return &fixture{db: db, srv: srv, llm: c, got: make(chan Update, 100)}
}

// service returns a started tagger on the fixture; it stops at cleanup.
func (f *fixture) service(t *testing.T, o Options) *Service {
	t.Helper()
	o.DB, o.LLM = f.db, f.llm
	if o.Settings == nil {
		o.Settings = func() Settings { return Settings{Enabled: true, Model: "openai/fake-tagger"} }
	}
	s := New(o)
	s.OnTags(func(u Update) {
		f.mu.Lock()
		f.updates = append(f.updates, u)
		f.mu.Unlock()
		f.got <- u
	})
	s.Start(context.Background())
	t.Cleanup(s.Stop)
	return s
}

// wait returns the next n tag updates (60 s at most: a hang fails).
func (f *fixture) wait(t *testing.T, n int) []Update {
	t.Helper()
	var out []Update
	for len(out) < n {
		select {
		case u := <-f.got:
			out = append(out, u)
		case <-time.After(60 * time.Second):
			t.Fatalf("got %d tag updates, want %d", len(out), n)
		}
	}
	return out
}

// eventually polls cond (60 s at most: a hang fails).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (f *fixture) tags(t *testing.T, id int64) []string {
	t.Helper()
	m, err := f.db.MessageTags(context.Background(), []int64{id})
	if err != nil {
		t.Fatal(err)
	}
	return m[id]
}

func TestMarkerIsTheFakeModelsMarker(t *testing.T) {
	if Marker != llmtest.TagMarker || !strings.Contains(tagPrompt, Marker) {
		t.Fatalf("the tagging prompt does not carry llmtest.TagMarker %q", llmtest.TagMarker)
	}
}

// A chat turn ends with done while its tagging is still held by the model;
// then the worker tags the question and the reply one request at a time
// (the reply waits in the queue while the question's request is in
// flight), 3 tags each, announced by updates; the turn's scripted reply is
// the only request the script saw.
func TestTurnMessagesAreTaggedAfterDoneOneAtATime(t *testing.T) {
	f := newFixture(t)
	f.srv.HoldTagRequests()
	tagger := f.service(t, Options{Backlog: -1})
	f.srv.Enqueue(llmtest.Response{Reply: "紅葉の名所なら京都の嵐山がおすすめです。"}, llmtest.Response{Reply: "unused"})
	chatSvc := chat.New(chat.Options{DB: f.db, LLM: f.llm, AfterDone: tagger.Enqueue,
		Settings: func() chat.Settings { return chat.Settings{DefaultModel: "openai/fake-chat"} }})
	var mu sync.Mutex
	var events []event.Type
	em := event.EmitterFunc(func(e event.Event) { mu.Lock(); events = append(events, e.Type); mu.Unlock() })
	turn, err := chatSvc.Start(context.Background(), chat.TurnRequest{Text: "秋に紅葉を見に行きたい"}, em)
	if err != nil {
		t.Fatal(err)
	}
	res := turn.Wait()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	mu.Lock()
	last := events[len(events)-1]
	mu.Unlock()
	if last != event.Done {
		t.Fatalf("turn events %v do not end with done", events)
	}
	// Done came while the tagging request is held: nothing is tagged yet,
	// one request is in flight and the reply (and the memory look) wait.
	eventually(t, "the question's tag request in flight, the rest queued", func() bool {
		now, _ := f.srv.TagsInFlight()
		return now == 1 && tagger.Pending() == 2
	})
	if n := len(f.srv.TagRequests()); n != 1 {
		t.Fatalf("tag requests while the first is held = %d, want 1", n)
	}
	if got := f.tags(t, turn.UserMessage.ID); len(got) != 0 {
		t.Fatalf("question tagged before the model answered: %v", got)
	}
	f.srv.ReleaseTagRequest()
	f.srv.ReleaseTagRequest()
	ups := f.wait(t, 2)
	if ups[0].MessageID != turn.UserMessage.ID || ups[1].MessageID != res.Reply.ID {
		t.Fatalf("updates %+v, want the question %d then the reply %d", ups, turn.UserMessage.ID, res.Reply.ID)
	}
	for _, m := range []store.Message{turn.UserMessage, res.Reply} {
		want := llmtest.FakeTags(m.Content)
		if got := f.tags(t, m.ID); !reflect.DeepEqual(got, want) {
			t.Errorf("tags of %q = %v, want %v", m.Content, got, want)
		}
	}
	if _, most := f.srv.TagsInFlight(); most != 1 {
		t.Errorf("at most %d tag requests were in flight at once, want 1", most)
	}
	if f.srv.Pending() != 1 || len(f.srv.ChatRequests()) != 1 {
		t.Errorf("script left %d, turn requests %d; want tagging to leave the script alone (1, 1)",
			f.srv.Pending(), len(f.srv.ChatRequests()))
	}
	for _, r := range f.srv.TagRequests() {
		if r.Model != "fake-tagger" {
			t.Errorf("tagged with model %q, want SUMMARY_MODEL's fake-tagger", r.Model)
		}
	}
}

// Messages left untagged (the model was down, the CLI wrote them) are
// found at start, newest first; a failing request is tried again later and
// the message still gets its tags.
func TestUntaggedMessagesAreFoundAtStartAndRetriedAfterAFailure(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sess, _ := f.db.CreateSession(ctx, "", "openai/fake-chat")
	var ids []int64
	for _, text := range []string{"Rust の所有権について", "Go の並行処理は goroutine で書く"} {
		m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: text}
		if err := f.db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	f.srv.FailTagRequests(1)
	f.service(t, Options{RetryBase: time.Millisecond,
		Settings: func() Settings { return Settings{Enabled: true} }}) // no SUMMARY_MODEL: the session's
	ups := f.wait(t, 2)
	if ups[0].MessageID != ids[0] || ups[1].MessageID != ids[1] {
		t.Fatalf("updates %+v: want the newest message (failed once) tagged after the older one", ups)
	}
	reqs := f.srv.TagRequests()
	if len(reqs) != 3 || reqs[0].LastUserMessage() != reqs[2].LastUserMessage() {
		t.Fatalf("tag requests = %d, want 3: the failed one, the older message, the failed one again", len(reqs))
	}
	if reqs[0].Model != "fake-chat" {
		t.Errorf("tagged with %q, want the session's model fake-chat", reqs[0].Model)
	}
	for _, id := range ids {
		if got := f.tags(t, id); len(got) != 3 {
			t.Errorf("message %d tags = %v, want 3", id, got)
		}
	}
}

// With AUTO_TAGS off nothing is asked of the model.
func TestDisabledTaggingSendsNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	sess, _ := f.db.CreateSession(ctx, "", "openai/fake-chat")
	m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "富士山に登った"}
	if err := f.db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	tagger := f.service(t, Options{Backlog: -1, Settings: func() Settings { return Settings{} }})
	tagger.Enqueue(sess.ID, []int64{m.ID})
	eventually(t, "the queue to drain", func() bool { return tagger.Pending() == 0 })
	tagger.Stop() // waits for the item being handled
	if n := len(f.srv.TagRequests()); n != 0 {
		t.Fatalf("tag requests with AUTO_TAGS off = %d, want 0", n)
	}
}

// A memory the summariser wrote is tagged after the session's next turn.
func TestMemoriesOfTheSessionAreTagged(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tagger := f.service(t, Options{Backlog: -1})
	sess, _ := f.db.CreateSession(ctx, "", "openai/fake-chat")
	m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "猫を飼い始めた"}
	if err := f.db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	mem, err := f.db.ArchiveIntoMemory(ctx, sess.ID, []int64{m.ID}, "ユーザーは猫を飼い始めた")
	if err != nil {
		t.Fatal(err)
	}
	tagger.Enqueue(sess.ID, nil)
	u := f.wait(t, 1)[0]
	if u.MemoryID != mem.ID || len(u.Tags) != 3 {
		t.Fatalf("update %+v, want 3 tags on memory %d", u, mem.ID)
	}
	got, _ := f.db.MemoryTags(ctx, []int64{mem.ID})
	if !reflect.DeepEqual(got[mem.ID], llmtest.FakeTags(mem.Summary)) {
		t.Fatalf("memory tags = %v, want %v", got[mem.ID], llmtest.FakeTags(mem.Summary))
	}
}

func TestParseReadsTagsLeniently(t *testing.T) {
	for in, want := range map[string][]string{
		`{"tags":["天気","雨","傘"]}`:                                        {"天気", "雨", "傘"},
		"```json\n{\"tags\": [\"#Go\", \" go \", \"並行処理\", \"x\"]}\n```": {"Go", "並行処理", "x"},
		`Here you go: ["ｶﾀｶﾅ", "ＡＢＣ"]`:                                   {"カタカナ", "ABC"},
		"1. 紅葉\n2. 京都\n- 旅行":                                             {"紅葉", "京都", "旅行"},
		"料理、レシピ、カレー":                                                     {"料理", "レシピ", "カレー"},
		`{"tags":["とてもとてもとても長い長い長い長いタグの名前です"]}`:                          {"とてもとてもとても長い長い長い長いタグの"},
		`{"oops": 1}`: nil,
		"":            nil,
		// Prose is not tags (issue 22).
		"FAKE: こんにちは":                                      nil,
		"fake reply: hello from the e2e test":              nil,
		"こんにちは！今日はどうしましたか？":                                nil,
		"The message is about the weather in Tokyo today.": nil,
		"天気": nil,
	} {
		if got := Parse(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Parse(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWordPoolKeepsTheLast200(t *testing.T) {
	p := NewWordPool(PoolSize)
	for i := range 250 {
		p.Add(strings.Repeat("語", 1+i%3) + string(rune('a'+i%26)))
	}
	w := p.Words()
	if len(w) != PoolSize || p.Len() != PoolSize {
		t.Fatalf("pool holds %d, want %d", len(w), PoolSize)
	}
	if w[0] != strings.Repeat("語", 1+50%3)+string(rune('a'+50%26)) || w[199] != strings.Repeat("語", 1+249%3)+string(rune('a'+249%26)) {
		t.Fatalf("pool = %q … %q, want words 50 … 249", w[0], w[199])
	}
}

// corpusParagraphs returns the prose paragraphs of a real Japanese document.
func corpusParagraphs(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "vue-docs-ja", "src", "guide", "essentials", "computed.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range strings.Split(string(b), "\n\n") {
		p = strings.TrimSpace(p)
		if p != "" && !strings.HasPrefix(p, "```") && !strings.HasPrefix(p, "<") {
			out = append(out, p)
		}
	}
	return out
}

// Reseeding reads the newest 200 messages (of real Japanese prose), oldest
// first, and keeps their last 200 nouns: what the pool would hold had it
// seen them live.
func TestReseedKeepsTheLastNounsOfTheNewestMessages(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	paras := corpusParagraphs(t)
	sess, _ := f.db.CreateSession(ctx, "", "")
	var texts []string
	for i := range 230 {
		text := paras[i%len(paras)]
		m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: text}
		if err := f.db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		texts = append(texts, text)
	}
	var all []string
	for _, text := range texts[len(texts)-PoolSize:] {
		n, err := jatext.Nouns(text)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, n...)
	}
	if len(all) <= PoolSize {
		t.Fatalf("the corpus gave only %d nouns; the test needs more than %d", len(all), PoolSize)
	}
	// Another chat's messages, newer still, are not read.
	other, _ := f.db.CreateSession(ctx, "", "")
	if err := f.db.InsertMessage(ctx, &store.Message{SessionID: other.ID, Role: store.RoleUser, Content: "秘密の合言葉"}); err != nil {
		t.Fatal(err)
	}
	p := NewWordPool(PoolSize)
	p.Add("古い単語")
	if err := p.Reseed(ctx, f.db, []string{sess.ID}); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Words(), all[len(all)-PoolSize:]; !reflect.DeepEqual(got, want) {
		t.Fatalf("reseeded pool (%d) differs from the last %d nouns of the newest messages:\n got %q\nwant %q",
			len(got), PoolSize, got[:5], want[:5])
	}
}

// RelatedTag prefers the tag whose message shares the text's nouns, the
// newest on a tie; an empty text uses the recent talk (the pool) — of the
// given chats only.
func TestRelatedTagFollowsTheTextOrTheRecentTalk(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tagger := New(Options{DB: f.db, LLM: f.llm})
	sess, _ := f.db.CreateSession(ctx, "", "")
	if tag, err := tagger.RelatedTag(ctx, "", []string{sess.ID}); err != nil || tag != "" {
		t.Fatalf("RelatedTag with nothing at all = %q, %v; want \"\"", tag, err)
	}
	add := func(text string, tags ...string) {
		m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: text}
		if err := f.db.InsertMessage(ctx, &m); err != nil {
			t.Fatal(err)
		}
		if err := f.db.AddMessageTags(ctx, m.ID, tags); err != nil {
			t.Fatal(err)
		}
	}
	add("京都の紅葉を見に行った", "旅行", "京都", "紅葉")
	add("カレーにチョコレートを入れる", "料理", "カレー", "隠し味")
	add("大阪でたこ焼きを食べた", "旅行", "大阪", "グルメ")
	for text, want := range map[string]string{
		"来週は京都へ行く":  "京都", // shares 京都 (a tag itself)
		"チョコレートが好き": "料理", // shares a word of the content only: its first tag
		"宇宙の話をしよう":  "京都", // nothing in common: the recent talk decides (京都 and 紅葉, tags both)
	} {
		if got, err := tagger.RelatedTag(ctx, text, []string{sess.ID}); err != nil || got != want {
			t.Errorf("RelatedTag(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
	// Another chat, whose recent talk is of spices and curry.
	other, _ := f.db.CreateSession(ctx, "", "")
	m := store.Message{SessionID: other.ID, Role: store.RoleUser, Content: "カレーの隠し味"}
	_ = f.db.InsertMessage(ctx, &m)
	_ = f.db.AddMessageTags(ctx, m.ID, []string{"料理", "カレー"})
	if err := f.db.InsertMessage(ctx, &store.Message{SessionID: other.ID, Role: store.RoleUser, Content: "スパイスとカレー"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := tagger.RelatedTag(ctx, "", []string{other.ID}); got != "カレー" {
		t.Errorf("RelatedTag of the recent talk (スパイス, カレー) = %q, want カレー", got)
	}
}

// Issue 21: a tip posted to a shared Discord server took its topic from the
// tag of a private desktop chat. RelatedTag reads only the chats it is
// given: another chat's tags, words and recent talk never come out.
func TestRelatedTagNeverReadsAnotherChat(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tagger := New(Options{DB: f.db, LLM: f.llm})
	private, _ := f.db.CreateSession(ctx, "", "")
	m := store.Message{SessionID: private.ID, Role: store.RoleUser, Content: "極秘プロジェクト紫陽花の予算"}
	if err := f.db.InsertMessage(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if err := f.db.AddMessageTags(ctx, m.ID, []string{"紫陽花計画", "予算"}); err != nil {
		t.Fatal(err)
	}
	channel, _ := f.db.CreateSession(ctx, "", "")
	for _, scope := range [][]string{nil, {}, {channel.ID}} {
		for _, text := range []string{"", "予算の話", "紫陽花"} {
			got, err := tagger.RelatedTag(ctx, text, scope)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(got, "紫陽花計画") || (text == "" && got != "") {
				t.Errorf("RelatedTag(%q, %v) = %q: it read the private chat", text, scope, got)
			}
		}
	}
}

// A tip is written on the related tag with WEATHER_NOTIFY_MODEL's model.
func TestTipIsWrittenOnTheRelatedTag(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	tagger := New(Options{DB: f.db, LLM: f.llm})
	sess, _ := f.db.CreateSession(ctx, "", "")
	m := store.Message{SessionID: sess.ID, Role: store.RoleUser, Content: "カレーの隠し味"}
	_ = f.db.InsertMessage(ctx, &m)
	_ = f.db.AddMessageTags(ctx, m.ID, []string{"カレー", "料理", "隠し味"})
	f.srv.Enqueue(llmtest.Response{Reply: "  カレーは一晩置くと味がなじむと言われます。 "})
	tips := Tips{LLM: f.llm, Tags: tagger, Model: func() string { return "openai/fake-notify" }}
	tip, err := tips.Tip(ctx, "カレーを作った", []string{sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	if tip != "カレーは一晩置くと味がなじむと言われます。" {
		t.Fatalf("tip = %q", tip)
	}
	req := f.srv.ChatRequests()[0]
	if req.Model != "fake-notify" || req.LastUserMessage() != "話題: カレー" {
		t.Fatalf("tip request model %q, user %q; want fake-notify and 話題: カレー", req.Model, req.LastUserMessage())
	}
	if _, err := (Tips{LLM: f.llm, Model: func() string { return "" }}).Tip(ctx, "", nil); err != ErrNoModel {
		t.Fatalf("tip without a model = %v, want ErrNoModel", err)
	}
}
