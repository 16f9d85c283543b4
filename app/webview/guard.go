package webview

import (
	"net/url"
	"strings"
)

// The window's page comes from Wails' asset server on the custom scheme
// "wails": wails://wails/ in a built app, wails://wails.localhost:<port>/
// under `wails dev` (the assets are then proxied from the frontend's dev
// server, still on this scheme). Nothing else is the app.
const (
	appScheme  = "wails"
	appHost    = "wails"
	appDevHost = "wails.localhost"
)

// NavigationAllowed reports whether the window's web view may navigate to
// uri: only to the app's own page (any path, query or fragment of the
// origins above — the page's own reloads, the crash reload, Wails' reload
// of the start URL). Every other navigation — a dropped file (file://), a
// dropped or clicked link (http(s)://, data:, javascript:, about:…), a
// frame's or a new window's — is refused (guardNavigation): links open in
// the user's browser through the page (MarkdownContent), and the window
// never shows anything but the app.
func NavigationAllowed(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, appScheme) || u.Opaque != "" {
		return false
	}
	host := strings.ToLower(u.Hostname())
	return host == appHost || host == appDevHost
}

// srcdocURI is what a frame whose document the page wrote itself (an
// iframe's srcdoc) loads: the print frame of Print / PDF
// (frontend/src/utils/printChat.ts), sandboxed without scripts. It loads
// nothing from anywhere, so it is allowed; in a main frame it shows a blank
// page at most.
const srcdocURI = "about:srcdoc"

// navigationVerdict decides one navigation of the web view (newWindow: it
// asks for a new window, which the app never opens) and, when it is
// refused, returns the line reported on stderr.
func navigationVerdict(uri string, newWindow bool) (allowed bool, report string) {
	if !newWindow && (NavigationAllowed(uri) || uri == srcdocURI) {
		return true, ""
	}
	what := "load"
	if newWindow {
		what = "open a new window for"
	}
	kind := "a URI without a scheme"
	if scheme := uriScheme(uri); scheme != "" {
		kind = "a " + scheme + ": URI"
	}
	return false, "playchat: the window refused to " + what + " " + kind + " (only the app's own page is shown)"
}

// uriScheme is the scheme of uri for a report ("" when it has none): the
// rest may name private files or carry text, so it is never printed.
func uriScheme(uri string) string {
	scheme, _, ok := strings.Cut(uri, ":")
	if !ok || scheme == "" || len(scheme) > 20 || strings.ContainsAny(scheme, "/?#") {
		return ""
	}
	return strings.ToLower(scheme)
}
