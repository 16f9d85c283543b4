package kb

import "playchat/backend/kb/markdown"

// parsedDoc is a Markdown file prepared for indexing (see markdown.Doc).
type parsedDoc = markdown.Doc

// parseMarkdown cleans a Markdown file and splits it into sections; name is
// the file's slash path (see markdown.Parse).
func parseMarkdown(name string, raw []byte) (parsedDoc, error) {
	return markdown.Parse(name, raw)
}

// maxChunkRunes is the longest section, in runes.
const maxChunkRunes = markdown.MaxChunkRunes
