package brand_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"paygate/core/brand"
)

// webp1x1 is a 1×1 lossless WebP (Go has no WebP encoder to make one).
const webp1x1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

func picture(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 5), 120, 255})
		}
	}
	return img
}

func pngOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func join(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// pngWithChunk inserts a chunk (with its right CRC) before a PNG's IEND.
func pngWithChunk(t *testing.T, typ, data string) []byte {
	t.Helper()
	p := pngOf(t, picture(4, 4))
	iend := len(p) - 12
	chunk := make([]byte, 0, 12+len(data))
	n := len(data)
	chunk = append(chunk, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	chunk = append(chunk, typ...)
	chunk = append(chunk, data...)
	crc := crc32.ChecksumIEEE(append([]byte(typ), data...))
	chunk = append(chunk, byte(crc>>24), byte(crc>>16), byte(crc>>8), byte(crc))
	return join(p[:iend], chunk, p[iend:])
}

func TestCheckLogo(t *testing.T) {
	webp, err := base64.StdEncoding.DecodeString(webp1x1)
	if err != nil {
		t.Fatal(err)
	}
	good := pngOf(t, picture(16, 8))
	jpg := jpegOf(t, picture(16, 8))
	var gifBuf bytes.Buffer
	if err := gif.Encode(&gifBuf, picture(4, 4), nil); err != nil {
		t.Fatal(err)
	}
	huge := pngOf(t, image.NewGray(image.Rect(0, 0, 5000, 1))) // small file, too wide
	big := make([]byte, brand.MaxLogoBytes+1)
	copy(big, good)

	cases := []struct {
		name     string
		in       []byte
		wantErr  error
		wantType string
	}{
		{"png", good, nil, "image/png"},
		{"jpeg", jpg, nil, "image/jpeg"},
		{"webp becomes png", webp, nil, "image/png"},
		{"png with a harmless text chunk", pngWithChunk(t, "tEXt", "Software\x00paint"), nil, "image/png"},
		{"empty", nil, brand.ErrLogoEmpty, ""},
		{"over 512 KB", big, brand.ErrLogoTooLarge, ""},
		{"gif", gifBuf.Bytes(), brand.ErrLogoType, ""},
		{"svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), brand.ErrLogoType, ""},
		{"html", []byte("<!doctype html><html><body>hi</body></html>"), brand.ErrLogoType, ""},
		{"png magic then garbage", join([]byte("\x89PNG\r\n\x1a\n"), []byte("not really a png at all, only its magic bytes......")), brand.ErrLogoPolyglot, ""},
		{"truncated png", good[:len(good)/2], brand.ErrLogoPolyglot, ""},
		{"png with a script after IEND", join(good, []byte("<script>alert(1)</script>")), brand.ErrLogoPolyglot, ""},
		{"png with bytes after IEND", join(good, []byte("xxxxxxxx")), brand.ErrLogoPolyglot, ""},
		{"png with html in a text chunk", pngWithChunk(t, "tEXt", "Comment\x00<HTML><body onload=x()>"), brand.ErrLogoPolyglot, ""},
		{"jpeg with html after EOI", join(jpg, []byte("<html><script>x()</script></html>")), brand.ErrLogoPolyglot, ""},
		{"jpeg with html in a comment", join(jpg[:2], []byte("\xFF\xFE\x00\x20<html><script>x()</script></html>"), jpg[2:]), brand.ErrLogoPolyglot, ""},
		{"jpeg magic, png body", join([]byte{0xFF, 0xD8, 0xFF}, good, []byte{0xFF, 0xD9}), brand.ErrLogoInvalid, ""},
		{"webp magic, broken body", join(webp[:20], bytes.Repeat([]byte{0}, len(webp)-20)), brand.ErrLogoInvalid, ""},
		{"webp with a wrong RIFF length", join(webp, []byte("xx")), brand.ErrLogoPolyglot, ""},
		{"too wide", huge, brand.ErrLogoSize, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := brand.CheckLogo(c.in)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("err = %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil || got.ContentType != c.wantType {
				t.Fatalf("got %q, %v; want %q", got.ContentType, err, c.wantType)
			}
			// The stored bytes are a fresh encoding that decodes as their type.
			_, format, err := image.Decode(bytes.NewReader(got.Body))
			if err != nil || "image/"+format != got.ContentType {
				t.Fatalf("re-encoded logo decodes as %q (%v)", format, err)
			}
			if bytes.Contains(got.Body, []byte("Software")) {
				t.Fatal("metadata of the upload survived")
			}
		})
	}
}
