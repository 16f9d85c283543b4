package notes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/tools"
)

func toolNamed(t *testing.T, svc *Service, name string) tools.Tool {
	t.Helper()
	for _, tl := range Tools(svc) {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return tools.Tool{}
}

func TestNotesToolsRegisterWithValidSchemas(t *testing.T) {
	svc, _ := openTest(t)
	ts := Tools(svc)
	if err := tools.NewRegistry().Register(ts...); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"read_note":  {"page_id", "title"},
		"write_note": {"mode", "page_id", "title", "content", "section"},
	}
	for _, tl := range ts {
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(tl.Parameters, &schema); err != nil || schema.Type != "object" {
			t.Fatalf("%s schema: %v", tl.Name, err)
		}
		if len(schema.Properties) != len(want[tl.Name]) {
			t.Errorf("%s has properties %v, want %v", tl.Name, schema.Properties, want[tl.Name])
		}
		for _, p := range want[tl.Name] {
			if _, ok := schema.Properties[p]; !ok {
				t.Errorf("%s lacks property %s", tl.Name, p)
			}
		}
	}
}

func TestReadNote(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	shop, _ := svc.Create(ctx, "買い物リスト", "牛乳\n卵", "家")
	empty, _ := svc.Create(ctx, "Empty", "", "")
	tl := toolNamed(t, svc, "read_note")
	tests := []struct {
		name   string
		args   string
		want   []string // parts of the result, or of the error
		err    bool
		detail string
	}{
		{"by id", fmt.Sprintf(`{"page_id": %d}`, shop.ID),
			[]string{"Title: 買い物リスト\nSection: 家\nPage id: 1\nLength: 4 characters\n", "\n\n牛乳\n卵"}, false, "買い物リスト"},
		{"by title, case-insensitive", `{"title": "empty"}`,
			[]string{"Title: Empty\nSection: (none)\nPage id: 2", "(the page is empty)"}, false, "empty"},
		{"id wins over title", fmt.Sprintf(`{"page_id": %d, "title": "x"}`, empty.ID), []string{"Title: Empty"}, false, "x"},
		{"neither", `{}`, []string{`give "page_id" or "title"`, "The 2 note pages are: [id 1] 買い物リスト, [id 2] Empty"}, true, ""},
		{"unknown id", `{"page_id": 99}`, []string{"no note page has id 99", "[id 1] 買い物リスト"}, true, "#99"},
		{"unknown title", `{"title": "日記"}`, []string{`no note page is titled "日記"`, "[id 2] Empty"}, true, "日記"},
		{"wrong type", `{"page_id": "1"}`, []string{"invalid arguments"}, true, ""},
		{"unknown field", `{"id": 1}`, []string{"invalid arguments", "unknown field"}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tl.Run(ctx, tools.Call{SessionID: "s", Args: json.RawMessage(tt.args)})
			got := res.Content
			if tt.err {
				if err == nil {
					t.Fatalf("no error; result %q", res.Content)
				}
				got = err.Error()
			} else if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Fatalf("%q does not contain %q", got, w)
				}
			}
			if res.NotesUpdated {
				t.Fatal("read_note reported NotesUpdated")
			}
			if d := tl.Detail(json.RawMessage(tt.args)); d != tt.detail {
				t.Fatalf("detail = %q, want %q", d, tt.detail)
			}
		})
	}
}

func TestReadNoteListsAtMost50Titles(t *testing.T) {
	svc, _ := openTest(t)
	for i := range 55 {
		if _, err := svc.Create(context.Background(), fmt.Sprintf("page %d", i), "", ""); err != nil {
			t.Fatal(err)
		}
	}
	_, err := toolNamed(t, svc, "read_note").Run(context.Background(), tools.Call{Args: json.RawMessage(`{"title":"?"}`)})
	wantErr(t, err, "The 55 note pages are", "[id 50] page 49, … and 5 more")
	if strings.Contains(err.Error(), "page 50") {
		t.Fatalf("listed more than 50: %v", err)
	}
}

func TestWriteNote(t *testing.T) {
	tests := []struct {
		name    string
		args    string
		result  string // part of the result, or of the error
		err     bool
		page    string // the page title to check afterwards
		content string
		section string
		layout  string
		detail  string
	}{
		{"append adds a line", `{"mode":"append","page_id":1,"content":"パン"}`,
			`Appended to note page [id 1] "買い物リスト" in section "家"; its content is now 7 characters.`, false,
			"買い物リスト", "牛乳\n卵\nパン", "家", "買い物リスト@家 Todo", "append → 買い物リスト"},
		{"append after a trailing newline adds none", `{"mode":"append","title":"todo","content":"- c"}`,
			`Appended to note page [id 2] "Todo"`, false, "Todo", "- a\n- b\n- c", "", "", "append → todo"},
		{"replace", `{"mode":"replace","title":"買い物リスト","content":"なし"}`,
			`Replaced the content of note page [id 1] "買い物リスト"`, false, "買い物リスト", "なし", "家", "", "replace → 買い物リスト"},
		{"replace with the page's own section", `{"mode":"replace","page_id":1,"content":"x","section":"家"}`,
			`Replaced the content of note page [id 1]`, false, "買い物リスト", "x", "家", "", "replace → 買い物リスト"},
		{"create in a section", `{"mode":"create","title":" 献立 ","content":"カレー","section":"家"}`,
			`Created note page [id 3] "献立" in section "家"; its content is now 3 characters.`, false,
			"献立", "カレー", "家", "買い物リスト@家 献立@家 Todo", "create → 献立"},
		{"create without a section", `{"mode":"create","title":"Diary","content":""}`,
			`Created note page [id 3] "Diary"; its content is now 0 characters.`, false, "Diary", "", "", "買い物リスト@家 Todo Diary", "create → Diary"},
		{"create with an existing title", `{"mode":"create","title":"Todo","content":"x"}`,
			`a note page titled "Todo" already exists (id 2); use mode "append" or "replace" with page_id 2`, true, "", "", "", "", "create → Todo"},
		{"create without a title", `{"mode":"create","content":"x"}`, `mode "create" needs a "title"`, true, "", "", "", "", "create → "},
		{"create with a page id", `{"mode":"create","page_id":1,"title":"x","content":"x"}`, `"page_id" is not used with mode "create"`, true, "", "", "", "", "create → x"},
		{"create with a bad title", `{"mode":"create","title":"` + strings.Repeat("a", 201) + `","content":"x"}`, "201 characters", true, "", "", "", "", ""},
		{"append to an unknown page", `{"mode":"append","page_id":9,"content":"x"}`, "no note page has id 9. The 2 note pages are: [id 1] 買い物リスト, [id 2] Todo", true, "", "", "", "", "append → #9"},
		{"append without a page", `{"mode":"append","content":"x"}`, `give "page_id" or "title"`, true, "", "", "", "", "append → "},
		{"append nothing", `{"mode":"append","page_id":1,"content":""}`, `"content" to append is empty`, true, "", "", "", "", "append → 買い物リスト"},
		{"move with section", `{"mode":"append","page_id":1,"content":"x","section":"仕事"}`, `"section" is only used with mode "create"`, true, "", "", "", "", "append → 買い物リスト"},
		{"unknown mode", `{"mode":"delete","page_id":1,"content":""}`, `mode must be "append", "replace" or "create", not "delete"`, true, "", "", "", "", "delete → 買い物リスト"},
		{"no content", `{"mode":"replace","page_id":1}`, `"content" is required`, true, "", "", "", "", "replace → 買い物リスト"},
		{"unknown field", `{"mode":"replace","page_id":1,"content":"x","text":"y"}`, `unknown field "text"`, true, "", "", "", "", "replace → 買い物リスト"},
		{"wrong type", `{"mode":"replace","page_id":1,"content":5}`, "invalid arguments", true, "", "", "", "", "replace → 買い物リスト"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, db := openTest(t)
			ctx := context.Background()
			if _, err := svc.Create(ctx, "買い物リスト", "牛乳\n卵", "家"); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Create(ctx, "Todo", "- a\n- b\n", ""); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, svc, db)
			tl := toolNamed(t, svc, "write_note")
			res, err := tl.Run(ctx, tools.Call{SessionID: "s", Args: json.RawMessage(tt.args)})
			if d := tl.Detail(json.RawMessage(tt.args)); tt.detail != "" && d != tt.detail {
				t.Errorf("detail = %q, want %q", d, tt.detail)
			}
			if tt.err {
				wantErr(t, err, tt.result)
				assertUnchanged(t, before, snapshot(t, svc, db))
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Content, tt.result) || !res.NotesUpdated {
				t.Fatalf("result = %+v, want %q and NotesUpdated", res, tt.result)
			}
			p, err := svc.FindByTitle(ctx, tt.page)
			if err != nil || p.Content != tt.content || p.Section != tt.section {
				t.Fatalf("page = %+v, %v; want content %q section %q", p, err, tt.content, tt.section)
			}
			if tt.layout != "" {
				if got := layout(t, svc); got != tt.layout {
					t.Fatalf("layout = %q, want %q", got, tt.layout)
				}
			}
		})
	}
}
