package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"playchat/backend/apperr"
)

// maxAddNames is how many names AddDocument tries ("name.md", "name (2).md"
// …) before it gives up.
const maxAddNames = 20

// AddDocument adds a new Markdown document, name (a file name ending in
// .md) with body, at the knowledge base's root and indexes it before
// returning, so the next turn's knowledge-base layer can retrieve it (issue
// 25: an attachment too long for the model is added here instead). It
// goes through ImportDropped, so it follows a drop's rules: written
// atomically, an existing document never overwritten — a different
// document of that name makes it try "name (2).md" and so on, the same
// text already there is that document. It returns the document's path
// relative to the root. Errors are coded KBAddFailed (with why, in
// English) or the index's.
func (s *Service) AddDocument(ctx context.Context, name, body string) (string, error) {
	name = filepath.Base(name)
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	if stem == "" || strings.ToLower(filepath.Ext(name)) != ".md" {
		return "", apperr.New(apperr.KBAddFailed, map[string]any{"name": name, "detail": "not a Markdown file name"})
	}
	tmp, err := os.MkdirTemp("", "playchat-kb-add-")
	if err != nil {
		return "", apperr.Wrap(apperr.KBAddFailed, err, map[string]any{"name": name, "detail": err.Error()})
	}
	defer os.RemoveAll(tmp)
	for i := 1; i <= maxAddNames; i++ {
		try := name
		if i > 1 {
			try = fmt.Sprintf("%s (%d).md", stem, i)
		}
		src := filepath.Join(tmp, try)
		if err := os.WriteFile(src, []byte(body), 0o600); err != nil {
			return "", apperr.Wrap(apperr.KBAddFailed, err, map[string]any{"name": name, "detail": err.Error()})
		}
		rep, err := s.ImportDropped(ctx, []string{src}, nil)
		if err != nil {
			return "", apperr.Wrap(apperr.KBAddFailed, err, map[string]any{"name": name, "detail": err.Error()})
		}
		switch {
		case len(rep.Copied) == 1:
			return rep.Copied[0], s.IndexNow(ctx, rep.Copied[0])
		case len(rep.Skipped) == 1 && rep.Skipped[0].Reason == DropDuplicate:
			return try, s.IndexNow(ctx, try)
		case len(rep.Skipped) == 1 && rep.Skipped[0].Reason == DropExists:
			continue
		case len(rep.Skipped) == 1:
			return "", apperr.New(apperr.KBAddFailed, map[string]any{"name": name,
				"detail": strings.TrimSpace(rep.Skipped[0].Reason + " " + rep.Skipped[0].Detail)})
		}
	}
	return "", apperr.New(apperr.KBAddFailed, map[string]any{"name": name,
		"detail": fmt.Sprintf("%d documents of that name are there already", maxAddNames)})
}
