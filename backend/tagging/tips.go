package tagging

import (
	"context"
	"errors"
	"strings"

	"playchat/backend/llm"
	"playchat/backend/store"
)

// Tips writes the Discord bot's "useless tips" (どうでもいいTips): one short
// Japanese trivia on a tag related to the recent talk. It implements
// scheduler.TipWriter.
type Tips struct {
	LLM Completer
	// Model returns the model to write with: WEATHER_NOTIFY_MODEL, else
	// DEFAULT_MODEL ("" fails with ErrNoModel).
	Model func() string
	// Tags chooses the topic (RelatedTag); nil writes on the hint itself.
	Tags *Service
}

// maxTipRunes caps a tip's length, in runes.
const maxTipRunes = 400

// Tip writes one tip on RelatedTag(hint, sessionIDs) (hint "" = the recent
// talk of those sessions; with no tag and no noun at all, a topic of the
// model's choosing). sessionIDs are the chats the tip may draw on — the
// Discord channel's own chat — and nothing else is read. It returns the
// text without surrounding space, at most 400 runes. Errors: ErrNoModel,
// the tag lookup's, the LLM's, or an empty answer.
func (t Tips) Tip(ctx context.Context, hint string, sessionIDs []string) (string, error) {
	model := ""
	if t.Model != nil {
		model = t.Model()
	}
	if model == "" {
		return "", ErrNoModel
	}
	topic := strings.TrimSpace(hint)
	if t.Tags != nil {
		tag, err := t.Tags.RelatedTag(ctx, hint, sessionIDs)
		if err != nil {
			return "", err
		}
		if tag != "" {
			topic = tag
		}
	}
	user := "話題: " + topic
	if topic == "" {
		user = "話題: おまかせ（身近なもの）"
	}
	out, err := t.LLM.Complete(ctx, llm.Request{
		Model:     model,
		Purpose:   llm.PurposeTip,
		MaxTokens: 400,
		Messages: []llm.Message{
			{Role: store.RoleSystem, Content: tipPrompt},
			{Role: store.RoleUser, Content: user},
		},
	})
	if err != nil {
		return "", err
	}
	out = strings.TrimSpace(out)
	if out == "" {
		return "", errors.New("tagging: the model returned an empty tip")
	}
	return truncate(out, maxTipRunes), nil
}

// tipPrompt is the system message of a tip request.
const tipPrompt = "あなたはチャットに時々「どうでもいいTips」を投稿する気さくなボットです。" +
	"与えられた話題にちなんだ、役には立たないけれど少し面白い豆知識を日本語で 1 つだけ、" +
	"2〜3 文（150 字以内）で書いてください。前置き・見出し・絵文字の多用・メンションは不要です。" +
	"不確かなことは断定しないでください。"
