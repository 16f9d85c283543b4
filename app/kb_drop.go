package app

import (
	"context"

	"playchat/backend/kb"
)

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
	name := "kb:drop:" + dropID
	return c.KB.ImportDropped(context.Background(), paths, func(done, total int) {
		p.Emit(name, KBDropProgress{Done: done, Total: total})
	})
}
