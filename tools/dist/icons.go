package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
)

// writeIcons writes the app icon at each size (the source halved as often as
// needed, averaging 2×2 pixels in premultiplied colour) as <dir>/<size>.png.
// Debian's hicolor theme stops at 512×512; the source is 1024×1024.
func writeIcons(src, dir string, sizes ...int) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("decode %s: %w", src, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, size := range sizes {
		out := img
		for out.Bounds().Dx() > size {
			out = halve(out)
		}
		if out.Bounds().Dx() != size || out.Bounds().Dy() != size {
			return fmt.Errorf("%s is %dx%d; it cannot be halved to %dx%d", src, img.Bounds().Dx(), img.Bounds().Dy(), size, size)
		}
		if err := writePNG(filepath.Join(dir, fmt.Sprintf("%d.png", size)), out); err != nil {
			return err
		}
	}
	return nil
}

func halve(src image.Image) image.Image {
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx()/2, b.Dy()/2))
	for y := 0; y < b.Dy()/2; y++ {
		for x := 0; x < b.Dx()/2; x++ {
			var r, g, bl, a uint32
			for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				cr, cg, cb, ca := src.At(b.Min.X+2*x+d[0], b.Min.Y+2*y+d[1]).RGBA()
				r, g, bl, a = r+cr, g+cg, bl+cb, a+ca
			}
			dst.Set(x, y, color.RGBA64{uint16(r / 4), uint16(g / 4), uint16(bl / 4), uint16(a / 4)})
		}
	}
	return dst
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
