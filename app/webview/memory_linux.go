//go:build linux && webkit2_41

package webview

/*
#cgo pkg-config: webkit2gtk-4.1
#include <string.h>
#include <webkit2/webkit2.h>

static GObject *(*playchat_context_parent_constructor)(GType, guint, GObjectConstructParam *);
static WebKitMemoryPressureSettings *playchat_memory_settings;
static int playchat_memory_applied;
static char *playchat_extension_dir;
static WebKitWebContext *playchat_context;
static void (*playchat_on_context[4])(void);
static int playchat_on_context_count;

// Defined in release_linux.go (a Go export).
extern void playchatWebReleased(char *how, double ms, gint64 before_kib, gint64 after_kib);

// Catches the extension's "playchat.memory-released" report on its way to
// the web view (an emission hook, so no web view pointer is needed).
static gboolean playchat_message_hook(GSignalInvocationHint *hint, guint n, const GValue *values, gpointer data) {
	if (n < 2 || !G_VALUE_HOLDS_OBJECT(&values[1]))
		return TRUE;
	WebKitUserMessage *message = g_value_get_object(&values[1]);
	if (message == NULL || g_strcmp0(webkit_user_message_get_name(message), "playchat.memory-released") != 0)
		return TRUE;
	GVariant *p = webkit_user_message_get_parameters(message);
	if (p != NULL && g_variant_is_of_type(p, G_VARIANT_TYPE("(sdxx)"))) {
		const char *how;
		gdouble ms;
		gint64 before, after;
		g_variant_get(p, "(&sdxx)", &how, &ms, &before, &after);
		playchatWebReleased((char *)how, ms, before, after);
	}
	return TRUE;
}

// Emitted by the context just before it starts its web process: the one
// moment WebKit documents for setting the extensions' directory. Emitted again if a web process has to be started again: the hook is
// added once.
static void playchat_initialize_web_extensions(WebKitWebContext *context, gpointer data) {
	static int hooked;
	webkit_web_context_set_web_extensions_directory(context, playchat_extension_dir);
	if (hooked++)
		return;
	GObjectClass *view = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_VIEW));
	g_signal_add_emission_hook(g_signal_lookup("user-message-received", WEBKIT_TYPE_WEB_VIEW), 0,
		playchat_message_hook, NULL, NULL);
	g_type_class_unref(view);
}

static int playchat_reload_on_crash;
static gint64 playchat_reloads[3]; // monotonic µs of the last reloads

static gboolean playchat_reload(gpointer view) {
	webkit_web_view_reload(WEBKIT_WEB_VIEW(view));
	g_object_unref(view);
	return G_SOURCE_REMOVE;
}

// A web process that crashed (or went over a hard memory limit) leaves the
// view showing its last picture and taking no input for good: the page is
// loaded again in a new one, which the app's state survives (it lives in
// Go and the database). At most 3 reloads a minute, so a page that
// crashes on load does not loop.
static gboolean playchat_terminated_hook(GSignalInvocationHint *hint, guint n, const GValue *values, gpointer data) {
	if (n < 2 || !G_VALUE_HOLDS_OBJECT(&values[0]))
		return TRUE;
	WebKitWebView *view = g_value_get_object(&values[0]);
	int reason = g_value_get_enum(&values[1]);
	if (reason == WEBKIT_WEB_PROCESS_TERMINATED_BY_API)
		return TRUE;
	gint64 now = g_get_monotonic_time();
	if (playchat_reloads[0] != 0 && now - playchat_reloads[0] < 60 * G_USEC_PER_SEC) {
		g_printerr("playchat: the window's web process ended again (%s); not reloading: 3 times in a minute\n",
			reason == WEBKIT_WEB_PROCESS_CRASHED ? "crashed" : "over its memory limit");
		return TRUE;
	}
	playchat_reloads[0] = playchat_reloads[1];
	playchat_reloads[1] = playchat_reloads[2];
	playchat_reloads[2] = now;
	g_printerr("playchat: the window's web process %s; loading the page again\n",
		reason == WEBKIT_WEB_PROCESS_CRASHED ? "crashed" : "went over its memory limit");
	g_idle_add(playchat_reload, g_object_ref(view));
	return TRUE;
}

// The web context's constructor, wrapped: WebKitWebContext's
// "memory-pressure-settings" is a construct-only property, and
// webkit_web_context_get_default() — the context Wails' web view uses —
// is built without it. GObject hands every construct property to the
// constructor (unset ones with their default, NULL), so the wrapper puts
// the settings in where the value is still NULL and chains up. The first
// context built also gets the web extension's directory and the hook for
// the extension's reports, once it starts its web process.
static GObject *playchat_context_constructor(GType type, guint n, GObjectConstructParam *params) {
	GValue settings = G_VALUE_INIT;
	GObjectConstructParam *p = g_newa(GObjectConstructParam, n);
	memcpy(p, params, n * sizeof *p);
	for (guint i = 0; playchat_memory_settings != NULL && i < n; i++) {
		if (g_strcmp0(p[i].pspec->name, "memory-pressure-settings") == 0 && g_value_get_boxed(p[i].value) == NULL) {
			g_value_init(&settings, WEBKIT_TYPE_MEMORY_PRESSURE_SETTINGS);
			g_value_set_boxed(&settings, playchat_memory_settings);
			p[i].value = &settings;
			playchat_memory_applied = 1;
		}
	}
	GObject *object = playchat_context_parent_constructor(type, n, p);
	if (G_IS_VALUE(&settings))
		g_value_unset(&settings);
	if (playchat_context == NULL && WEBKIT_IS_WEB_CONTEXT(object)) {
		// Not yet constructed (GObject calls "constructed" after this
		// returns): the directory is set when WebKit asks for it.
		playchat_context = WEBKIT_WEB_CONTEXT(object);
		if (playchat_extension_dir != NULL)
			g_signal_connect(object, "initialize-web-extensions", G_CALLBACK(playchat_initialize_web_extensions), NULL);
		if (playchat_reload_on_crash) {
			GObjectClass *view = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_VIEW));
			g_signal_add_emission_hook(g_signal_lookup("web-process-terminated", WEBKIT_TYPE_WEB_VIEW), 0,
				playchat_terminated_hook, NULL, NULL);
			g_type_class_unref(view);
		}
		for (int i = 0; i < playchat_on_context_count; i++)
			playchat_on_context[i]();
	}
	return object;
}

static void playchat_hook_context(void) {
	if (playchat_context_parent_constructor != NULL)
		return;
	GObjectClass *klass = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_CONTEXT));
	playchat_context_parent_constructor = klass->constructor;
	klass->constructor = playchat_context_constructor;
}

// Other files' installers (guard_linux.go), run once the first web
// context is built: GTK has started, and the web view that will use the
// context has not been built yet. Call before wails.Run (from Prepare).
void playchat_when_context_built(void (*fn)(void)) {
	if (playchat_on_context_count < (int)G_N_ELEMENTS(playchat_on_context))
		playchat_on_context[playchat_on_context_count++] = fn;
	playchat_hook_context();
}

// Returns 0 when this WebKit has no memory-pressure-settings property.
static int playchat_set_web_memory(guint limit_mib, gdouble conservative, gdouble strict, gdouble poll_seconds) {
	GObjectClass *klass = G_OBJECT_CLASS(g_type_class_ref(WEBKIT_TYPE_WEB_CONTEXT));
	if (g_object_class_find_property(klass, "memory-pressure-settings") == NULL)
		return 0;
	playchat_memory_settings = webkit_memory_pressure_settings_new();
	webkit_memory_pressure_settings_set_memory_limit(playchat_memory_settings, limit_mib);
	webkit_memory_pressure_settings_set_conservative_threshold(playchat_memory_settings, conservative);
	webkit_memory_pressure_settings_set_strict_threshold(playchat_memory_settings, strict);
	webkit_memory_pressure_settings_set_poll_interval(playchat_memory_settings, poll_seconds);
	playchat_hook_context();
	return 1;
}

static int playchat_web_memory_applied(void) { return playchat_memory_applied; }

// dir is kept (not freed): the context is built later, once.
static void playchat_set_extension_dir(char *dir) {
	playchat_extension_dir = dir;
	playchat_hook_context();
}

static void playchat_set_reload_on_crash(void) {
	playchat_reload_on_crash = 1;
	playchat_hook_context();
}

// Only with the memory settings (limitMemory): without a limit the
// extension is loaded for its request filter alone.
static gboolean playchat_send_release(gpointer data) {
	if (playchat_context != NULL && playchat_memory_settings != NULL)
		webkit_web_context_send_message_to_all_extensions(playchat_context,
			webkit_user_message_new("playchat.release-memory", NULL));
	return G_SOURCE_REMOVE;
}

// Any thread: the message is sent from GTK's main loop.
static void playchat_request_release(void) { g_idle_add(playchat_send_release, NULL); }
*/
import "C"

import "errors"

// limitMemory gives m to the web processes of every web context built
// afterwards without settings of its own — with Wails, the default context
// and its one web view. Prepare calls it, once, before wails.Run, on the
// goroutine that runs it (Wails locks that goroutine to its OS thread,
// GTK's main thread; WebKit's initialisation, triggered here, records it
// as its main thread). A zero LimitMiB does nothing. Errors: an invalid m,
// or a WebKit older than 2.34 (no such settings).
func limitMemory(m Memory) error {
	if err := m.Validate(); err != nil || m.LimitMiB == 0 {
		return err
	}
	if C.playchat_set_web_memory(C.guint(m.LimitMiB), C.gdouble(m.Conservative), C.gdouble(m.Strict), C.gdouble(m.PollSeconds)) == 0 {
		return errors.New("this WebKitGTK has no memory pressure settings (needs 2.34 or newer)")
	}
	return nil
}

// memoryApplied reports whether a web context has been built with the
// settings limitMemory gave.
func memoryApplied() bool { return C.playchat_web_memory_applied() == 1 }

// loadExtension writes playchat's WebKit web extension (webext/, built by
// make) into dir and has the first web context built afterwards load it
// into its web process, where it cancels every request of the page for
// anything outside the app (a backstop under the page's
// Content-Security-Policy) and runs WebKit's memory release when the app
// asks (RequestRelease; only with limitMemory's settings). Prepare calls
// it like limitMemory. Errors: a binary built without the extension (go
// build instead of make), or dir not writable; the window then works
// without it.
func loadExtension(dir string) error {
	path, err := writeExtension(extensionFS, dir)
	if err == nil {
		C.playchat_set_extension_dir(C.CString(path))
	}
	return err
}

// RequestRelease asks the web process's extension for a release; its
// report arrives on WatchReleases. Any goroutine; nothing happens before
// the web context exists, without the extension or without a memory limit
// (MemoryEnv off).
func RequestRelease() { C.playchat_request_release() }

// reloadOnCrash has the window load its page again when its web process
// crashes or goes over a hard memory limit, instead of showing its last
// picture for good (WebKitGTK leaves that to the application; Wails does
// nothing). At most 3 reloads a minute; each is reported on stderr.
// Prepare calls it like limitMemory.
func reloadOnCrash() { C.playchat_set_reload_on_crash() }
