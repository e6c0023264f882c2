//go:build linux

package main

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

// grab copies a window's pixels as RGBA into out (w*h*4 bytes); 0 on success.
static int grab(unsigned long win, unsigned char *out, int *w, int *h, int max) {
	Display *d = XOpenDisplay(NULL);
	if (!d) return 1;
	XWindowAttributes a;
	if (!XGetWindowAttributes(d, (Window)win, &a)) { XCloseDisplay(d); return 2; }
	if (a.width * a.height * 4 > max) { XCloseDisplay(d); return 3; }
	XImage *img = XGetImage(d, (Window)win, 0, 0, a.width, a.height, AllPlanes, ZPixmap);
	if (!img) { XCloseDisplay(d); return 4; }
	for (int y = 0; y < a.height; y++) {
		for (int x = 0; x < a.width; x++) {
			unsigned long p = XGetPixel(img, x, y);
			unsigned char *o = out + 4 * (y * a.width + x);
			o[0] = (p & img->red_mask) >> __builtin_ctzl(img->red_mask);
			o[1] = (p & img->green_mask) >> __builtin_ctzl(img->green_mask);
			o[2] = (p & img->blue_mask) >> __builtin_ctzl(img->blue_mask);
			o[3] = 255;
		}
	}
	*w = a.width; *h = a.height;
	XDestroyImage(img);
	XCloseDisplay(d);
	return 0;
}
*/
import "C"

import (
	"fmt"
	"image"
	"unsafe"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
)

// captureWindow reads the window's pixels from the X server. Fyne's own Capture reads the GL
// front buffer, which Mesa under Xvfb leaves black; what the X server shows is what a user sees.
// Other platforms fall back to Fyne's capture.
func captureWindow(w fyne.Window) (image.Image, error) {
	var handle uintptr
	if nw, ok := w.(driver.NativeWindow); ok {
		nw.RunNative(func(ctx any) {
			if x, ok := ctx.(driver.X11WindowContext); ok {
				handle = x.WindowHandle
			}
		})
	}
	if handle == 0 {
		return w.Canvas().Capture(), nil
	}
	img, err := grabX11(handle)
	if err != nil {
		return nil, fmt.Errorf("window %q: %w", w.Title(), err)
	}
	return img, nil
}

// grabX11 reads the pixels of X window id from the display $DISPLAY names.
func grabX11(id uintptr) (*image.RGBA, error) {
	const maxBytes = 8192 * 8192 * 4
	buf := C.malloc(maxBytes)
	defer C.free(buf)
	var width, height C.int
	if rc := C.grab(C.ulong(id), (*C.uchar)(buf), &width, &height, maxBytes); rc != 0 {
		return nil, fmt.Errorf("reading its pixels from the X server failed (step %d)", int(rc))
	}
	img := image.NewRGBA(image.Rect(0, 0, int(width), int(height)))
	copy(img.Pix, unsafe.Slice((*byte)(buf), len(img.Pix)))
	return img, nil
}
