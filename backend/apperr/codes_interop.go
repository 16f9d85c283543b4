package apperr

// Codes of the doors for other tools (backend/interop, issue 23): the MCP
// server's tools and the learned documents they write. A tool's failure goes
// to the calling client as "[code] English text"; the window words them too
// (the KB browser, Settings → Use from other tools).
const (
	// KBNotLearned: a document is not a learned document (not below _learned/, or without its provenance).
	KBNotLearned Code = "kb.notLearned"

	// InteropBadDomain: {domain} is not one folder name of the knowledge base; {reason} says why, in English.
	InteropBadDomain Code = "interop.badDomain"
	// InteropBadPath: {path} is not a relative document path inside the knowledge base; {reason} says why, in English.
	InteropBadPath Code = "interop.badPath"
	// InteropNoDocument: the knowledge base has no document {path} in the folder {domain} ("" = the root).
	InteropNoDocument Code = "interop.noDocument"
	// InteropBadArgument: the argument {field} is wrong; {reason} says why, in English.
	InteropBadArgument Code = "interop.badArgument"
	// InteropWriteNotAllowed: a writing tool was called while other tools may not write
	// (INTEROP_ALLOW_WRITE off and no --allow-write).
	InteropWriteNotAllowed Code = "interop.writeNotAllowed"
	// InteropNotesNotShared: a notes tool was called while notes are not shared with other tools
	// (INTEROP_SHARE_NOTES off and no --share-notes).
	InteropNotesNotShared Code = "interop.notesNotShared"
	// InteropNoNote: there is no note page {page}.
	InteropNoNote Code = "interop.noNote"
	// InteropNoKnowledge: there is no learned-knowledge entry {id}.
	InteropNoKnowledge Code = "interop.noKnowledge"
	// InteropNoSession: there is no chat session {session}.
	InteropNoSession Code = "interop.noSession"
	// InteropNoToken: the MCP HTTP server has no token (MCP_HTTP_TOKEN or PLAYCHAT_MCP_TOKEN); it never runs without one.
	InteropNoToken Code = "interop.noToken"
	// InteropNotLoopback: the MCP HTTP server's address {addr} is not a 127.0.0.1 (loopback) address.
	InteropNotLoopback Code = "interop.notLoopback"
)

var interopTemplates = map[Code]string{
	KBNotLearned:           "not a learned document",
	InteropBadDomain:       "{domain:q} is not a knowledge-base folder name: {reason}",
	InteropBadPath:         "{path:q} is not a document path inside the knowledge base: {reason}",
	InteropNoDocument:      "the knowledge base has no document {path:q} in folder {domain:q}",
	InteropBadArgument:     "{field}: {reason}",
	InteropWriteNotAllowed: "other tools may not write to playchat (switch on INTEROP_ALLOW_WRITE in Settings, or start with --allow-write)",
	InteropNotesNotShared:  "notes are not shared with other tools (switch on INTEROP_SHARE_NOTES in Settings, or start with --share-notes)",
	InteropNoNote:          "there is no note page {page}",
	InteropNoKnowledge:     "there is no learned-knowledge entry {id}",
	InteropNoSession:       "there is no chat session {session:q}",
	InteropNoToken:         "the MCP HTTP server needs a token (MCP_HTTP_TOKEN in Settings, or PLAYCHAT_MCP_TOKEN)",
	InteropNotLoopback:     "the MCP HTTP server listens on 127.0.0.1 only, not on {addr:q}",
}

func init() {
	for c, t := range interopTemplates {
		templates[c] = t
	}
}
