package apperr

// Codes of per-chat settings and assistants (issue 26, backend/assistant).
const (
	// ChatSettingsInvalid: the chat settings are refused; {detail} says why (English).
	ChatSettingsInvalid Code = "chat.settingsInvalid"
	// ChatSystemPromptCut: the chat's system prompt did not fit beside the message and was cut to {sent} of {full} tokens.
	ChatSystemPromptCut Code = "chat.systemPromptCut"
	// AssistantNotFound: no assistant {name} (an id or a name).
	AssistantNotFound Code = "assistant.notFound"
	// AssistantInvalid: the assistant is refused; {detail} says why (English).
	AssistantInvalid Code = "assistant.invalid"
	// AssistantInvalidFile: an imported assistants file breaks the format; {detail} lists the problems (English).
	AssistantInvalidFile Code = "assistant.invalidFile"
	// AssistantOrder: a reorder did not list every assistant exactly once.
	AssistantOrder Code = "assistant.order"
)

var assistantTemplates = map[Code]string{
	ChatSettingsInvalid:  "invalid chat settings: {detail}",
	ChatSystemPromptCut:  "the chat's system prompt did not fit beside your message in this model's context window and was cut to {sent} of {full} tokens",
	AssistantNotFound:    "no assistant {name}",
	AssistantInvalid:     "invalid assistant: {detail}",
	AssistantInvalidFile: "invalid assistants file: {detail}",
	AssistantOrder:       "the new order must list every assistant exactly once",
}

func init() {
	for c, t := range assistantTemplates {
		templates[c] = t
	}
}
