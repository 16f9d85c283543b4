#!/usr/bin/python3
"""Fast pixel probes of the X display for the end-to-end scripts.

A screenshot with ImageMagick takes 100-300 ms; these read one region of the
root window through Xlib in about a millisecond, so repaint and key latencies
can be measured at ~5 ms resolution. Every command prints one number.

  xprobe.py changed X Y W H TIMEOUT_MS   ms until the region's pixels change (-1: never)
  xprobe.py stable X Y W H QUIET_MS TIMEOUT_MS
                                         ms (from start) of the region's last change once it
                                         has been still for QUIET_MS (-1: never still)
  xprobe.py frames X Y W H DURATION_MS   how many distinct repaints of the region were seen
  xprobe.py hash X Y W H                 the region's pixel hash (hex), for settle
  xprobe.py settle X Y W H HASH QUIET_MS TIMEOUT_MS
                                         waits until the region differs from HASH, then until
                                         it has been still for QUIET_MS; prints ms (from start)
                                         of its last change (-1: never changed or never still)
  xprobe.py same X Y W H HASH TIMEOUT_MS ms until the region's hash is HASH again (-1: never)
  xprobe.py nored X Y W H TIMEOUT_MS     ms until the region holds no strong red (the Stop
                                         button is gone; -1: never)
  xprobe.py drawn X Y W H TIMEOUT_MS     ms until the region shows more than a plain
                                         background (the page has rendered; -1: never)
  xprobe.py key KEYSYM X Y W H TIMEOUT_MS
                                         sends KEYSYM (XTEST) and prints ms until the region
                                         changes (-1: never)
  xprobe.py wheel BUTTON X Y W H TIMEOUT_MS
                                         turns the mouse wheel once where the pointer is (XTEST
                                         button 4 up, 5 down) and prints ms until the region
                                         changes (-1: never)
  xprobe.py close WINDOW_ID              asks the window to close as a window manager's close
                                         button does (ICCCM WM_DELETE_WINDOW); prints 0
  xprobe.py startup T0_MS SX SY SW SH CX CY KX KY KW KH TIMEOUT_MS
                                         waits until the region SX SY SW SH is drawn, clicks
                                         CX CY, types x until the region KX KY KW KH changes;
                                         prints both times as ms since T0_MS (Unix ms), one
                                         process polling every 5 ms, so neither figure holds a
                                         tool's own start-up (-1: never)
"""
import hashlib
import sys
import time

from Xlib import X, XK, display
from Xlib.ext import xtest

d = display.Display()
root = d.screen().root


def grab(x, y, w, h):
    img = root.get_image(x, y, w, h, X.ZPixmap, 0xFFFFFFFF)
    return hashlib.md5(img.data).digest()


def ms_since(t0):
    return int((time.monotonic() - t0) * 1000)


def changed(x, y, w, h, timeout, t0=None, first=None):
    t0 = t0 or time.monotonic()
    first = first or grab(x, y, w, h)
    while ms_since(t0) < timeout:
        if grab(x, y, w, h) != first:
            return ms_since(t0)
        time.sleep(0.002)
    return -1


def stable(x, y, w, h, quiet, timeout):
    t0 = time.monotonic()
    last, last_change = grab(x, y, w, h), 0
    while ms_since(t0) < timeout:
        cur = grab(x, y, w, h)
        if cur != last:
            last, last_change = cur, ms_since(t0)
        elif ms_since(t0) - last_change >= quiet:
            return last_change
        time.sleep(0.005)
    return -1


def frames(x, y, w, h, duration):
    t0, seen, last = time.monotonic(), 0, None
    while ms_since(t0) < duration:
        cur = grab(x, y, w, h)
        if cur != last:
            seen, last = seen + 1, cur
        time.sleep(0.005)
    return seen - 1


def hexhash(x, y, w, h):
    return grab(x, y, w, h).hex()


def settle(x, y, w, h, base, quiet, timeout):
    t0 = time.monotonic()
    base = bytes.fromhex(base)
    last, last_change = grab(x, y, w, h), 0
    changed_once = last != base
    while ms_since(t0) < timeout:
        cur = grab(x, y, w, h)
        if cur != last:
            last, last_change = cur, ms_since(t0)
            changed_once = changed_once or cur != base
        elif changed_once and ms_since(t0) - last_change >= quiet:
            return last_change
        time.sleep(0.005)
    return -1


def same(x, y, w, h, want, timeout):
    t0 = time.monotonic()
    want = bytes.fromhex(want)
    while ms_since(t0) < timeout:
        if grab(x, y, w, h) == want:
            return ms_since(t0)
        time.sleep(0.005)
    return -1


def red_pixels(x, y, w, h):
    data = root.get_image(x, y, w, h, X.ZPixmap, 0xFFFFFFFF).data
    n = 0
    for i in range(0, len(data) - 3, 4):  # BGRX
        b, g, r = data[i], data[i + 1], data[i + 2]
        if r > 170 and g < 110 and b < 110:
            n += 1
    return n


def nored(x, y, w, h, timeout):
    t0 = time.monotonic()
    while ms_since(t0) < timeout:
        if red_pixels(x, y, w, h) == 0:
            return ms_since(t0)
        time.sleep(0.005)
    return -1


def drawn(x, y, w, h, timeout):
    t0 = time.monotonic()
    while ms_since(t0) < timeout:
        data = root.get_image(x, y, w, h, X.ZPixmap, 0xFFFFFFFF).data
        colours = {bytes(data[i:i + 4]) for i in range(0, len(data) - 4, 4 * 97)}
        if len(colours) >= 3:
            return ms_since(t0)
        time.sleep(0.05)
    return -1


def key(keysym, x, y, w, h, timeout):
    first = grab(x, y, w, h)
    code = d.keysym_to_keycode(XK.string_to_keysym(keysym))
    t0 = time.monotonic()
    xtest.fake_input(d, X.KeyPress, code)
    xtest.fake_input(d, X.KeyRelease, code)
    d.sync()
    return changed(x, y, w, h, timeout, t0, first)


def wheel(button, x, y, w, h, timeout):
    first = grab(x, y, w, h)
    t0 = time.monotonic()
    xtest.fake_input(d, X.ButtonPress, button)
    xtest.fake_input(d, X.ButtonRelease, button)
    d.sync()
    return changed(x, y, w, h, timeout, t0, first)


def startup(t0_ms, sx, sy, sw, sh, cx, cy, kx, ky, kw, kh, timeout):
    """The start-up figures of scripts/bench-startup.sh, measured in one
    process: the sidebar drawn, then a key typed into the message box
    shown. A key sent before the page takes keys is lost, so it is sent
    again every 250 ms until one shows."""
    since = lambda: int(time.time() * 1000) - t0_ms
    deadline = time.monotonic() + timeout / 1000
    side = -1
    while time.monotonic() < deadline:
        data = root.get_image(sx, sy, sw, sh, X.ZPixmap, 0xFFFFFFFF).data
        if len({bytes(data[i:i + 4]) for i in range(0, len(data) - 4, 4 * 97)}) >= 3:
            side = since()
            break
        time.sleep(0.005)
    if side < 0:
        return "-1 -1"
    before = grab(kx, ky, kw, kh)
    root.warp_pointer(cx, cy)
    d.sync()
    xtest.fake_input(d, X.ButtonPress, 1)
    xtest.fake_input(d, X.ButtonRelease, 1)
    d.sync()
    # The click's focus (ring, caret) repaints the box: wait up to 150 ms
    # for that, so that what the key is measured against is the focused box.
    clicked = time.monotonic()
    while time.monotonic() - clicked < 0.15 and grab(kx, ky, kw, kh) == before:
        time.sleep(0.005)
    time.sleep(0.01)
    first = grab(kx, ky, kw, kh)
    code = d.keysym_to_keycode(XK.string_to_keysym("x"))
    sent = 0.0
    while time.monotonic() < deadline:
        if time.monotonic() - sent > 0.25:
            xtest.fake_input(d, X.KeyPress, code)
            xtest.fake_input(d, X.KeyRelease, code)
            d.sync()
            sent = time.monotonic()
        if grab(kx, ky, kw, kh) != first:
            return "%d %d" % (side, since())
        time.sleep(0.005)
    return "%d -1" % side


def close(wid):
    """Sends WM_PROTOCOLS/WM_DELETE_WINDOW to the window (ICCCM 4.2.8.1)."""
    from Xlib import protocol
    win = d.create_resource_object("window", wid)
    protocols = d.intern_atom("WM_PROTOCOLS")
    delete = d.intern_atom("WM_DELETE_WINDOW")
    ev = protocol.event.ClientMessage(window=win, client_type=protocols,
                                      data=(32, [delete, X.CurrentTime, 0, 0, 0]))
    win.send_event(ev, event_mask=X.NoEventMask)
    d.sync()
    return 0


def main(argv):
    cmd, args = argv[0], argv[1:]
    if cmd == "key":
        print(key(args[0], *map(int, args[1:])))
    elif cmd == "wheel":
        print(wheel(*map(int, args)))
    elif cmd == "settle":
        x, y, w, h = map(int, args[:4])
        print(settle(x, y, w, h, args[4], int(args[5]), int(args[6])))
    elif cmd == "same":
        x, y, w, h = map(int, args[:4])
        print(same(x, y, w, h, args[4], int(args[5])))
    elif cmd == "close":
        print(close(int(args[0], 0)))
    elif cmd == "startup":
        print(startup(*map(int, args)))
    elif cmd == "hash":
        print(hexhash(*map(int, args)))
    else:
        fn = {"changed": changed, "stable": stable, "frames": frames, "drawn": drawn, "nored": nored}[cmd]
        print(fn(*map(int, args)))


if __name__ == "__main__":
    main(sys.argv[1:])
