package topup

import (
	"bytes"
	"crypto/rand"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"paygate/core/platform/errs"
)

// MaxScreenshotBytes is the largest screenshot accepted: 5 MB.
const MaxScreenshotBytes = 5 << 20

// SniffBytes is how much of a file FileTypeOf needs to see.
const SniffBytes = 12

// FileType is an accepted screenshot type.
type FileType struct {
	Ext         string // of stored names, without the dot
	ContentType string
}

// Image reports a raster image (shown inline); a PDF is a download.
func (f FileType) Image() bool { return strings.HasPrefix(f.ContentType, "image/") }

var (
	PNG  = FileType{"png", "image/png"}
	JPEG = FileType{"jpg", "image/jpeg"}
	WebP = FileType{"webp", "image/webp"}
	PDF  = FileType{"pdf", "application/pdf"}
)

var fileTypes = []FileType{PNG, JPEG, WebP, PDF}

var (
	ErrScreenshotType     = errs.Validation(map[string][]string{"screenshot": {"must be a PNG, JPEG, WebP or PDF file"}})
	ErrScreenshotEmpty    = errs.Validation(map[string][]string{"screenshot": {"is an empty file"}})
	ErrScreenshotTooLarge = errs.Validation(map[string][]string{"screenshot": {"must be at most 5 MB"}})
)

// FileTypeOf recognises an accepted type by the file's first bytes (magic
// numbers); the declared content type and file name are never consulted.
func FileTypeOf(head []byte) (FileType, bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG, true
	case len(head) >= 12 && bytes.Equal(head[:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")):
		return WebP, true
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return PDF, true
	}
	return FileType{}, false
}

// FileTypeOfName is the type of a stored name, by the extension this
// package gave it.
func FileTypeOfName(name string) (FileType, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return FileType{}, false
	}
	for _, t := range fileTypes {
		if name[i+1:] == t.Ext {
			return t, true
		}
	}
	return FileType{}, false
}

// NewFileName is a fresh stored name: a ULID and the type's extension.
// Nothing of the client's file name is ever part of it.
func NewFileName(t FileType, now time.Time) string {
	return ulid.MustNew(ulid.Timestamp(now), rand.Reader).String() + "." + t.Ext
}
