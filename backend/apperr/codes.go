package apperr

// Every user-facing error kind. The window words each as the vue-i18n key
// "errors.code.<code>" (frontend/src/locales/errors-ja.ts and errors-en.ts) with the same
// placeholders as the English template in templates; the list the frontend
// checks against is frontend/src/api/errorCodes.ts, written by
// `go test ./backend/apperr -update`.
const (
	// AppStarting: a bound method was called before the backend finished starting.
	AppStarting Code = "app.starting"

	// SessionTitleLength: a session title is empty or longer than {max} characters.
	SessionTitleLength Code = "session.titleLength"
	// SessionInvalidFile: an imported session file breaks the format; {detail} lists the problems (English).
	SessionInvalidFile Code = "session.invalidFile"
	// SessionMessageTooLong: an imported session file's {message} ({role}) is {bytes} bytes, over the
	// {maxMiB} MiB limit of one message ({count} of its messages are over it); nothing was imported.
	SessionMessageTooLong Code = "session.messageTooLong"

	// SettingsPresetIncomplete: a model preset was saved without a label or a model.
	SettingsPresetIncomplete Code = "settings.presetIncomplete"

	// ChatNoModel: no model was chosen and DEFAULT_MODEL is empty.
	ChatNoModel Code = "chat.noModel"
	// ChatEmptyMessage: the message to send is empty.
	ChatEmptyMessage Code = "chat.emptyMessage"
	// ChatMessageTooLong: the message is {bytes} bytes, over {maxMiB} MiB.
	ChatMessageTooLong Code = "chat.messageTooLong"
	// ChatMessageNotUTF8: the message is not valid UTF-8.
	ChatMessageNotUTF8 Code = "chat.messageNotUtf8"
	// ChatTooLongForModel: the message needs about {used} tokens, the window allows {limit}.
	ChatTooLongForModel Code = "chat.tooLongForModel"
	// ChatAttachmentTooLong: the message fits the model without its documents' text but not with it
	// (issue 25): about {used} tokens, the window allows {limit}; {name} is the first document that
	// does not fit whole. Extra params for the window's offer: pages (a PDF's page count, 0 for
	// other text) and fitPages (how many of its first pages fit, 0: not even one), chars (its length
	// in characters) and fitChars (how many of its first characters fit, for text without pages),
	// docs (how many documents the message carries). Nothing was stored or sent.
	ChatAttachmentTooLong Code = "chat.attachmentTooLong"
	// ChatImagesNotTaken: the message has images but {model} does not take
	// them — the vision table lists it as text-only, or the user set it so
	// (MODEL_IMAGES, issue 25). Nothing was stored or sent.
	ChatImagesNotTaken Code = "chat.imagesNotTaken"
	// ChatUnreachable: the model server at {host} could not be reached ({reason}: Go's words, e.g. "timed out");
	// param kind is "timeout", "refused", "noHost", "reset" or "" (other).
	ChatUnreachable Code = "chat.unreachable"
	// ChatToolLimit: the model kept calling tools for {rounds} rounds without answering.
	ChatToolLimit Code = "chat.toolLimit"
	// ChatReplyTooLong: the reply reached the {maxMiB} MiB limit of one message; the stream was stopped
	// there and what arrived is kept (partial).
	ChatReplyTooLong Code = "chat.replyTooLong"

	// LLMProviderStatus: the provider answered HTTP {status} with {detail}.
	LLMProviderStatus Code = "llm.providerStatus"
	// LLMWrongBaseURL: a base URL the user set answered 404 ({detail}) for
	// every path: {baseURL}, set as {key}, is probably not the root of an
	// OpenAI-compatible API (usually ending in /v1).
	LLMWrongBaseURL Code = "llm.wrongBaseURL"
	// LLMProviderError: the provider sent an error without a status inside a stream ({detail}).
	LLMProviderError Code = "llm.providerError"
	// LLMInterrupted: the stream ended before the reply finished; {detail} is why (a nested error).
	LLMInterrupted Code = "llm.interrupted"
	// LLMNoFinish: the stream's body ended without a finish_reason (the cause of LLMInterrupted).
	LLMNoFinish Code = "llm.noFinish"
	// LLMNoModel: no model was given.
	LLMNoModel Code = "llm.noModel"
	// LLMNoModelName: {model} names a provider but no model after it.
	LLMNoModelName Code = "llm.noModelName"
	// LLMUnknownProvider: {model} has no known provider prefix; {providers} lists them.
	LLMUnknownProvider Code = "llm.unknownProvider"
	// LLMUnknownProviderName: {provider} is not a known provider.
	LLMUnknownProviderName Code = "llm.unknownProviderName"
	// LLMMissingKey: the provider needs the API key variable {key}.
	LLMMissingKey Code = "llm.missingKey"
	// LLMMissingKeyFor: the model {model} needs the API key variable {key}.
	LLMMissingKeyFor Code = "llm.missingKeyFor"
	// LLMCancelled: the request was stopped by the user (an API log's error).
	LLMCancelled Code = "llm.cancelled"
	// LLMClientGone: the request was cancelled because the client of
	// playchat's OpenAI-compatible API disconnected (an API log's error).
	LLMClientGone Code = "llm.clientGone"

	// ConfigUnknownKey: {key} is not a configuration key.
	ConfigUnknownKey Code = "config.unknownKey"
	// ConfigInvalidValue: {key} has the invalid {value}; {reason} is a nested config.reason.* error.
	ConfigInvalidValue Code = "config.invalidValue"
	// ConfigInvalidValueFrom: as ConfigInvalidValue, read from {source} (English label; param sourceId is "dotenv", "env" or "gui").
	ConfigInvalidValueFrom Code = "config.invalidValueFrom"
	// ConfigInvalidSecret: the secret {key} has an invalid value (not shown).
	ConfigInvalidSecret Code = "config.invalidSecret"
	// ConfigInvalidSecretFrom: as ConfigInvalidSecret, read from {source} (see ConfigInvalidValueFrom).
	ConfigInvalidSecretFrom Code = "config.invalidSecretFrom"
	// ConfigReasonInt: the value must be an integer.
	ConfigReasonInt Code = "config.reason.int"
	// ConfigReasonIntMin: the value must be an integer ≥ {min}.
	ConfigReasonIntMin Code = "config.reason.intMin"
	// ConfigReasonIntMax: the value must be an integer ≤ {max}.
	ConfigReasonIntMax Code = "config.reason.intMax"
	// ConfigReasonIntRange: the value must be an integer from {min} to {max}.
	ConfigReasonIntRange Code = "config.reason.intRange"
	// ConfigReasonNum: the value must be a number.
	ConfigReasonNum Code = "config.reason.num"
	// ConfigReasonNumMin: the value must be a number ≥ {min}.
	ConfigReasonNumMin Code = "config.reason.numMin"
	// ConfigReasonNumMax: the value must be a number ≤ {max}.
	ConfigReasonNumMax Code = "config.reason.numMax"
	// ConfigReasonNumRange: the value must be a number from {min} to {max}.
	ConfigReasonNumRange Code = "config.reason.numRange"
	// ConfigReasonBool: the value must be true or false.
	ConfigReasonBool Code = "config.reason.bool"
	// ConfigReasonURL: the value must be an absolute http(s) URL.
	ConfigReasonURL Code = "config.reason.url"
	// ConfigReasonModel: the value must be a model name like {example}.
	ConfigReasonModel Code = "config.reason.model"
	// ConfigReasonNoSpaces: the (secret) value must not contain spaces or control characters.
	ConfigReasonNoSpaces Code = "config.reason.noSpaces"
	// ConfigReasonNoControl: the value must not contain control characters.
	ConfigReasonNoControl Code = "config.reason.noControl"
	// ConfigReasonDigits: the value must be {min}–{max} ASCII digits (a
	// Discord ID, a JMA office code).
	ConfigReasonDigits Code = "config.reason.digits"
	// ConfigReasonDigitsExact: the value must be exactly {n} ASCII digits.
	ConfigReasonDigitsExact Code = "config.reason.digitsExact"
	// ConfigReasonOneOf: the value must be one of {choices} (comma-separated).
	ConfigReasonOneOf Code = "config.reason.oneOf"
	// ConfigReasonImagesEntry: an entry of MODEL_IMAGES ({entry}) is not
	// "provider/model=yes" or "provider/model=no".
	ConfigReasonImagesEntry Code = "config.reason.imagesEntry"
	// ConfigReasonImagesValue: the value for {model} is not yes or no.
	ConfigReasonImagesValue Code = "config.reason.imagesValue"
	// ConfigReasonImagesDuplicate: {model} is named twice.
	ConfigReasonImagesDuplicate Code = "config.reason.imagesDuplicate"
	// ConfigReasonImagesCount: more than {max} models are named.
	ConfigReasonImagesCount Code = "config.reason.imagesCount"

	// NotesTitleEmpty: a note page title is empty.
	NotesTitleEmpty Code = "notes.titleEmpty"
	// NotesTitleTooLong: a note page title has {n} characters, over {max}.
	NotesTitleTooLong Code = "notes.titleTooLong"
	// NotesTitleOneLine: a note page title spans lines.
	NotesTitleOneLine Code = "notes.titleOneLine"
	// NotesTitleNotUTF8: a note page title is not valid UTF-8.
	NotesTitleNotUTF8 Code = "notes.titleNotUtf8"
	// NotesSectionTooLong: a section name has {n} characters, over {max}.
	NotesSectionTooLong Code = "notes.sectionTooLong"
	// NotesSectionOneLine: a section name spans lines.
	NotesSectionOneLine Code = "notes.sectionOneLine"
	// NotesSectionNotUTF8: a section name is not valid UTF-8.
	NotesSectionNotUTF8 Code = "notes.sectionNotUtf8"
	// NotesContentTooLong: a page's content has {n} bytes, over {max}.
	NotesContentTooLong Code = "notes.contentTooLong"
	// NotesContentNotUTF8: a page's content is not valid UTF-8.
	NotesContentNotUTF8 Code = "notes.contentNotUtf8"
	// NotesRenameUngrouped: a section rename named no section.
	NotesRenameUngrouped Code = "notes.renameUngrouped"
	// NotesOrderIncomplete: a new page order does not list each of the {n} pages once ({detail}, English).
	NotesOrderIncomplete Code = "notes.orderIncomplete"
	// NotesOrderSplit: a new page order splits {section} ({detail}, English).
	NotesOrderSplit Code = "notes.orderSplit"
	// NotesTitleTaken: page {id} already has the title {title}.
	NotesTitleTaken Code = "notes.titleTaken"
	// NotesPageNotFound: note page {id} does not exist.
	NotesPageNotFound Code = "notes.pageNotFound"
	// NotesSectionEmpty: the section {section} has no pages.
	NotesSectionEmpty Code = "notes.sectionEmpty"

	// KBNotReady: the knowledge base folder is not known yet (the backend is still opening it).
	KBNotReady Code = "kb.notReady"
	// KBFileTooLarge: a document is larger than {maxMiB} MiB, so it is not indexed.
	KBFileTooLarge Code = "kb.fileTooLarge"
	// KBNotText: a document contains NUL bytes, so it is not indexed.
	KBNotText Code = "kb.notText"
	// KBSymlink: a document is a symbolic link that cannot be followed; the cause follows.
	KBSymlink Code = "kb.symlink"
	// KBOutsideRoot: a path is outside the knowledge base folder.
	KBOutsideRoot Code = "kb.outsideRoot"
	// KBWatchLimit: {folders} folders of the knowledge base cannot be watched live: the system's limit
	// of watched folders (fs.inotify.max_user_watches) is reached; they are checked for changes every {seconds} s.
	KBWatchLimit Code = "kb.watchLimit"
	// KBNotDocument: a path is not a Markdown document of the knowledge base.
	KBNotDocument Code = "kb.notDocument"
	// KBAddFailed: the document {name} could not be added to the knowledge base ({detail}, in English).
	KBAddFailed Code = "kb.addFailed"
	// KBDeleteFailed: the document {name} could not be moved to the knowledge base's trash folder
	// ({trash}) ({detail}, in English); the document stays where it was.
	KBDeleteFailed Code = "kb.deleteFailed"

	// ToolArgumentsTruncated: a tool call's arguments were cut off, so it was not run.
	ToolArgumentsTruncated Code = "tool.argumentsTruncated"
	// ToolUnknown: the model called the tool {name}, which does not exist.
	ToolUnknown Code = "tool.unknown"
	// ToolBadArguments: a tool call's arguments are not valid JSON.
	ToolBadArguments Code = "tool.badArguments"
	// ToolPanicked: a tool failed unexpectedly (it panicked; the log has the stack).
	ToolPanicked Code = "tool.panicked"
	// ToolFailed: a tool returned an error; {detail} is its English text, as the model read it.
	ToolFailed Code = "tool.failed"

	// ReminderDueUnparsable: the due time {due} is not a date-time playchat reads.
	ReminderDueUnparsable Code = "reminders.dueUnparsable"
	// ReminderDuePast: the due time {due} (local, with its zone) is not after {now}.
	ReminderDuePast Code = "reminders.duePast"
	// ReminderDueTooFar: the due time {due} is more than {maxDays} days ahead (REMINDER_MAX_AHEAD_DAYS).
	ReminderDueTooFar Code = "reminders.dueTooFar"
	// ReminderBadRepeat: the repeat rule {repeat} cannot be used; {detail} says why (English).
	ReminderBadRepeat Code = "reminders.badRepeat"
	// ReminderBadZone: {zone} is not a known IANA time zone; the cause follows.
	ReminderBadZone Code = "reminders.badZone"
	// ReminderContentEmpty: a reminder's text is empty.
	ReminderContentEmpty Code = "reminders.contentEmpty"
	// ReminderContentTooLong: a reminder's text has {n} characters, over {max}.
	ReminderContentTooLong Code = "reminders.contentTooLong"
	// ReminderNotFound: reminder {id} does not exist.
	ReminderNotFound Code = "reminders.notFound"
	// ReminderNotActive: reminder {id} is {state} (delivered or cancelled), so it cannot change.
	ReminderNotActive Code = "reminders.notActive"
	// ReminderSnoozeRange: a snooze of {minutes} minutes is outside 1 to {max}.
	ReminderSnoozeRange Code = "reminders.snoozeRange"
)

// templates holds the English text of every code. {name} is a param,
// {name:q} a param Go-quoted, {err} the wrapped cause's text (see Wrap).
var templates = map[Code]string{
	AppStarting: "playchat is still starting",

	SessionTitleLength: "a title needs 1 to {max} characters",
	SessionInvalidFile: "invalid session file: {detail}",
	SessionMessageTooLong: "invalid session file: {message} ({role}) is {bytes} bytes, over the {maxMiB} MiB limit of one message " +
		"({count} of its messages are over it); nothing was imported",

	SettingsPresetIncomplete: "a preset needs a label and a model",

	ChatNoModel:         "no model is configured: choose one in the model picker or set DEFAULT_MODEL in Settings",
	ChatEmptyMessage:    "the message is empty",
	ChatMessageTooLong:  "the message is too long ({bytes} bytes, at most {maxMiB} MiB)",
	ChatMessageNotUTF8:  "the message is not valid UTF-8",
	ChatTooLongForModel: "the message is too long for this model: about {used} tokens, the context window allows {limit}",
	ChatAttachmentTooLong: "the attached document {name} is too long for this model: about {used} tokens, the context window allows {limit}; " +
		"send only the part that fits, or add the file to the knowledge base instead",
	ChatImagesNotTaken: "{model} does not take images: remove the images or choose another model (if it does take them, say so in Settings › Models › Images per model, MODEL_IMAGES)",
	ChatUnreachable:    "cannot reach the model server at {host} ({reason})",
	ChatToolLimit:      "{err} ({rounds} rounds): it kept calling tools and gave no answer",
	ChatReplyTooLong:   "the reply reached the {maxMiB} MiB limit of one message, so playchat stopped it there and kept what had arrived (the model may have been repeating itself)",

	LLMProviderStatus:      "provider returned {status}: {detail}",
	LLMWrongBaseURL:        "provider returned 404: {detail}; the base URL {baseURL} ({key}) looks wrong: it should be the root of an OpenAI-compatible API, to which /chat/completions is added (usually ending in /v1)",
	LLMProviderError:       "provider error: {detail}",
	LLMInterrupted:         "{err}",
	LLMNoFinish:            "the stream ended without a finish_reason",
	LLMNoModel:             "{err}",
	LLMNoModelName:         "{err}: {model:q} names no model after the provider",
	LLMUnknownProvider:     "{err}: {model:q} (want provider/model with provider one of {providers})",
	LLMUnknownProviderName: "{err}: {provider:q}",
	LLMMissingKey:          "{err}: {key} is not set",
	LLMMissingKeyFor:       "{err}: {key} is not set (needed for {model:q})",
	LLMCancelled:           "cancelled (stopped by the user)",
	LLMClientGone:          "cancelled (the API client disconnected)",

	ConfigUnknownKey:            "config: {err}: {key:q}",
	ConfigInvalidValue:          "config: invalid {key} {value:q}: {reason}",
	ConfigInvalidValueFrom:      "config: invalid {key} {value:q} from {source}: {reason}",
	ConfigInvalidSecret:         "config: invalid {key} (value hidden): {reason}",
	ConfigInvalidSecretFrom:     "config: invalid {key} (value hidden) from {source}: {reason}",
	ConfigReasonInt:             "must be an integer",
	ConfigReasonIntMin:          "must be an integer ≥ {min}",
	ConfigReasonIntMax:          "must be an integer ≤ {max}",
	ConfigReasonIntRange:        "must be an integer from {min} to {max}",
	ConfigReasonNum:             "must be a number",
	ConfigReasonNumMin:          "must be a number ≥ {min}",
	ConfigReasonNumMax:          "must be a number ≤ {max}",
	ConfigReasonNumRange:        "must be a number from {min} to {max}",
	ConfigReasonBool:            "must be true or false",
	ConfigReasonURL:             "must be an absolute http:// or https:// URL",
	ConfigReasonModel:           "must be a model name like {example:q}",
	ConfigReasonNoSpaces:        "must not contain spaces or control characters",
	ConfigReasonNoControl:       "must not contain control characters",
	ConfigReasonDigits:          "must be {min}–{max} digits",
	ConfigReasonDigitsExact:     "must be {n} digits",
	ConfigReasonOneOf:           "must be one of {choices}",
	ConfigReasonImagesEntry:     "entry {entry:q} must be provider/model=yes or provider/model=no",
	ConfigReasonImagesValue:     "the value for {model:q} must be yes or no",
	ConfigReasonImagesDuplicate: "names {model:q} more than once",
	ConfigReasonImagesCount:     "may name at most {max} models",

	NotesTitleEmpty:      "the title is empty",
	NotesTitleTooLong:    "the title is {n} characters; at most {max} are allowed",
	NotesTitleOneLine:    "the title must be one line",
	NotesTitleNotUTF8:    "the title is not valid UTF-8",
	NotesSectionTooLong:  "the section name is {n} characters; at most {max} are allowed",
	NotesSectionOneLine:  "the section name must be one line",
	NotesSectionNotUTF8:  "the section name is not valid UTF-8",
	NotesContentTooLong:  "the content is {n} bytes; at most {max} (1 MiB) are allowed",
	NotesContentNotUTF8:  "the content is not valid UTF-8",
	NotesRenameUngrouped: "name the section to rename (ungrouped pages have no section)",
	NotesOrderIncomplete: "the order must list each of the {n} pages exactly once ({detail}); nothing was changed",
	NotesOrderSplit:      "the order splits section {section:q} ({detail}); nothing was changed",
	NotesTitleTaken:      "note page {id} is titled {title:q}",
	NotesPageNotFound:    "note page {id}",
	NotesSectionEmpty:    "section {section:q} has no pages",

	KBNotReady:     "the knowledge base folder is not ready yet",
	KBFileTooLarge: "larger than {maxMiB} MiB",
	KBNotText:      "not a text file (it contains NUL bytes)",
	KBSymlink:      "symlink",
	KBOutsideRoot:  "path is outside the knowledge base folder",
	KBWatchLimit: "{folders} folders of the knowledge base cannot be watched live because the system's limit of watched folders " +
		"(fs.inotify.max_user_watches) is reached: they are checked for changes every {seconds} seconds instead, and watched " +
		"live again as soon as the limit allows (raise it with: sudo sysctl fs.inotify.max_user_watches=524288)",
	KBNotDocument:  "not a Markdown document of the knowledge base",
	KBAddFailed:    "{name} could not be added to the knowledge base ({detail})",
	KBDeleteFailed: "{name} could not be moved to the trash folder {trash} of the knowledge base ({detail}); it stays where it was",

	ToolArgumentsTruncated: "arguments truncated",
	ToolUnknown:            "unknown tool {name:q}",
	ToolBadArguments:       "the arguments are not valid JSON",
	ToolPanicked:           "the tool failed unexpectedly",
	ToolFailed:             "{detail}",

	ReminderDueUnparsable:  "cannot read the due time {due:q}: write a local date-time such as 2026-12-01T09:00 or 2026-12-01T09:00:30",
	ReminderDuePast:        "the due time {due} is not in the future (it is now {now})",
	ReminderDueTooFar:      "the due time {due} is more than {maxDays} days ahead",
	ReminderBadRepeat:      "cannot use the repeat rule {repeat:q}: {detail}",
	ReminderBadZone:        "unknown time zone {zone:q}",
	ReminderContentEmpty:   "the reminder text is empty",
	ReminderContentTooLong: "the reminder text is {n} characters; at most {max} are allowed",
	ReminderNotFound:       "reminder {id} does not exist",
	ReminderNotActive:      "reminder {id} is {state} and cannot change",
	ReminderSnoozeRange:    "cannot snooze by {minutes} minutes: choose 1 to {max}",
}

// extraParams lists the params a code sends that its English template does
// not show (the window may use them).
var extraParams = map[Code][]string{
	ChatUnreachable:         {"kind"},
	ChatAttachmentTooLong:   {"pages", "fitPages", "chars", "fitChars", "docs"},
	LLMInterrupted:          {"detail"},
	ConfigInvalidValueFrom:  {"sourceId"},
	ConfigInvalidSecretFrom: {"sourceId"},
}
