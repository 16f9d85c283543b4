package attach

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"playchat/backend/apperr"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 0, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// jpegWithOrientation is a w×h JPEG whose left half is red and right half
// blue, with an EXIF APP1 segment holding Orientation o and a GPS tag
// marker text (which must not survive).
func jpegWithOrientation(t *testing.T, w, h, o int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{255, 0, 0, 255}
			if x >= w/2 {
				c = color.RGBA{0, 0, 255, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, &jpeg.Options{Quality: 95}); err != nil {
		t.Fatal(err)
	}
	tiff := []byte("II*\x00")
	tiff = binary.LittleEndian.AppendUint32(tiff, 8)
	tiff = binary.LittleEndian.AppendUint16(tiff, 1)
	tiff = binary.LittleEndian.AppendUint16(tiff, 0x0112)
	tiff = binary.LittleEndian.AppendUint16(tiff, 3)
	tiff = binary.LittleEndian.AppendUint32(tiff, 1)
	tiff = binary.LittleEndian.AppendUint16(tiff, uint16(o))
	tiff = append(tiff, 0, 0, 0, 0, 0, 0)
	tiff = append(tiff, []byte("GPS-SECRET-35.6N")...)
	seg := append([]byte("Exif\x00\x00"), tiff...)
	app1 := []byte{0xFF, 0xE1}
	app1 = binary.BigEndian.AppendUint16(app1, uint16(len(seg)+2))
	app1 = append(app1, seg...)
	raw := b.Bytes()
	return append(append(append([]byte{}, raw[:2]...), app1...), raw[2:]...)
}

func code(err error) apperr.Code {
	var e *apperr.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestALargeImageIsDownscaledToTheLongSideAndReencoded(t *testing.T) {
	p, err := Prepare("wide.png", pngOf(t, 4000, 1000))
	if err != nil {
		t.Fatal(err)
	}
	if p.Kind != KindImage || p.MIME != "image/png" || p.Width != 2048 || p.Height != 512 || p.OriginalWidth != 4000 {
		t.Fatalf("got %s %s %dx%d (from %dx%d)", p.Kind, p.MIME, p.Width, p.Height, p.OriginalWidth, p.OriginalHeight)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(p.Data))
	if err != nil || cfg.Width != 2048 || cfg.Height != 512 {
		t.Fatalf("stored image %dx%d, %v", cfg.Width, cfg.Height, err)
	}
	if p.SHA256 != hashOf(p.Data) || len(p.SHA256) != 64 {
		t.Errorf("sha %q", p.SHA256)
	}
}

func TestASmallImageKeepsItsSize(t *testing.T) {
	p, err := Prepare("small.png", pngOf(t, 300, 200))
	if err != nil || p.Width != 300 || p.Height != 200 {
		t.Fatalf("%+v %v", p.Width, err)
	}
}

func TestTheTypeComesFromTheContentNotTheName(t *testing.T) {
	p, err := Prepare("notes.txt", pngOf(t, 10, 10))
	if err != nil || p.Kind != KindImage {
		t.Fatalf("a PNG named .txt: %s %v", p.Kind, err)
	}
	p, err = Prepare("photo.png", []byte("just some text\n"))
	if err != nil || p.Kind != KindText || p.MIME != "text/plain" {
		t.Fatalf("text named .png: %s %s %v", p.Kind, p.MIME, err)
	}
	_, err = Prepare("archive.txt", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00rest of a zip"))
	if code(err) != apperr.AttachUnsupported {
		t.Fatalf("a zip named .txt: %v", err)
	}
}

func TestJPEGOrientationIsAppliedAndEXIFDropped(t *testing.T) {
	src := jpegWithOrientation(t, 40, 20, 6)
	if jpegOrientation(src) != 6 {
		t.Fatalf("orientation %d", jpegOrientation(src))
	}
	p, err := Prepare("phone.jpg", src)
	if err != nil {
		t.Fatal(err)
	}
	if p.MIME != "image/jpeg" || p.Width != 20 || p.Height != 40 {
		t.Fatalf("got %s %dx%d, want an upright 20x40 JPEG", p.MIME, p.Width, p.Height)
	}
	if bytes.Contains(p.Data, []byte("Exif")) || bytes.Contains(p.Data, []byte("GPS-SECRET")) {
		t.Error("the re-encoded image still carries EXIF")
	}
	img, err := jpeg.Decode(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatal(err)
	}
	// Rotated 90° clockwise: the red left half is now on top.
	if r, _, b, _ := img.At(10, 5).RGBA(); r < b {
		t.Errorf("top is not red: r=%d b=%d", r, b)
	}
	if r, _, b, _ := img.At(10, 35).RGBA(); b < r {
		t.Errorf("bottom is not blue: r=%d b=%d", r, b)
	}
}

func TestGIFBecomesPNG(t *testing.T) {
	pal := image.NewPaletted(image.Rect(0, 0, 8, 8), []color.Color{color.Black, color.White})
	var b bytes.Buffer
	if err := gif.Encode(&b, pal, nil); err != nil {
		t.Fatal(err)
	}
	p, err := Prepare("a.gif", b.Bytes())
	if err != nil || p.MIME != "image/png" {
		t.Fatalf("%s %v", p.MIME, err)
	}
}

func TestLimits(t *testing.T) {
	big := append(pngOf(t, 2, 2), make([]byte, MaxImageBytes)...)
	if _, err := Prepare("big.png", big); code(err) != apperr.AttachTooLarge {
		t.Errorf("image over 20 MiB: %v", err)
	}
	if _, err := Prepare("long.txt", bytes.Repeat([]byte("a"), MaxTextBytes+1)); code(err) != apperr.AttachTextTooLong {
		t.Errorf("text over 1 MiB: %v", err)
	}
	if _, err := Prepare("empty.txt", nil); code(err) != apperr.AttachEmpty {
		t.Errorf("empty: %v", err)
	}
	broken := pngOf(t, 50, 50)
	if _, err := Prepare("broken.png", broken[:len(broken)/2]); code(err) != apperr.AttachImageBroken {
		t.Errorf("truncated PNG: %v", err)
	}
	many := make([]Prepared, MaxPerMessage+1)
	if code(CheckMessage(many)) != apperr.AttachTooMany {
		t.Error("11 attachments accepted")
	}
	heavy := []Prepared{{OriginalSize: 30 << 20}, {OriginalSize: 30 << 20}}
	if code(CheckMessage(heavy)) != apperr.AttachMessageTooLarge {
		t.Error("60 MiB in one message accepted")
	}
	if CheckMessage(heavy[:1]) != nil {
		t.Error("30 MiB refused")
	}
}

func TestTextFiles(t *testing.T) {
	if _, err := Prepare("latin1.txt", []byte("caf\xe9 au lait")); code(err) != apperr.AttachNotUTF8 {
		t.Errorf("Latin-1: %v", err)
	}
	p, err := Prepare("data.txt", []byte(`{"a": [1, 2]}`))
	if err != nil || p.MIME != "application/json" {
		t.Errorf("JSON by content: %s %v", p.MIME, err)
	}
	p, err = Prepare("表.csv", []byte("\xEF\xBB\xBFname,値\r\nx,1\r\n"))
	if err != nil || p.MIME != "text/csv" || p.Text != "name,値\nx,1\n" {
		t.Fatalf("CSV with a BOM: %s %q %v", p.MIME, p.Text, err)
	}
	block := Block(p.Name, p.MIME, p.Text)
	want := "<attachment name=\"表.csv\" type=\"text/csv\" chars=\"11\">\nname,値\nx,1\n\n</attachment>"
	if block != want || !strings.HasPrefix(block, BlockPrefix) {
		t.Errorf("block\n%q\nwant\n%q", block, want)
	}
	p, err = Prepare("../../etc/main.go", []byte("package main\n"))
	if err != nil || p.Name != "main.go" {
		t.Errorf("name %q %v", p.Name, err)
	}
}
