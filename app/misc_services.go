package app

import (
	"context"

	"playchat/backend/apperr"
)

// MemoryService shows and deletes a session's long-term memories.
type MemoryService struct{ app *App }

// List returns the session's active memories (not merged into newer ones),
// oldest first.
func (s *MemoryService) List(sessionID string) ([]Memory, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	ms, err := c.DB.ActiveMemories(context.Background(), sessionID)
	if err != nil {
		return nil, err
	}
	out := make([]Memory, len(ms))
	for i, m := range ms {
		out[i] = toMemory(m)
	}
	return out, nil
}

// Status returns the state of the session's background summaries: idle,
// running, or backing off after failures (with the last error and when the
// next try may run). The state lives in the running app (a restart clears
// it).
func (s *MemoryService) Status(sessionID string) (MemoryStatus, error) {
	c, err := s.app.backend()
	if err != nil {
		return MemoryStatus{}, err
	}
	st := c.Summarizer.State(sessionID)
	out := MemoryStatus{State: st.Status, Failures: st.Failures, NextAttempt: ts(st.NextAttempt)}
	if st.LastError != "" {
		info := apperr.ParseStored(st.LastError)
		out.LastError = info.Message
		if info.Code != "" {
			out.LastErrorInfo = &info
		}
	}
	return out, nil
}

// Delete deletes one memory; its messages stay archived.
func (s *MemoryService) Delete(id int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.DB.DeleteMemory(context.Background(), id)
}

// LogService shows the api_logs of LLM calls.
type LogService struct{ app *App }

// List returns one page of logs (newest first); limit 1–500.
func (s *LogService) List(limit, offset int) (LogPage, error) {
	c, err := s.app.backend()
	if err != nil {
		return LogPage{}, err
	}
	c.FlushAPILogs() // the calls just made are in the page
	ls, total, err := c.DB.ListAPILogs(context.Background(), limit, offset)
	if err != nil {
		return LogPage{}, err
	}
	page := LogPage{Entries: make([]LogEntry, len(ls)), Total: total}
	for i, l := range ls {
		page.Entries[i] = toLogEntry(l)
	}
	usage, err := c.DB.APILogUsage(context.Background())
	if err != nil {
		return LogPage{}, err
	}
	page.Usage = make([]LogUsage, len(usage))
	for i, u := range usage {
		page.Usage[i] = LogUsage{SessionID: u.SessionID, Title: u.Title, Calls: u.Calls,
			PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	}
	return page, nil
}

// Get returns one log with its request and response.
func (s *LogService) Get(id int64) (LogDetail, error) {
	c, err := s.app.backend()
	if err != nil {
		return LogDetail{}, err
	}
	l, err := c.DB.GetAPILog(context.Background(), id)
	if err != nil {
		return LogDetail{}, err
	}
	return LogDetail{LogEntry: toLogEntry(l), RequestJSON: l.RequestJSON, ResponseText: l.ResponseText}, nil
}

// Delete deletes one log.
func (s *LogService) Delete(id int64) error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	return c.DB.DeleteAPILog(context.Background(), id)
}

// Clear deletes every log.
func (s *LogService) Clear() error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	c.FlushAPILogs() // a call's record queued before Clear goes too
	return c.DB.ClearAPILogs(context.Background())
}

// SystemService describes the running app.
type SystemService struct{ app *App }

// Info returns the version, data dir, OS locale and the UI_LANGUAGE setting.
func (s *SystemService) Info() (AppInfo, error) {
	info := AppInfo{Version: Version, Locale: osLocale()}
	if c, err := s.app.backend(); err == nil {
		info.DataDir = c.DataDir
		info.UILanguage = c.Config().UILanguage
	} else {
		return info, err
	}
	return info, nil
}
