package heap

import (
	"image"
	"image/color"

	heapmodel "androprof/model/heap"
)

// bitmapImage turns an android.graphics.Bitmap's pixels, as a dump holds them (the bytes of
// its native buffer, row by row), into an image; nil for a layout it does not know or pixels
// that fall short of the bitmap's size (a dump from untrusted hands can say anything).
func bitmapImage(b *heapmodel.Bitmap) image.Image {
	if b == nil || b.Width <= 0 || b.Height <= 0 || b.Width > 1<<14 || b.Height > 1<<14 {
		return nil
	}
	n := b.Width * b.Height
	img := image.NewNRGBA(image.Rect(0, 0, b.Width, b.Height))
	switch b.Format {
	case "ARGB_8888", "RGBA_8888": // Android keeps it as R, G, B, A bytes
		if len(b.Pixels) < 4*n {
			return nil
		}
		copy(img.Pix, b.Pixels[:4*n])
	case "RGB_565": // little-endian 16-bit words: 5 bits red, 6 green, 5 blue
		if len(b.Pixels) < 2*n {
			return nil
		}
		for i := range n {
			v := uint16(b.Pixels[2*i]) | uint16(b.Pixels[2*i+1])<<8
			img.Set(i%b.Width, i/b.Width, color.NRGBA{R: uint8(v>>11) << 3, G: uint8(v>>5&0x3f) << 2, B: uint8(v&0x1f) << 3, A: 0xff})
		}
	case "ALPHA_8":
		if len(b.Pixels) < n {
			return nil
		}
		for i := range n {
			img.Set(i%b.Width, i/b.Width, color.NRGBA{A: b.Pixels[i]})
		}
	default:
		return nil
	}
	return img
}
