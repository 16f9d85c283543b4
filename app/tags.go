package app

import (
	"context"

	"playchat/backend/core"
	"playchat/backend/tagging"
)

// EventTagsUpdated: a message or memory got its automatic tags (data:
// tagging.Update {sessionId, messageId, memoryId, tags}); the window shows
// the chips under the message without reloading the session.
const EventTagsUpdated = "tags:updated"

// EventTagsPaused: automatic tagging paused after tagging.PauseAfter failed
// requests in a row (data: tagging.Pause {model, reason, notTags}); the
// window says so once, in a toast.
const EventTagsPaused = "tags:paused"

// startTagging runs the background tagger while the window runs (Shutdown's
// Close stops it) and tells the window about every tagged item and a pause.
func (a *App) startTagging(ctx context.Context, c *core.Core) {
	c.Tags.OnTags(func(u tagging.Update) {
		if p := a.plat(); p != nil {
			p.Emit(EventTagsUpdated, u)
		}
	})
	c.Tags.OnPause(func(pause tagging.Pause) {
		if p := a.plat(); p != nil {
			p.Emit(EventTagsPaused, pause)
		}
	})
	c.Tags.Start(ctx)
}
