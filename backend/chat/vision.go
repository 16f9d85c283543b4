package chat

import (
	"strings"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/llm"
	"playchat/backend/store"
)

// ImagesNotTakenText replaces an image of the history in a request to a
// model the user set not to take images (MODEL_IMAGES "no"): the request
// carries no image part, and the model is told one was there.
const ImagesNotTakenText = "[an image was attached here; it is not sent because this model is set not to take images]"

// setNoImages reports whether the user set model not to take images
// (Settings.ModelImages "no"). The vision table alone never refuses: for a
// model it lists as text-only the window warns and the message may still be
// sent (the provider then answers for itself).
func setNoImages(model string, set Settings) bool {
	return set.ModelImages[strings.TrimSpace(model)] == llm.ImagesNo
}

// checkImagesTaken refuses files with an image for a model set not to take
// images: apperr.ChatImagesNotTaken with param model, before anything is
// stored.
func checkImagesTaken(model string, set Settings, files []store.MessageFile) error {
	if !setNoImages(model, set) {
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
