package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// qrQuietZone is the blank border, in modules, that QR readers need around
// the code (ISO/IEC 18004).
const qrQuietZone = 4

// QRPNG is text as a black-on-white QR code PNG at most size pixels wide
// (medium error correction, quiet zone included; a module is never less
// than one pixel).
func QRPNG(text string, size int) ([]byte, error) {
	code, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, fmt.Errorf("encode QR code: %w", err)
	}
	var bits [][]bool
	if err := code.Save(bitmapWriter{&bits}); err != nil {
		return nil, fmt.Errorf("encode QR code: %w", err)
	}
	modules := len(bits) + 2*qrQuietZone
	scale := max(1, size/modules)
	img := image.NewPaletted(image.Rect(0, 0, modules*scale, modules*scale), color.Palette{color.White, color.Black})
	for y, row := range bits {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := range scale {
				off := img.PixOffset((x+qrQuietZone)*scale, (y+qrQuietZone)*scale+dy)
				for dx := range scale {
					img.Pix[off+dx] = 1
				}
			}
		}
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, fmt.Errorf("write QR code: %w", err)
	}
	return out.Bytes(), nil
}

// bitmapWriter takes the code's modules (rows of dark or light) from the
// encoder, which writes through a Writer.
type bitmapWriter struct{ bits *[][]bool }

func (w bitmapWriter) Write(m qrcode.Matrix) error {
	*w.bits = m.Bitmap()
	return nil
}

func (bitmapWriter) Close() error { return nil }
