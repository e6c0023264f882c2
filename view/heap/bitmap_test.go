package heap

import (
	"image/color"
	"testing"

	heapmodel "androprof/model/heap"
)

// A Bitmap's pixels become an image in each layout Android keeps them in; pixels that fall
// short of the size, or a layout not known, make none.
func TestBitmapImage(t *testing.T) {
	argb := &heapmodel.Bitmap{Width: 2, Height: 1, Format: "ARGB_8888", Pixels: []byte{255, 0, 0, 255, 0, 0, 255, 128}}
	img := bitmapImage(argb)
	if img == nil || img.At(0, 0) != (color.NRGBA{R: 255, A: 255}) || img.At(1, 0) != (color.NRGBA{B: 255, A: 128}) {
		t.Fatalf("ARGB_8888: %v", img)
	}
	// RGB_565, little-endian: 0xf800 is pure red, 0x07e0 pure green.
	rgb := &heapmodel.Bitmap{Width: 1, Height: 2, Format: "RGB_565", Pixels: []byte{0x00, 0xf8, 0xe0, 0x07}}
	img = bitmapImage(rgb)
	if img == nil || img.At(0, 0) != (color.NRGBA{R: 0xf8, A: 255}) || img.At(0, 1) != (color.NRGBA{G: 0xfc, A: 255}) {
		t.Fatalf("RGB_565: %v %v", img.At(0, 0), img.At(0, 1))
	}
	for name, b := range map[string]*heapmodel.Bitmap{
		"short":    {Width: 2, Height: 2, Format: "ARGB_8888", Pixels: make([]byte, 15)},
		"unknown":  {Width: 1, Height: 1, Format: "HARDWARE", Pixels: make([]byte, 4)},
		"negative": {Width: -1, Height: 1, Format: "ALPHA_8", Pixels: make([]byte, 4)},
		"huge":     {Width: 1 << 20, Height: 1 << 20, Format: "ALPHA_8"},
	} {
		if bitmapImage(b) != nil {
			t.Errorf("%s: an image", name)
		}
	}
}
