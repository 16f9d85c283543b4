package config

import "testing"

func TestUILanguageFollowsTheSettingThenTheLocale(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		setting string
		env     map[string]string
		want    string
	}{
		{"ja", map[string]string{"LANG": "en_US.UTF-8"}, "ja"},
		{"en", map[string]string{"LANG": "ja_JP.UTF-8"}, "en"},
		{"auto", map[string]string{"LANG": "ja_JP.UTF-8"}, "ja"},
		{"", map[string]string{"LANG": "ja_JP.UTF-8"}, "ja"},
		{"fr", map[string]string{"LANG": "ja_JP.UTF-8"}, "ja"},
		// LC_ALL wins over LANG, LC_MESSAGES over LANG (POSIX order).
		{"auto", map[string]string{"LC_ALL": "C.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"},
		{"auto", map[string]string{"LC_MESSAGES": "ja_JP.eucJP", "LANG": "en_GB.UTF-8"}, "ja"},
		{"auto", map[string]string{"LANGUAGE": "ja"}, "ja"},
		{"auto", map[string]string{}, "en"},
	} {
		if got := UILanguageOf(tc.setting, env(tc.env)); got != tc.want {
			t.Errorf("UILanguageOf(%q, %v) = %q, want %q", tc.setting, tc.env, got, tc.want)
		}
	}
}
