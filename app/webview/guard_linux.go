//go:build linux && webkit2_41

package webview

/*
#cgo pkg-config: webkit2gtk-4.1
#include <webkit2/webkit2.h>

// Defined in guard_export_linux.go (a Go export): 1 when the
// navigation may go ahead; otherwise it has reported the refusal.
extern int playchatNavigationAllowed(char *uri, int new_window);
// Defined in memory_linux.go: runs fn once the first web context
// is built (after GTK has started, before the web view loads anything).
extern void playchat_when_context_built(void (*fn)(void));

// Every navigation of a web view — the main frame's, a frame's, a new
// window's — asks "decide-policy" first. GLib runs emission hooks before
// the handlers connected to a G_SIGNAL_RUN_LAST signal and before its class
// handler (WebKit's default, which says "use"), and only the first decision
// on a WebKitPolicyDecision counts: a refusal here stands whatever a
// handler decides afterwards.
static gboolean playchat_policy_hook(GSignalInvocationHint *hint, guint n, const GValue *values, gpointer data) {
	if (n < 3 || !G_VALUE_HOLDS_OBJECT(&values[1]))
		return TRUE;
	WebKitPolicyDecisionType type = g_value_get_enum(&values[2]);
	if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
		return TRUE;
	WebKitPolicyDecision *decision = g_value_get_object(&values[1]);
	if (!WEBKIT_IS_NAVIGATION_POLICY_DECISION(decision))
		return TRUE;
	WebKitNavigationAction *action = webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(decision));
	WebKitURIRequest *request = action != NULL ? webkit_navigation_action_get_request(action) : NULL;
	const char *uri = request != NULL ? webkit_uri_request_get_uri(request) : NULL;
	if (!playchatNavigationAllowed((char *)(uri != NULL ? uri : ""), type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION))
		webkit_policy_decision_ignore(decision);
	return TRUE;
}

static void playchat_add_policy_hook(void) {
	GObjectClass *view = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_VIEW));
	g_signal_add_emission_hook(g_signal_lookup("decide-policy", WEBKIT_TYPE_WEB_VIEW), 0,
		playchat_policy_hook, NULL, NULL);
	g_type_class_unref(view);
}

static void playchat_guard_navigation(void) { playchat_when_context_built(playchat_add_policy_hook); }
*/
import "C"

// guardNavigation keeps the window on the app's own page: every navigation
// of the web view that NavigationAllowed refuses — a dropped file or link
// that the page failed to keep, a link or script sending the window
// elsewhere, any new window — is ignored in the UI process and reported on
// stderr (its scheme only). It backs up the page's own drop guard
// (frontend/src/utils/dropGuard.ts). Prepare calls it, once; it is
// installed when the web context is built, whatever else is configured.
func guardNavigation() { C.playchat_guard_navigation() }
