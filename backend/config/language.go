package config

import "strings"

// OSLocale is the language of the user's locale, "ja" or "en": the first of
// LC_ALL, LC_MESSAGES, LANG and LANGUAGE that is set (POSIX precedence)
// decides — "ja" when it starts with "ja" (ja_JP.UTF-8, ja), else "en".
// Nothing set means "en".
func OSLocale(getenv func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"} {
		if v := getenv(k); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "ja") {
				return "ja"
			}
			return "en"
		}
	}
	return "en"
}

// UILanguageOf resolves a UI_LANGUAGE setting ("auto", "ja", "en"; anything
// else counts as "auto") to the language texts shown outside the window use
// — desktop notifications, the tray menu, start-up dialogs: "ja" or "en",
// with "auto" following OSLocale.
func UILanguageOf(setting string, getenv func(string) string) string {
	if setting == "ja" || setting == "en" {
		return setting
	}
	return OSLocale(getenv)
}
