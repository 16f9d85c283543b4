package app

import (
	"context"
	"errors"
)

var errNotWired = errors.New("not wired yet")

type ChatService struct{ ctx context.Context }

// Send stores the user's message and starts streaming the reply as events on "chat:turn:<turnId>".
func (s *ChatService) Send(req SendRequest) (TurnStart, error) { return TurnStart{}, errNotWired }

// Stop cancels a running turn; the partial reply is kept.
func (s *ChatService) Stop(turnID string) error { return errNotWired }

type SessionService struct{}

func (s *SessionService) List() ([]Session, error)                   { return nil, errNotWired }
func (s *SessionService) Create(model string) (Session, error)       { return Session{}, errNotWired }
func (s *SessionService) Rename(id, title string) (Session, error)   { return Session{}, errNotWired }
func (s *SessionService) SetModel(id, model string) (Session, error) { return Session{}, errNotWired }
func (s *SessionService) Delete(id string) error                     { return errNotWired }
func (s *SessionService) Messages(id string) ([]Message, error)      { return nil, errNotWired }
func (s *SessionService) ExportToFile(id string) (string, error)     { return "", errNotWired }
func (s *SessionService) ImportFromFile() (ImportResult, error)      { return ImportResult{}, errNotWired }

type MemoryService struct{}

func (s *MemoryService) List(sessionID string) ([]Memory, error) { return nil, errNotWired }
func (s *MemoryService) Delete(id int64) error                   { return errNotWired }

type LogService struct{}

func (s *LogService) List(limit, offset int) (LogPage, error) { return LogPage{}, errNotWired }
func (s *LogService) Get(id int64) (LogDetail, error)         { return LogDetail{}, errNotWired }
func (s *LogService) Delete(id int64) error                   { return errNotWired }
func (s *LogService) Clear() error                            { return errNotWired }

type SettingsService struct{}

func (s *SettingsService) Get() (SettingsView, error) { return SettingsView{}, errNotWired }
func (s *SettingsService) Save(u SettingsUpdate) (SettingsView, error) {
	return SettingsView{}, errNotWired
}

type ModelService struct{}

func (s *ModelService) Options() (ModelOptions, error) { return ModelOptions{}, errNotWired }
func (s *ModelService) AddPreset(label, value string) (ModelPreset, error) {
	return ModelPreset{}, errNotWired
}
func (s *ModelService) UpdatePreset(id int64, label, value string) (ModelPreset, error) {
	return ModelPreset{}, errNotWired
}
func (s *ModelService) DeletePreset(id int64) error { return errNotWired }

type SystemService struct{}

func (s *SystemService) Info() (AppInfo, error) { return AppInfo{}, errNotWired }
