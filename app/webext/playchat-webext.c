/*
 * playchat's WebKit web extension: loaded by WebKitGTK into the web process
 * that runs the chat page (webkit_web_context_set_web_extensions_directory,
 * app/webview_release_linux.go). It does one thing: on the message
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
#include <dlfcn.h>
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

static void page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer data) {
	g_ptr_array_add(pages, page);
	g_object_weak_ref(G_OBJECT(page), page_gone, NULL);
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
