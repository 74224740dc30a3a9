#!/usr/bin/env python3
"""waitpixel.py WINDOW X Y0 Y1 R,G,B [TIMEOUT_S]

Polls the X window WINDOW (an id from xdotool) on $DISPLAY every 10 ms until a pixel of
column X, rows Y0..Y1 has the colour R,G,B; then prints the wall-clock time (ns) of the
screenshot that saw it and exits 0. Exits 1 after TIMEOUT_S (default 20) seconds.

It reads the pixels straight from the X server through libX11 (XGetImage of that one
column, well under a millisecond), so watching does not slow the app it watches:
ImageMagick's `import` costs 50-150 ms a shot, and polled without pause on a 2-core
machine it delayed the very paint it was waiting for. Used by bench/overhead/app.sh.
Needs libX11 (libx11-6, which WebKitGTK already pulls in)."""
import ctypes
import ctypes.util
import sys
import time


class XImage(ctypes.Structure):
    # The leading fields of Xlib's XImage (X11/Xlib.h), enough to read the pixels.
    _fields_ = [
        ("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_ubyte)),
        ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
        ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
        ("red_mask", ctypes.c_ulong), ("green_mask", ctypes.c_ulong), ("blue_mask", ctypes.c_ulong),
    ]


ZPIXMAP = 2
ALL_PLANES = ctypes.c_ulong(0xFFFFFFFF)


def channel(v, mask):
    return (v & mask) >> ((mask & -mask).bit_length() - 1)


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    win, x, y0, y1 = int(sys.argv[1], 0), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    want = tuple(int(c) for c in sys.argv[5].split(","))
    timeout = float(sys.argv[6]) if len(sys.argv) > 6 else 20.0
    name = ctypes.util.find_library("X11")
    if not name:
        sys.exit("waitpixel: libX11 is missing: apt-get install libx11-6")
    x11 = ctypes.CDLL(name)
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XGetImage.restype = ctypes.POINTER(XImage)
    x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                              ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x11.XFree.argtypes = [ctypes.c_void_p]
    x11.XSetErrorHandler.argtypes = [ctypes.c_void_p]
    # A window that is not (yet) viewable makes XGetImage fail with BadMatch; ignore
    # the error (the default handler would exit) and try again.
    handler = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
    x11.XSetErrorHandler(ctypes.cast(handler, ctypes.c_void_p))
    dpy = x11.XOpenDisplay(None)
    if not dpy:
        sys.exit("waitpixel: cannot open the X display (is DISPLAY set?)")
    rows = y1 - y0 + 1
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        t = time.time_ns()
        img = x11.XGetImage(dpy, win, x, y0, 1, rows, ALL_PLANES, ZPIXMAP)
        if img:
            im = img.contents
            step = im.bits_per_pixel // 8
            order = "little" if im.byte_order == 0 else "big"
            found = False
            for y in range(im.height):
                p = y * im.bytes_per_line
                v = int.from_bytes(bytes(im.data[p:p + step]), order)
                if (channel(v, im.red_mask), channel(v, im.green_mask), channel(v, im.blue_mask)) == want:
                    found = True
                    break
            x11.XFree(im.data)
            x11.XFree(img)
            if found:
                print(t)
                return
        time.sleep(0.01)
    sys.exit(1)


if __name__ == "__main__":
    main()
