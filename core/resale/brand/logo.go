package brand

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"

	"paygate/core/platform/errs"
)

const (
	// MaxLogoBytes is the largest logo accepted: 512 KB.
	MaxLogoBytes = 512 << 10
	// MaxLogoSide bounds each dimension, read from the image's header
	// before anything is decoded: a small file (a 130 KB 16-bit PNG of
	// 4096 × 4096 compresses that well) cannot make the server decode a
	// huge bitmap. 1024 × 1024 decodes to at most 8 MB (16-bit RGBA).
	MaxLogoSide = 1024
)

// Logo is a checked logo, re-encoded: what is stored and served.
type Logo struct {
	Body        []byte
	ContentType string // image/png or image/jpeg
	Ext         string // png or jpg
}

func logoError(msg string) error {
	return errs.Validation(map[string][]string{"logo": {msg}})
}

var (
	ErrLogoEmpty    = logoError("is an empty file")
	ErrLogoTooLarge = logoError("must be at most 512 KB")
	ErrLogoType     = logoError("must be a PNG, JPEG or WebP image")
	ErrLogoInvalid  = logoError("is not a valid image of its type")
	ErrLogoPolyglot = logoError("holds data besides the image (markup, script or bytes past its end)")
	// ErrLogoSize has its own code (logo_too_many_pixels): the header
	// names dimensions past MaxLogoSide, and the image was not decoded.
	ErrLogoSize = &errs.Error{Kind: errs.Invalid, Code: "logo_too_many_pixels", Message: "The logo may be at most 1024 × 1024 pixels",
		Fields: map[string][]string{"logo": {"must be at most 1024 × 1024 pixels"}}}
)

// sniff names the format by the file's magic bytes: "png", "jpeg", "webp"
// (the names image.Decode reports), or "".
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return "jpeg"
	case len(b) >= 16 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP" && string(b[12:15]) == "VP8":
		return "webp"
	}
	return ""
}

// markup are byte strings no image of ours carries and an HTML, SVG or XML
// reader acts on (checked case-insensitively over the whole file).
var markup = [][]byte{[]byte("<script"), []byte("<html"), []byte("<svg"), []byte("<?xml"), []byte("<!doctype"),
	[]byte("<body"), []byte("<iframe"), []byte("<img"), []byte("<object"), []byte("<embed"), []byte("javascript:"), []byte("<?php")}

// CheckLogo accepts a PNG, JPEG or WebP logo by its content, never by a
// name or a declared type: the magic bytes name a format, the whole file
// decodes as that same format, nothing follows the image's end (PNG's IEND,
// JPEG's EOI, WebP's RIFF length), no markup hides inside, and the
// dimensions its header names are bounded (MaxLogoSide) before a pixel is
// decoded. The image is then re-encoded (PNG stays PNG and
// WebP becomes PNG, losslessly; JPEG stays JPEG) so the stored bytes hold
// only pixels: no metadata, comment or trailing chunk of the upload survives.
func CheckLogo(b []byte) (Logo, error) {
	switch {
	case len(b) == 0:
		return Logo{}, ErrLogoEmpty
	case len(b) > MaxLogoBytes:
		return Logo{}, ErrLogoTooLarge
	}
	format := sniff(b)
	if format == "" {
		return Logo{}, ErrLogoType
	}
	lower := bytes.ToLower(b)
	for _, m := range markup {
		if bytes.Contains(lower, m) {
			return Logo{}, ErrLogoPolyglot
		}
	}
	if !endsCleanly(format, b) {
		return Logo{}, ErrLogoPolyglot
	}
	cfg, err := decodeConfig(format, b)
	if err != nil {
		return Logo{}, ErrLogoInvalid
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxLogoSide || cfg.Height > MaxLogoSide {
		return Logo{}, ErrLogoSize
	}
	img, err := decode(format, b)
	if err != nil {
		return Logo{}, ErrLogoInvalid
	}
	var out bytes.Buffer
	if format == "jpeg" {
		if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 92}); err != nil {
			return Logo{}, ErrLogoInvalid
		}
		return Logo{Body: out.Bytes(), ContentType: "image/jpeg", Ext: "jpg"}, nil
	}
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		return Logo{}, ErrLogoInvalid
	}
	return Logo{Body: out.Bytes(), ContentType: "image/png", Ext: "png"}, nil
}

// decodeConfig and decode use the sniffed format's decoder only, so the
// format the content decodes as is the one its magic bytes named.
func decodeConfig(format string, b []byte) (image.Config, error) {
	r := bytes.NewReader(b)
	switch format {
	case "png":
		return png.DecodeConfig(r)
	case "jpeg":
		return jpeg.DecodeConfig(r)
	default:
		return webp.DecodeConfig(r)
	}
}

func decode(format string, b []byte) (image.Image, error) {
	r := bytes.NewReader(b)
	switch format {
	case "png":
		return png.Decode(r)
	case "jpeg":
		return jpeg.Decode(r)
	default:
		return webp.Decode(r)
	}
}

// endsCleanly reports whether the file ends where its format says the image
// ends: a PNG's chunks walk to an IEND that is the last byte, a JPEG ends in
// EOI (FF D9), a WebP's RIFF length covers exactly the file.
func endsCleanly(format string, b []byte) bool {
	switch format {
	case "png":
		i := 8
		for i+12 <= len(b) {
			n := int(binary.BigEndian.Uint32(b[i:]))
			if n > len(b) {
				return false
			}
			typ := string(b[i+4 : i+8])
			i += 12 + n
			if typ == "IEND" {
				return i == len(b)
			}
		}
		return false
	case "jpeg":
		return len(b) >= 4 && b[len(b)-2] == 0xFF && b[len(b)-1] == 0xD9
	default:
		return int(binary.LittleEndian.Uint32(b[4:8]))+8 == len(b)
	}
}
