package chat_test

import (
	"context"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/chat"
	"playchat/backend/llm/llmtest"
)

// A model the user set not to take images (MODEL_IMAGES) is sent no image
// part: a new message with one is refused before anything is stored, and
// the images already in the chat go as a text note. The table alone
// (openai/fake-model is unknown to it) refuses nothing.
func TestAModelSetNotToTakeImagesIsSentNone(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv, "MODEL_IMAGES=openai/fake-model=no")
	img := prepared(t, "shot.png", widePNG(t, 40, 30))
	ctx := context.Background()

	_, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "what is this?", Attachments: []attach.Prepared{img}}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatImagesNotTaken {
		t.Fatalf("err %v, want %s", err, apperr.ChatImagesNotTaken)
	}
	if sessions, err := c.DB.ListSessions(ctx); err != nil || len(sessions) != 0 || len(srv.ChatRequests()) != 0 {
		t.Fatalf("after the refusal: %d sessions (%v), %d requests", len(sessions), err, len(srv.ChatRequests()))
	}

	// The same message to a model the table does not know goes with its image.
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "what is this?", Model: "openai/other-model", Attachments: []attach.Prepared{img}}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	if parts := userParts(t, srv); len(parts) != 2 || parts[1].Type != openai.ChatMessagePartTypeImageURL {
		t.Fatalf("parts %+v", parts)
	}

	// That chat, moved to the model set to "no": its history's image goes as text.
	srv.Reset()
	tr, err = c.Chat.Start(ctx, chat.TurnRequest{SessionID: tr.SessionID, Text: "and now?", Model: "openai/fake-model"}, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	found := false
	for _, m := range reqs[0].Messages {
		for _, p := range m.MultiContent {
			if p.Type == openai.ChatMessagePartTypeImageURL || p.ImageURL != nil {
				t.Fatalf("an image part went to the model set to no: %+v", m)
			}
			found = found || p.Text == chat.ImagesNotTakenText
		}
	}
	if !found {
		t.Errorf("the history's image is not noted: %+v", reqs[0].Messages)
	}
}
