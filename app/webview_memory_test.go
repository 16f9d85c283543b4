package app

import (
	"strings"
	"testing"
)

func TestWebMemoryFromEnv(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == WebMemoryEnv {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		in      string
		limit   uint
		wantErr bool
	}{
		{"", DefaultWebMemory.LimitMiB, false},
		{"0", 0, false},
		{" OFF ", 0, false},
		{"512", 512, false},
		{"64", 64, false},
		{"63", DefaultWebMemory.LimitMiB, true},    // too small to hold a page
		{"-5", DefaultWebMemory.LimitMiB, true},    // not a size
		{"1.5", DefaultWebMemory.LimitMiB, true},   // whole MiB only
		{"200MB", DefaultWebMemory.LimitMiB, true}, // no units
		{"65536", 65536, false},
		{"65537", DefaultWebMemory.LimitMiB, true},      // would never act
		{"4294967295", DefaultWebMemory.LimitMiB, true}, // ditto
	} {
		m, err := WebMemoryFromEnv(env(tc.in))
		if (err != nil) != tc.wantErr {
			t.Errorf("%q: err = %v, want error %v", tc.in, err, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), WebMemoryEnv) {
			t.Errorf("%q: the error %q does not name %s", tc.in, err, WebMemoryEnv)
		}
		if m.LimitMiB != tc.limit {
			t.Errorf("%q: limit %d MiB, want %d", tc.in, m.LimitMiB, tc.limit)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%q: the setting it gave is invalid: %v", tc.in, err)
		}
	}
}

func TestWebMemoryFromEnvQuotesWhatWasGiven(t *testing.T) {
	_, err := WebMemoryFromEnv(func(string) string { return " ABC " })
	if err == nil || !strings.Contains(err.Error(), `"ABC"`) {
		t.Fatalf("error %v does not quote the value as given", err)
	}
}

func TestWebMemoryValidate(t *testing.T) {
	if err := DefaultWebMemory.Validate(); err != nil {
		t.Fatalf("the default is invalid: %v", err)
	}
	if err := (WebMemory{}).Validate(); err != nil {
		t.Fatalf("off (zero) must be valid: %v", err)
	}
	for name, m := range map[string]WebMemory{
		"conservative 0":         {LimitMiB: 200, Conservative: 0, Strict: 0.5, PollSeconds: 30},
		"strict 1":               {LimitMiB: 200, Conservative: 0.3, Strict: 1, PollSeconds: 30},
		"conservative ≥ strict":  {LimitMiB: 200, Conservative: 0.6, Strict: 0.5, PollSeconds: 30},
		"no poll interval":       {LimitMiB: 200, Conservative: 0.3, Strict: 0.5},
		"negative poll interval": {LimitMiB: 200, Conservative: 0.3, Strict: 0.5, PollSeconds: -1},
	} {
		if err := m.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
