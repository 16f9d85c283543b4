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
	// StoreDiskFull: a write to the database {path} failed because the disk
	// (or the file system of the data folder {dir}) is full (SQLITE_FULL);
	// nothing of that write was stored.
	StoreDiskFull Code = "store.diskFull"
	// StoreReadOnly: the database {path} cannot be written: the file or the
	// data folder {dir} is read-only, or playchat may not open it
	// (SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN).
	StoreReadOnly Code = "store.readOnly"
	// StoreIO: the disk failed to read or write the database {path}
	// (SQLITE_IOERR: a removed drive, a network folder gone, a failing disk).
	StoreIO Code = "store.io"
	// StoreBusy: the database {path} stayed locked by another program (or
	// another playchat) longer than playchat waits (SQLITE_BUSY,
	// SQLITE_LOCKED).
	StoreBusy Code = "store.busy"
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
	StoreDiskFull: "the disk holding the database {path} is full, so this was not stored. " +
		"Free some space on it (the data folder is {dir}), then try again",
	StoreReadOnly: "playchat cannot write the database {path}: the file or the data folder {dir} is read-only, " +
		"or this user may not open it. Check the folder's permissions",
	StoreIO: "the disk failed while reading or writing the database {path} ({err}). " +
		"Check that the drive of the data folder {dir} is still there and healthy, then try again",
	StoreBusy: "the database {path} is locked by another program (or another playchat) for too long; try again in a moment",
	ChatReplyInterrupted: "playchat ended before this reply was complete (it was closed by force, crashed, or the computer lost power); " +
		"the text that had arrived is kept",
	ChatReplyUnfinished: "this reply was still being written when the chat was exported; the text up to then is kept",
	ChatReplyStreaming:  "the reply to message {id} is still being written (by another playchat, such as `playchat ask`): wait until it is finished",
}

func init() {
	for c, t := range storeTemplates {
		templates[c] = t
	}
	for _, c := range []Code{StoreDamaged, StoreDiskFull, StoreReadOnly, StoreIO, StoreBusy} {
		extraParams[c] = append(extraParams[c], "detail")
	}
}
