package webview

import "testing"

func TestTheWindowNavigatesOnlyWithinTheApp(t *testing.T) {
	for _, tc := range []struct {
		uri string
		ok  bool
	}{
		{"wails://wails/", true},
		{"wails://wails/index.html?x=1#user-content-a", true},
		{"WAILS://Wails/", true},
		{"wails://wails.localhost:34115/", true}, // wails dev
		{"wails://wails.localhost/assets/x.js", true},
		{"file:///home/u/notes/a.md", false}, // a dropped file
		{"file:///", false},
		{"http://127.0.0.1:8080/x", false}, // a dropped or clicked link
		{"https://example.com/", false},
		{"https://wails/", false},
		{"wails://evil.example/", false},
		{"wails://wails.localhost.evil/", false},
		{"wails:wails", false},
		{"data:text/html,<p>x</p>", false},
		{"javascript:alert(1)", false},
		{"about:blank", false},
		{"blob:wails://wails/1234", false},
		{"", false},
		{"::", false},
	} {
		if got := NavigationAllowed(tc.uri); got != tc.ok {
			t.Errorf("NavigationAllowed(%q) = %v, want %v", tc.uri, got, tc.ok)
		}
	}
}

func TestARefusedNavigationIsReportedWithoutItsAddress(t *testing.T) {
	for _, tc := range []struct {
		uri       string
		newWindow bool
		ok        bool
		report    string
	}{
		{"wails://wails/", false, true, ""},
		{"wails://wails/", true, false, "playchat: the window refused to open a new window for a wails: URI (only the app's own page is shown)"},
		{"file:///home/u/secret%20plans.md", false, false, "playchat: the window refused to load a file: URI (only the app's own page is shown)"},
		{"HTTPS://example.com/?q=private", false, false, "playchat: the window refused to load a https: URI (only the app's own page is shown)"},
		{"/relative/path:x", false, false, "playchat: the window refused to load a URI without a scheme (only the app's own page is shown)"},
		// The print frame's document (an iframe's srcdoc), and nothing else of about:.
		{"about:srcdoc", false, true, ""},
		{"about:srcdoc", true, false, "playchat: the window refused to open a new window for a about: URI (only the app's own page is shown)"},
		{"about:blank", false, false, "playchat: the window refused to load a about: URI (only the app's own page is shown)"},
		{"ABOUT:SRCDOC", false, false, "playchat: the window refused to load a about: URI (only the app's own page is shown)"},
	} {
		ok, report := navigationVerdict(tc.uri, tc.newWindow)
		if ok != tc.ok || report != tc.report {
			t.Errorf("navigationVerdict(%q, %v) = %v, %q; want %v, %q", tc.uri, tc.newWindow, ok, report, tc.ok, tc.report)
		}
	}
}
