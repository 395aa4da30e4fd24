package brand_test

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"runtime"
	"testing"

	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
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

// bomb is a PNG of w × h 16-bit RGBA pixels, all zero, written row by row
// so making it allocates nothing near its decoded size (w·h·8 bytes): it
// compresses about a thousand times (4096 × 4096 is 128 MB decoded, some
// 130 KB on disk).
func bomb(t *testing.T, w, h int) []byte {
	t.Helper()
	var idat bytes.Buffer
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, 1+w*8) // filter byte 0, then the row's pixels
	for range h {
		if _, err := z.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	chunk := func(typ string, data []byte) []byte {
		c := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		c = append(append(c, typ...), data...)
		return binary.BigEndian.AppendUint32(c, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, uint32(w)), uint32(h))
	ihdr = append(ihdr, 16, 6, 0, 0, 0) // 16 bits, RGBA, deflate, no filter method, no interlace
	return join([]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr), chunk("IDAT", idat.Bytes()), chunk("IEND", nil))
}

// allocated is how many bytes fn allocated on the heap.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLogoBombIsRefusedFromItsHeader: a small PNG whose header names
// 4096 × 4096 16-bit pixels (128 MB decoded) is refused by its dimensions
// (logo_too_many_pixels) without being decoded: CheckLogo allocates a few
// MB at most (the file's copies), never the bitmap. The largest side
// allowed still decodes and is re-encoded.
func TestLogoBombIsRefusedFromItsHeader(t *testing.T) {
	b := bomb(t, 4096, 4096)
	if len(b) > brand.MaxLogoBytes {
		t.Fatalf("the bomb is %d bytes, past the size limit: it would not test the decoder", len(b))
	}
	var err error
	if n := allocated(func() { _, err = brand.CheckLogo(b) }); n > 8<<20 {
		t.Fatalf("CheckLogo of the bomb allocated %d MB: it decoded the image", n>>20)
	}
	if e, ok := errs.As(err); !ok || !errors.Is(err, brand.ErrLogoSize) || e.Code != "logo_too_many_pixels" || len(e.Fields["logo"]) != 1 {
		t.Fatalf("bomb: %v", err)
	}

	for _, c := range []struct {
		w, h int
		ok   bool
	}{{brand.MaxLogoSide, brand.MaxLogoSide, true}, {brand.MaxLogoSide + 1, 1, false}, {1, brand.MaxLogoSide + 1, false}} {
		got, err := brand.CheckLogo(bomb(t, c.w, c.h))
		if c.ok != (err == nil) || (!c.ok && !errors.Is(err, brand.ErrLogoSize)) || (c.ok && got.ContentType != "image/png") {
			t.Errorf("%d × %d: %q, %v", c.w, c.h, got.ContentType, err)
		}
	}
}
