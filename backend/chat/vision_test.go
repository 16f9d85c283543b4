package chat_test

import (
	"context"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/chat"
	"playchat/backend/core"
	"playchat/backend/llm/llmtest"
)

// A model the user set not to take images (MODEL_IMAGES) is sent no image
// part: a new message with one is refused before anything is stored, and
// the images already in the chat go as a text note. A model the table does
// not know (openai/other-model) gets its images.
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
	tr := finishTurn(t, c, chat.TurnRequest{Text: "what is this?", Model: "openai/other-model", Attachments: []attach.Prepared{img}})
	if parts := userParts(t, srv); len(parts) != 2 || parts[1].Type != openai.ChatMessagePartTypeImageURL {
		t.Fatalf("parts %+v", parts)
	}

	// That chat, moved to the model set to "no": its history's image goes as text.
	srv.Reset()
	tr = finishTurn(t, c, chat.TurnRequest{SessionID: tr.SessionID, Text: "and now?", Model: "openai/fake-model"})
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

// A model the vision table lists as text-only is treated as one set to
// "no" (a new-user try sent a screenshot to gpt-3.5-turbo past the
// warning, and the provider refused the request): a new message with an
// image is refused before anything is stored, and the chat's earlier
// images go to it as a note — unless the user set the model to "yes".
func TestATextOnlyModelOfTheTableIsSentNoImage(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	img := prepared(t, "shot.png", widePNG(t, 40, 30))
	ctx := context.Background()
	_, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "what is this?", Model: "openai/gpt-3.5-turbo", Attachments: []attach.Prepared{img}}, &recorder{})
	if apperr.CodeOf(err) != apperr.ChatImagesNotTaken || len(srv.ChatRequests()) != 0 {
		t.Fatalf("err %v, %d requests; want %s and none", err, len(srv.ChatRequests()), apperr.ChatImagesNotTaken)
	}
	tr := finishTurn(t, c, chat.TurnRequest{Text: "what is this?", Model: "openai/gpt-4o", Attachments: []attach.Prepared{img}})
	srv.Reset()
	tr = finishTurn(t, c, chat.TurnRequest{SessionID: tr.SessionID, Text: "and now?", Model: "openai/gpt-3.5-turbo"})
	for _, m := range srv.ChatRequests()[0].Messages {
		for _, p := range m.MultiContent {
			if p.ImageURL != nil {
				t.Fatal("an image went to a text-only model")
			}
		}
	}
	yes := newCore(t, srv, "MODEL_IMAGES=openai/gpt-3.5-turbo=yes")
	tr, err = yes.Chat.Start(ctx, chat.TurnRequest{Text: "what is this?", Model: "openai/gpt-3.5-turbo", Attachments: []attach.Prepared{img}}, &recorder{})
	if err != nil {
		t.Fatalf("a model set to yes: %v", err)
	}
	tr.Wait()
}

// finishTurn runs a turn to its end and fails the test when it could not
// start or ended in an error.
func finishTurn(t *testing.T, c *core.Core, req chat.TurnRequest) *chat.Turn {
	t.Helper()
	tr, err := c.Chat.Start(context.Background(), req, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if res := tr.Wait(); res.Err != nil {
		t.Fatal(res.Err)
	}
	return tr
}
