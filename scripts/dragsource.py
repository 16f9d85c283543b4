#!/usr/bin/python3
"""A small GTK drag source for the end-to-end scripts, as a file manager or a
browser is one: a window at a given place whose label can be dragged with the
mouse (xdotool mousedown / mousemove / mouseup) onto another window. It offers
what a real source offers, over XDND:

  dragsource.py X Y files URI…   text/uri-list (and text/plain: the URIs), as
                                 a file manager offers files and folders
  dragsource.py X Y text TEXT    text/plain (UTF8_STRING, STRING …) only
  dragsource.py X Y url URL      text/uri-list, _NETSCAPE_URL and text/plain,
                                 as a browser offers a link

It prints "DRAGSOURCE_READY X Y W H" (screen pixels of the draggable label)
once mapped, "DRAGSOURCE_BEGIN" when a drag starts, "DRAGSOURCE_GET <target>" for each request of the drop side,
"DRAGSOURCE_FAILED <reason>" when the drop side refused the drag, and
"DRAGSOURCE_END" when a drag is over; it runs until killed.
"""
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

URI_LIST, TEXT, NETSCAPE = 1, 2, 3


def main():
    if len(sys.argv) < 5 or sys.argv[3] not in ("files", "text", "url"):
        sys.stderr.write(__doc__)
        return 2
    x, y, kind, items = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]

    win = Gtk.Window(type=Gtk.WindowType.POPUP)  # no window manager needed to place it
    win.move(x, y)
    win.set_default_size(150, 56)
    box = Gtk.EventBox()
    label = Gtk.Label(label="DRAG " + kind)
    box.add(label)
    win.add(box)

    targets = []
    if kind in ("files", "url"):
        targets.append(Gtk.TargetEntry.new("text/uri-list", 0, URI_LIST))
    if kind == "url":
        targets.append(Gtk.TargetEntry.new("_NETSCAPE_URL", 0, NETSCAPE))
    target_list = Gtk.TargetList.new(targets)
    target_list.add_text_targets(TEXT)
    box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY | Gdk.DragAction.LINK)
    box.drag_source_set_target_list(target_list)

    def data_get(_widget, _context, data, info, _time):
        print("DRAGSOURCE_GET", data.get_target().name(), flush=True)
        if info == URI_LIST:
            data.set_uris(items)
        elif info == NETSCAPE:
            data.set(data.get_target(), 8, (items[0] + "\n" + items[0]).encode())
        else:
            data.set_text("\n".join(items), -1)

    def drag_begin(_widget, _context):
        print("DRAGSOURCE_BEGIN", flush=True)

    def drag_end(_widget, _context):
        print("DRAGSOURCE_END", flush=True)

    def drag_failed(_widget, _context, result):
        print("DRAGSOURCE_FAILED", result.value_nick, flush=True)
        return True  # no snap-back animation

    box.connect("drag-begin", drag_begin)
    box.connect("drag-data-get", data_get)
    box.connect("drag-end", drag_end)
    box.connect("drag-failed", drag_failed)
    win.connect("destroy", Gtk.main_quit)

    def ready():
        # On a loaded machine the window may not be mapped 300 ms after
        # show_all: ask again until it is, rather than print a place the
        # label does not have yet (or fail on a window not yet made).
        gdk_window = box.get_window()
        if gdk_window is None or not gdk_window.is_viewable():
            return True
        alloc = box.get_allocation()
        ox, oy = gdk_window.get_origin()[1:]
        print("DRAGSOURCE_READY", ox, oy, alloc.width, alloc.height, flush=True)
        return False

    win.show_all()
    GLib.timeout_add(300, ready)
    Gtk.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
