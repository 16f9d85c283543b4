package chat

import (
	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/llm"
	"playchat/backend/store"
)

// ImagesNotTakenText replaces an image of the history in a request to a
// model that does not take images (the vision table's answer, or the
// user's MODEL_IMAGES "no"): the request carries no image part, and the
// model is told one was there.
const ImagesNotTakenText = "[an image was attached here; it is not sent because this model does not take images]"

// noImages reports whether model does not take images: the user set it so
// (Settings.ModelImages "no"), or the vision table lists it as text-only
// and the user did not set it to "yes" (llm.TakesImagesWith). Such a
// model gets no image part at all: a provider refuses a request with one
// (a new-user try sent a screenshot to gpt-3.5-turbo past the window's
// warning and got the provider's error), and a chat moved to it would fail
// on every turn for the images in its history. A model the table does not
// know gets its images.
func noImages(model string, set Settings) bool {
	return llm.TakesImagesWith(model, set.ModelImages) == llm.ImagesNo
}

// checkImagesTaken refuses files with an image for a model that does not
// take them (noImages): apperr.ChatImagesNotTaken with param model, before
// anything is stored.
func checkImagesTaken(model string, set Settings, files []store.MessageFile) error {
	if !noImages(model, set) {
		return nil
	}
	for _, f := range files {
		if f.Kind == attach.KindImage {
			return apperr.New(apperr.ChatImagesNotTaken, map[string]any{"model": model})
		}
	}
	return nil
}

// withoutImages returns msgs with every image part replaced by a text part,
// ImagesNotTakenText. The messages given are not changed.
func withoutImages(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, len(msgs))
	for i, m := range msgs {
		out[i] = m
		if len(m.MultiContent) == 0 {
			continue
		}
		parts := make([]openai.ChatMessagePart, len(m.MultiContent))
		for j, p := range m.MultiContent {
			if p.Type == openai.ChatMessagePartTypeImageURL {
				p = openai.ChatMessagePart{Type: openai.ChatMessagePartTypeText, Text: ImagesNotTakenText}
			}
			parts[j] = p
		}
		out[i].MultiContent = parts
	}
	return out
}
