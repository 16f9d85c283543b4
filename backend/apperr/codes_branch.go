package apperr

// Codes of regenerating a reply and editing a sent message (issue 9,
// backend/chat/branch.go). They live in their own file so they read
// together; the templates join the table at init.
const (
	// ChatBranchArchived: message {id} was summarised into long-term memory (archived), so it cannot be edited or regenerated.
	ChatBranchArchived Code = "chat.branchArchived"
	// ChatNothingToRegenerate: the session's selected branch has no question to answer again.
	ChatNothingToRegenerate Code = "chat.nothingToRegenerate"
	// ChatNotUserMessage: message {id} is not a message the user sent in this session, so it cannot be edited.
	ChatNotUserMessage Code = "chat.notUserMessage"
	// ChatAnswered: message {id} has a reply, so it is not an unanswered question that Remove may take away.
	ChatAnswered Code = "chat.answered"
	// ChatBusy: a reply of this chat is still being written; wait for it or stop it first.
	ChatBusy Code = "chat.busy"
	// ChatInternal: a bug in playchat ended the reply ({detail}: the panic, in English); the stack is in the log.
	ChatInternal Code = "chat.internal"
)

var branchTemplates = map[Code]string{
	ChatBranchArchived:      "message {id} was summarised into long-term memory: messages above a summarised point cannot be edited or regenerated (edit a later message instead)",
	ChatNothingToRegenerate: "there is no reply to regenerate in this chat",
	ChatNotUserMessage:      "message {id} is not one of your messages in this chat",
	ChatAnswered:            "message {id} has a reply: only a question without an answer can be removed",
	ChatBusy:                "a reply in this chat is still being written: wait for it or stop it first",
	ChatInternal:            "an internal error ended the reply ({detail}); details are in the log",
}

func init() {
	for c, t := range branchTemplates {
		templates[c] = t
	}
}
