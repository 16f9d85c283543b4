package app

import (
	"playchat/backend/apperr"
	"playchat/backend/config"
)

// StartupStatus is how the backend's start went (SystemService.Startup):
// the window's first call, so that a start that failed shows a screen of
// its own — what happened, the data folder, what to do — instead of an
// empty chat.
type StartupStatus struct {
	// OK is true when the backend started (the window shows the chat).
	OK bool `json:"ok"`
	// Error is why it did not start; nil when OK. store.damaged and
	// store.newerSchema name the database file and the data folder in
	// their params; any other error is shown as it is worded.
	Error *apperr.Info `json:"error,omitempty"`
	// DataDir is the data folder (absolute; "" when even that is unknown).
	DataDir string `json:"dataDir"`
	// Locale is the OS locale's language, "ja" or "en".
	Locale string `json:"locale"`
	// UILanguage is UI_LANGUAGE ("auto", "ja" or "en"): the saved setting
	// when the backend started, else what .env and the environment say
	// (the settings saved in the window live in the database).
	UILanguage string `json:"uiLanguage"`
}

// Startup reports how the backend's start went. It answers even when the
// start failed (that is what it is for).
func (s *SystemService) Startup() (StartupStatus, error) {
	st := StartupStatus{Locale: osLocale(), DataDir: s.app.dataDir(), UILanguage: "auto"}
	c, err := s.app.backend()
	if err == nil {
		st.OK, st.UILanguage = true, c.Config().UILanguage
		return st, nil
	}
	in := apperr.InfoOf(err)
	st.Error = &in
	if st.DataDir != "" {
		if layers, lerr := config.LoadLayers(st.DataDir, s.app.opts.Environ); lerr == nil {
			if cfg, _ := config.Resolve(layers, st.DataDir); cfg.UILanguage != "" {
				st.UILanguage = cfg.UILanguage
			}
		}
	}
	return st, nil
}
