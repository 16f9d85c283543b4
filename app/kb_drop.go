package app

import (
	"context"

	"playchat/backend/kb"
)

// kbDropEventPrefix starts the name of a drop's progress event:
// "kb:drop:<dropId>".
const kbDropEventPrefix = "kb:drop:"

// KBDropProgress is the value of the "kb:drop:<dropId>" event: files copied
// so far of the total planned.
type KBDropProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// ImportDropped copies files and folders dropped on the Knowledge panel
// (absolute paths from the window's file drop) into the knowledge base:
// .md and .txt files, folders with their structure; existing documents are
// never overwritten. Progress goes to "kb:drop:<dropId>" as KBDropProgress;
// the report lists what was copied and what was skipped and why.
func (s *KBService) ImportDropped(dropID string, paths []string) (kb.DropReport, error) {
	c, err := s.app.backend()
	if err != nil {
		return kb.DropReport{}, err
	}
	p := s.app.plat()
	name := kbDropEventPrefix + dropID
	return c.KB.ImportDropped(context.Background(), paths, func(done, total int) {
		p.Emit(name, KBDropProgress{Done: done, Total: total})
	})
}

// ChooseFiles shows the system's file picker for documents to add to the
// knowledge base (the Knowledge panel's "Add files…"); the window passes
// the chosen absolute paths to ImportDropped, as if they were dropped, for
// the same progress and report. None means the user cancelled.
func (s *KBService) ChooseFiles(title string) ([]string, error) {
	if _, err := s.app.backend(); err != nil {
		return nil, err
	}
	paths, err := s.app.plat().OpenDocuments(title)
	if err != nil {
		return nil, err
	}
	if paths == nil {
		paths = []string{}
	}
	return paths, nil
}

// Delete removes the document at path (relative to the knowledge base's
// root) from the knowledge base: its file goes into the root's
// kb.TrashDir, from where it can be moved back, and it leaves the index at
// once. It returns the path in the trash. Paths that leave the root or
// are not documents are refused (kb.Service.Delete) and change nothing.
func (s *KBService) Delete(path string) (string, error) {
	c, err := s.app.backend()
	if err != nil {
		return "", err
	}
	return c.KB.Delete(context.Background(), path)
}
