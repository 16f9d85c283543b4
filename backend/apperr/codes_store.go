package apperr

// Codes of the database itself (issue 21, backend/store): a damaged file, a
// file written by a newer playchat, and replies a process could not finish
// (it was killed, crashed or the computer lost power mid-reply). They live
// in their own file so they read together; the templates join the table at
// init.
const (
	// StoreDamaged: the database file {path} in the data folder {dir} is
	// damaged (SQLite's integrity check or a later read found it corrupt, or
	// it is not a database; {err} is SQLite's English words, also sent as
	// param detail). playchat refuses to write into it and keeps the file as
	// it is; the way back is a backup.
	StoreDamaged Code = "store.damaged"
	// StoreNewerSchema: the database {path} in the data folder {dir} was
	// written by a newer version of playchat: it records the migration
	// {migration} this version does not know (its newest is {latest}).
	StoreNewerSchema Code = "store.newerSchema"
	// ChatReplyInterrupted: the process that was writing this reply ended
	// before it was complete (killed, crashed, the computer lost power); the
	// text that had arrived was kept, and the next start marked it.
	ChatReplyInterrupted Code = "chat.replyInterrupted"
	// ChatReplyUnfinished: the reply was still being written when the chat
	// was exported; the export holds the text up to then.
	ChatReplyUnfinished Code = "chat.replyUnfinished"
	// ChatReplyStreaming: the reply to message {id} is still being written
	// (by another playchat process, such as `playchat ask`, or another turn),
	// so it cannot be regenerated yet.
	ChatReplyStreaming Code = "chat.replyStreaming"
)

var storeTemplates = map[Code]string{
	StoreDamaged: "the database {path} is damaged ({err}); playchat does not write into it and leaves the file as it is. " +
		"Quit playchat and restore the data folder {dir} from a backup (a copy of the folder made before the damage)",
	StoreNewerSchema: "the database {path} was written by a newer version of playchat (it has the change {migration:q}; " +
		"this version knows changes up to {latest:q}). Use that newer version of playchat, or restore the data folder {dir} " +
		"from a backup made with this version",
	ChatReplyInterrupted: "playchat ended before this reply was complete (it was closed by force, crashed, or the computer lost power); " +
		"the text that had arrived is kept",
	ChatReplyUnfinished: "this reply was still being written when the chat was exported; the text up to then is kept",
	ChatReplyStreaming:  "the reply to message {id} is still being written (by another playchat, such as `playchat ask`): wait until it is finished",
}

func init() {
	for c, t := range storeTemplates {
		templates[c] = t
	}
	extraParams[StoreDamaged] = append(extraParams[StoreDamaged], "detail")
}
