/*
 * playchat's WebKit web extension: loaded by WebKitGTK into the web process
 * that runs the chat page (webkit_web_context_set_web_extensions_directory,
 * app/webview/release_linux.go). It does two things.
 *
 * It cancels every request of the page for anything but the app's own
 * origin (wails://wails/…; wails://wails.localhost:<port>/… under
 * `wails dev`) and data:, blob: and about: URLs, which need no network: the
 * window loads nothing from the network on its own (issue 21), even if
 * something slipped past the sanitisers and the page's
 * Content-Security-Policy (frontend/src/csp.ts). Each cancelled request is
 * reported on stderr by its scheme only.
 *
 * And on the message
 * "playchat.release-memory" from the app, sent a moment after a turn ends,
 * it runs WebKit's own memory release right away, synchronously — the same
 * WTF::MemoryPressureHandler::releaseMemory(Critical::Yes, Synchronous::Yes)
 * that WebKit's memory pressure handler runs under pressure (dead caches,
 * compiled code, a full garbage collection, free allocator pages, glibc's
 * malloc_trim) — so what a turn allocated is given back when the turn is
 * over, not at the handler's next timed check (issue 7).
 *
 * WebKit exports that function but does not declare it in a public header,
 * so it is looked up by its C++ (Itanium ABI) symbol at run time. Where it
 * is missing (another WebKit), the extension answers "unavailable" and does
 * nothing; the timed handler still runs.
 *
 * After each release the page's extension tells the view
 * "playchat.memory-released" with (how, milliseconds, RSS before KiB,
 * RSS after KiB), which the app logs and its self-test checks.
 *
 * Built by `make` (target webext) into libplaychat-webext.so beside this file.
 */
#include <webkit2/webkit-web-extension.h>
#include <JavaScriptCore/JavaScript.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

/* WTF::MemoryPressureHandler& WTF::MemoryPressureHandler::singleton() */
typedef void *(*singleton_fn)(void);
/* void WTF::MemoryPressureHandler::releaseMemory(Critical, Synchronous);
 * both are `enum class : bool`. */
typedef void (*release_fn)(void *self, bool critical, bool synchronous);

static singleton_fn handler_singleton;
static release_fn handler_release;
static GPtrArray *pages; /* WebKitWebPage*, weak */

/* JavaScriptCore's heap statistics of a context: heapSize, heapCapacity,
 * extraMemorySize, objectCount, objectTypeCounts (class name → live
 * objects) … Exported by libjavascriptcoregtk, declared only in its private
 * JSBasePrivate.h. */
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

/* With PLAYCHAT_DEBUG_MEMSTATS set (the app's debug memory statistics,
 * app/webview/memstats.go), every release is followed by a "JSHEAP {…}"
 * line on stderr: the page's JavaScript heap after it, as
 * JSGetMemoryUsageStatistics reports it — what the page still holds, as
 * against what the allocators keep (issue 22). */
static void print_js_heap(WebKitWebPage *page) {
	/* The JSCContext API has no heap statistics: the older C API's context
	 * (deprecated in this WebKit, still exported). */
	G_GNUC_BEGIN_IGNORE_DEPRECATIONS
	WebKitFrame *frame = webkit_web_page_get_main_frame(page);
	JSGlobalContextRef ctx = frame != NULL ? webkit_frame_get_javascript_global_context(frame) : NULL;
	G_GNUC_END_IGNORE_DEPRECATIONS
	if (ctx == NULL)
		return;
	JSObjectRef stats = JSGetMemoryUsageStatistics(ctx);
	JSStringRef json = stats != NULL ? JSValueCreateJSONString(ctx, stats, 0, NULL) : NULL;
	if (json == NULL)
		return;
	size_t max = JSStringGetMaximumUTF8CStringSize(json);
	char *buf = g_malloc(max);
	JSStringGetUTF8CString(json, buf, max);
	g_printerr("JSHEAP %s\n", buf);
	g_free(buf);
	JSStringRelease(json);
}

static long resident_kib(void) {
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void page_gone(gpointer data, GObject *page) {
	g_ptr_array_remove(pages, page);
}

/* The app's own page and what loads without the network. */
static bool request_allowed(const char *uri) {
	if (uri == NULL)
		return false;
	char *scheme = g_uri_parse_scheme(uri);
	bool ok = false;
	if (scheme == NULL)
		return false;
	if (g_ascii_strcasecmp(scheme, "data") == 0 || g_ascii_strcasecmp(scheme, "blob") == 0 ||
		g_ascii_strcasecmp(scheme, "about") == 0) {
		ok = true;
	} else if (g_ascii_strcasecmp(scheme, "wails") == 0) {
		GUri *parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
		const char *host = parsed != NULL ? g_uri_get_host(parsed) : NULL;
		ok = host != NULL && (g_ascii_strcasecmp(host, "wails") == 0 || g_ascii_strcasecmp(host, "wails.localhost") == 0);
		if (parsed != NULL)
			g_uri_unref(parsed);
	}
	g_free(scheme);
	return ok;
}

/* Every request of the page (its document, scripts, styles, images, fonts,
 * fetches) passes here before it is sent; TRUE cancels it. */
static gboolean send_request(WebKitWebPage *page, WebKitURIRequest *request, WebKitURIResponse *redirected, gpointer data) {
	const char *uri = webkit_uri_request_get_uri(request);
	if (request_allowed(uri))
		return FALSE;
	char *scheme = uri != NULL ? g_uri_parse_scheme(uri) : NULL;
	g_printerr("playchat: the window's page was refused a request for %s%s%s (it loads nothing from outside the app)\n",
		scheme != NULL ? "a " : "a URI without a scheme", scheme != NULL ? scheme : "", scheme != NULL ? ": URI" : "");
	g_free(scheme);
	return TRUE;
}

static void page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
	g_ptr_array_add(pages, page);
	g_object_weak_ref(G_OBJECT(page), page_gone, NULL);
	g_signal_connect(page, "send-request", G_CALLBACK(send_request), NULL);
}

static gboolean message_received(WebKitWebExtension *extension, WebKitUserMessage *message, gpointer data) {
	if (g_strcmp0(webkit_user_message_get_name(message), "playchat.release-memory") != 0)
		return FALSE;
	const char *how = "unavailable";
	long before = resident_kib();
	gint64 start = g_get_monotonic_time();
	if (handler_singleton != NULL && handler_release != NULL) {
		handler_release(handler_singleton(), true, true);
		how = "webkit";
	}
	double ms = (g_get_monotonic_time() - start) / 1000.0;
	long after = resident_kib();
	for (guint i = 0; i < pages->len; i++) {
		if (getenv("PLAYCHAT_DEBUG_MEMSTATS") != NULL)
			print_js_heap(g_ptr_array_index(pages, i));
		WebKitUserMessage *report = webkit_user_message_new("playchat.memory-released",
			g_variant_new("(sdxx)", how, ms, (gint64)before, (gint64)after));
		webkit_web_page_send_message_to_view(g_ptr_array_index(pages, i), report, NULL, NULL, NULL);
	}
	return TRUE;
}

G_MODULE_EXPORT void webkit_web_extension_initialize(WebKitWebExtension *extension) {
	handler_singleton = (singleton_fn)dlsym(RTLD_DEFAULT, "_ZN3WTF21MemoryPressureHandler9singletonEv");
	handler_release = (release_fn)dlsym(RTLD_DEFAULT, "_ZN3WTF21MemoryPressureHandler13releaseMemoryENS_8CriticalENS_11SynchronousE");
	pages = g_ptr_array_new();
	g_signal_connect(extension, "page-created", G_CALLBACK(page_created), NULL);
	g_signal_connect(extension, "user-message-received", G_CALLBACK(message_received), NULL);
}
