// Package knowledgebase holds the Markdown documents that ship with playchat
// and seed a new user's knowledge base folder (backend/kb copies them when
// the folder does not exist yet).
package knowledgebase

import "embed"

// FS holds every .md file of this folder, at its root.
//
//go:embed *.md
var FS embed.FS
