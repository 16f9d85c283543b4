package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"
)

const tagBody = `{"model":"fake-chat","messages":[{"role":"system","content":"playchat:tags — tag this"},{"role":"user","content":"京都で紅葉を見た"}]}`

// A tagging request is answered with FakeTags of its text and leaves the
// scripted replies and the recorded turn requests alone.
func TestTagRequestsAreAnsweredApartFromTheScript(t *testing.T) {
	s := NewServer(t)
	s.Enqueue(Response{Reply: "scripted"})
	resp := post(t, s, tagBody)
	var out struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) != 1 {
		t.Fatalf("decode tag reply: %v %+v", err, out)
	}
	var tags struct{ Tags []string }
	if err := json.Unmarshal([]byte(out.Choices[0].Message.Content), &tags); err != nil {
		t.Fatalf("tag reply %q is not JSON: %v", out.Choices[0].Message.Content, err)
	}
	if want := []string{"京都", "紅葉", "tag1"}; !reflect.DeepEqual(tags.Tags, want) {
		t.Fatalf("tags = %v, want %v", tags.Tags, want)
	}
	if s.Pending() != 1 || len(s.Requests()) != 0 || len(s.TagRequests()) != 1 {
		t.Fatalf("pending %d, requests %d, tag requests %d; want the script kept, 0, 1",
			s.Pending(), len(s.Requests()), len(s.TagRequests()))
	}
}

// FailTagRequests fails exactly the next n tagging requests.
func TestFailTagRequestsFailsTheNextN(t *testing.T) {
	s := NewServer(t)
	s.FailTagRequests(1)
	if r := post(t, s, tagBody); r.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("first tag request = %d, want 503", r.StatusCode)
	}
	r := post(t, s, tagBody)
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("second tag request = %d %s, want 200", r.StatusCode, b)
	}
}

func TestFakeTagsAreDeterministicWords(t *testing.T) {
	for text, want := range map[string][]string{
		"Go and Rust are languages": {"Go", "and", "Rust"},
		"吾輩は猫である。名前はまだ無い":           {"吾輩", "名前", "tag1"},
		"": {"tag1", "tag2", "tag3"},
	} {
		if got := FakeTags(text); !reflect.DeepEqual(got, want) {
			t.Errorf("FakeTags(%q) = %v, want %v", text, got, want)
		}
	}
}
