//go:build linux && webkit2_41

package app

/*
#cgo pkg-config: webkit2gtk-4.1
#include <string.h>
#include <webkit2/webkit2.h>

static GObject *(*playchat_context_parent_constructor)(GType, guint, GObjectConstructParam *);
static WebKitMemoryPressureSettings *playchat_memory_settings;
static int playchat_memory_applied;

// The web context's constructor, wrapped: WebKitWebContext's
// "memory-pressure-settings" is a construct-only property, and
// webkit_web_context_get_default() — the context Wails' web view uses —
// is built without it. GObject hands every construct property to the
// constructor (unset ones with their default, NULL), so the wrapper puts
// the settings in where the value is still NULL and chains up.
static GObject *playchat_context_constructor(GType type, guint n, GObjectConstructParam *params) {
	GValue settings = G_VALUE_INIT;
	GObjectConstructParam *p = g_newa(GObjectConstructParam, n);
	memcpy(p, params, n * sizeof *p);
	for (guint i = 0; i < n; i++) {
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
	return object;
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
	playchat_context_parent_constructor = klass->constructor;
	klass->constructor = playchat_context_constructor;
	return 1;
}

static int playchat_web_memory_applied(void) { return playchat_memory_applied; }
*/
import "C"

import (
	"errors"
	"sync"
)

// The wrapper is installed once per process: later calls return the first
// call's result.
var (
	webMemoryOnce sync.Once
	webMemoryErr  error
	webMemorySet  WebMemory
)

// LimitWebMemory gives m to the web processes of every web context built
// afterwards without settings of its own — with Wails, the default context
// and its one web view.
// Call it once, before wails.Run, on the goroutine that runs it (Wails
// locks that goroutine to its OS thread, GTK's main thread; WebKit's
// initialisation, triggered here, records it as its main thread). A zero
// LimitMiB does nothing. Errors: an invalid m, or a WebKit older than
// 2.34 (no such settings).
func LimitWebMemory(m WebMemory) error {
	if err := m.Validate(); err != nil || m.LimitMiB == 0 {
		return err
	}
	webMemoryOnce.Do(func() {
		if C.playchat_set_web_memory(C.guint(m.LimitMiB), C.gdouble(m.Conservative), C.gdouble(m.Strict), C.gdouble(m.PollSeconds)) == 0 {
			webMemoryErr = errors.New("this WebKitGTK has no memory pressure settings (needs 2.34 or newer)")
			return
		}
		webMemorySet = m
	})
	return webMemoryErr
}

// webMemoryApplied returns the settings LimitWebMemory gave and whether a
// web context has been built with them (the self-test checks it).
func webMemoryApplied() (WebMemory, bool) {
	return webMemorySet, C.playchat_web_memory_applied() == 1
}
