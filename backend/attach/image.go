package attach

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"strings"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"playchat/backend/apperr"
)

// JPEGQuality is the quality re-encoded JPEG images are written with.
const JPEGQuality = 85

func isImageType(ct string) bool {
	switch ct {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return true
	}
	return false
}

func looksJSON(b []byte) bool {
	t := bytes.TrimSpace(b)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t)
}

// prepareImage decodes an image (PNG, JPEG, GIF's first frame, WebP),
// turns a JPEG upright by its EXIF orientation, downscales it so its long
// side is at most MaxImageSide (Catmull-Rom), and re-encodes it: JPEG
// (quality JPEGQuality) for a JPEG or an opaque WebP, PNG otherwise.
// Re-encoding writes no metadata, so EXIF (GPS position included), XMP
// and text chunks of the original are gone.
func prepareImage(name, ct string, data []byte) (Prepared, error) {
	broken := func(err error) error {
		return apperr.Wrap(apperr.AttachImageBroken, err, map[string]any{"name": name, "detail": err.Error()})
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if ct == "image/webp" {
		cfg, err = webp.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil {
		return Prepared{}, broken(err)
	}
	if px := cfg.Width * cfg.Height; px > MaxImagePixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return Prepared{}, apperr.New(apperr.AttachImageTooManyPixels, map[string]any{"name": name,
			"megapixels": math.Round(float64(px)/1e5) / 10, "max": MaxImagePixels / 1_000_000})
	}
	var img image.Image
	switch ct {
	case "image/png":
		img, err = png.Decode(bytes.NewReader(data))
	case "image/jpeg":
		img, err = jpeg.Decode(bytes.NewReader(data))
	case "image/gif":
		img, err = gif.Decode(bytes.NewReader(data))
	case "image/webp":
		img, err = webp.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return Prepared{}, broken(err)
	}
	if ct == "image/jpeg" {
		img = orient(img, jpegOrientation(data))
	}
	b := img.Bounds()
	ow, oh := b.Dx(), b.Dy()
	if w, h := fitSide(ow, oh, MaxImageSide); w != ow || h != oh {
		dst := image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.CatmullRom.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
		img = dst
	}
	asJPEG := ct == "image/jpeg" || (ct == "image/webp" && opaque(img))
	var buf bytes.Buffer
	mime := "image/png"
	if asJPEG {
		mime = "image/jpeg"
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: JPEGQuality})
	} else {
		err = png.Encode(&buf, img)
	}
	if err != nil {
		return Prepared{}, broken(fmt.Errorf("re-encode: %w", err))
	}
	out := buf.Bytes()
	fb := img.Bounds()
	return Prepared{Name: name, Kind: KindImage, MIME: mime, Data: out, SHA256: hashOf(out), OriginalSize: int64(len(data)),
		Width: fb.Dx(), Height: fb.Dy(), OriginalWidth: ow, OriginalHeight: oh}, nil
}

// fitSide returns w×h scaled down, keeping the aspect ratio, so the long
// side is at most max (unchanged when it already is; never below 1 px).
func fitSide(w, h, max int) (int, int) {
	long := w
	if h > long {
		long = h
	}
	if long <= max {
		return w, h
	}
	s := float64(max) / float64(long)
	nw, nh := int(math.Round(float64(w)*s)), int(math.Round(float64(h)*s))
	return maxInt(nw, 1), maxInt(nh, 1)
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// opaque reports whether img has no transparent pixel (a type without
// alpha always is).
func opaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// orient returns img turned upright for EXIF orientation o (1–8; anything
// else leaves it as it is).
func orient(img image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	dw, dh := w, h
	if o >= 5 {
		dw, dh = h, w
	}
	src := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(src, src.Bounds(), img, b.Min, draw.Src)
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var dx, dy int
			switch o {
			case 2: // mirrored horizontally
				dx, dy = w-1-x, y
			case 3: // rotated 180°
				dx, dy = w-1-x, h-1-y
			case 4: // mirrored vertically
				dx, dy = x, h-1-y
			case 5: // transposed
				dx, dy = y, x
			case 6: // rotated 90° clockwise to be upright
				dx, dy = h-1-y, x
			case 7: // transversed
				dx, dy = h-1-y, w-1-x
			case 8: // rotated 90° counter-clockwise to be upright
				dx, dy = y, w-1-x
			}
			i, j := src.PixOffset(x, y), dst.PixOffset(dx, dy)
			copy(dst.Pix[j:j+4], src.Pix[i:i+4])
		}
	}
	return dst
}

// IsImageMIME reports whether a stored attachment's MIME is an image's.
func IsImageMIME(mime string) bool { return strings.HasPrefix(mime, "image/") }
