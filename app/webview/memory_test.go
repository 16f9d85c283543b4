package webview

import (
	"strings"
	"testing"
)

func TestMemoryFromEnv(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == MemoryEnv {
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
		{"", DefaultMemory.LimitMiB, false},
		{"0", 0, false},
		{" OFF ", 0, false},
		{"512", 512, false},
		{"64", 64, false},
		{"63", DefaultMemory.LimitMiB, true},    // too small to hold a page
		{"-5", DefaultMemory.LimitMiB, true},    // not a size
		{"1.5", DefaultMemory.LimitMiB, true},   // whole MiB only
		{"200MB", DefaultMemory.LimitMiB, true}, // no units
		{"65536", 65536, false},
		{"65537", DefaultMemory.LimitMiB, true},      // would never act
		{"4294967295", DefaultMemory.LimitMiB, true}, // ditto
	} {
		m, err := MemoryFromEnv(env(tc.in))
		if (err != nil) != tc.wantErr {
			t.Errorf("%q: err = %v, want error %v", tc.in, err, tc.wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), MemoryEnv) {
			t.Errorf("%q: the error %q does not name %s", tc.in, err, MemoryEnv)
		}
		if m.LimitMiB != tc.limit {
			t.Errorf("%q: limit %d MiB, want %d", tc.in, m.LimitMiB, tc.limit)
		}
		if err := m.Validate(); err != nil {
			t.Errorf("%q: the setting it gave is invalid: %v", tc.in, err)
		}
	}
}

func TestMemoryFromEnvQuotesWhatWasGiven(t *testing.T) {
	_, err := MemoryFromEnv(func(string) string { return " ABC " })
	if err == nil || !strings.Contains(err.Error(), `"ABC"`) {
		t.Fatalf("error %v does not quote the value as given", err)
	}
}

func TestMemoryValidate(t *testing.T) {
	if err := DefaultMemory.Validate(); err != nil {
		t.Fatalf("the default is invalid: %v", err)
	}
	if err := (Memory{}).Validate(); err != nil {
		t.Fatalf("off (zero) must be valid: %v", err)
	}
	for name, m := range map[string]Memory{
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
