package tray

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// IconSize is the side of the tray icon in pixels. StatusNotifierItem hosts
// scale the pixmap to the panel (16–48 px); 64 px keeps the D-Bus property
// small (16 KiB of ARGB) and sharp on HiDPI panels.
const IconSize = 64

// badgeColour is the dot drawn on the icon while reminders wait to be seen.
var badgeColour = color.NRGBA{R: 0xE5, G: 0x39, B: 0x35, A: 0xFF}

// Icons decodes src (a PNG, JPEG or GIF of any size) and returns it scaled
// to size×size as PNG, plus the same icon with a red badge dot in its
// top-right corner. An undecodable src is an error.
func Icons(src []byte, size int) (plain, badged []byte, err error) {
	img, _, err := image.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, nil, fmt.Errorf("tray: decode icon: %w", err)
	}
	small := scale(img, size)
	if plain, err = encodePNG(small); err != nil {
		return nil, nil, err
	}
	withDot := image.NewNRGBA(small.Bounds())
	draw.Draw(withDot, withDot.Bounds(), small, image.Point{}, draw.Src)
	drawBadge(withDot)
	if badged, err = encodePNG(withDot); err != nil {
		return nil, nil, err
	}
	return plain, badged, nil
}

// scale shrinks (or enlarges) img to size×size by averaging the source
// pixels that fall under each target pixel (a box filter on
// premultiplied colour, so transparent edges do not darken).
func scale(img image.Image, size int) *image.NRGBA {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		y0, y1 := b.Min.Y+y*sh/size, b.Min.Y+(y+1)*sh/size
		if y1 <= y0 {
			y1 = y0 + 1
		}
		for x := 0; x < size; x++ {
			x0, x1 := b.Min.X+x*sw/size, b.Min.X+(x+1)*sw/size
			if x1 <= x0 {
				x1 = x0 + 1
			}
			var r, g, bl, a, n uint64
			for sy := y0; sy < y1; sy++ {
				for sx := x0; sx < x1; sx++ {
					cr, cg, cb, ca := img.At(sx, sy).RGBA() // premultiplied, 16 bit
					r, g, bl, a, n = r+uint64(cr), g+uint64(cg), bl+uint64(cb), a+uint64(ca), n+1
				}
			}
			c := color.RGBA64{R: uint16(r / n), G: uint16(g / n), B: uint16(bl / n), A: uint16(a / n)}
			out.Set(x, y, c)
		}
	}
	return out
}

// drawBadge paints a red dot with a white ring in the top-right corner of
// img: the dot's diameter is about 40% of the icon.
func drawBadge(img *image.NRGBA) {
	size := img.Bounds().Dx()
	r := float64(size) * 0.2
	ring := r + float64(size)/32 + 1
	cx, cy := float64(size)-ring, ring
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			d := dx*dx + dy*dy
			switch {
			case d <= r*r:
				img.SetNRGBA(x, y, badgeColour)
			case d <= ring*ring:
				img.SetNRGBA(x, y, color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF})
			}
		}
	}
}

func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("tray: encode icon: %w", err)
	}
	return buf.Bytes(), nil
}
