package httpapi_test

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"runtime"
	"testing"
	"time"
)

// pngBomb is a PNG of w × h 16-bit RGBA pixels, all zero, written row by
// row so making it allocates nothing near its decoded size (w·h·8 bytes):
// 4096 × 4096 is 128 MB decoded and some 130 KB on disk.
func pngBomb(t *testing.T, w, h int) []byte {
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
	return bytes.Join([][]byte{[]byte("\x89PNG\r\n\x1a\n"), chunk("IHDR", ihdr), chunk("IDAT", idat.Bytes()), chunk("IEND", nil)}, nil)
}

// TestLogoBombThroughTheServer: the bomb of issue 43 (a 16-bit 4096 × 4096
// PNG of some 130 KB) is refused with 422 logo_too_many_pixels from its
// header: the whole request allocates far less than the 128 MB bitmap, so
// nothing was decoded. Nothing is stored, and a good logo still goes in.
func TestLogoBombThroughTheServer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		res := e.newCustomer("reseller", "starter", "0.00")
		b := pngBomb(t, 4096, 4096)
		if len(b) > 512<<10 {
			t.Fatalf("the bomb is %d bytes: the size limit, not the header, would refuse it", len(b))
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start := time.Now()
		r := e.putLogo(res.token, "image/png", b)
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if r.status != 422 || r.str("error") != "logo_too_many_pixels" || len(r.fieldErrors("logo")) != 1 {
			t.Fatalf("bomb: %d %s", r.status, r.raw)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 48<<20 {
			t.Fatalf("the bomb's upload allocated %d MB in %s: it was decoded", n>>20, took)
		}
		if g := e.must(e.do("GET", "/api/v1/panel/brand", res.token, nil), 200); g.body["logo_url"] != nil {
			t.Fatalf("a refused logo was stored: %s", g.raw)
		}
		e.must(e.putLogo(res.token, "image/png", pngBomb(t, 1024, 1024)), 200) // the largest allowed
		e.ledgerClean()
	})
}

// TestOneLogoUploadAtATimePerReseller: while a reseller's upload is being
// read (its body still arriving), its next upload is 429
// logo_upload_in_progress with Retry-After, and another reseller's goes
// through; once the first ends, the reseller uploads again.
func TestOneLogoUploadAtATimePerReseller(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		res := e.newCustomer("reseller", "starter", "0.00")
		other := e.newCustomer("reseller", "starter", "0.00")
		logo := smallPNG(t)

		// slow starts an upload that sends half its file, then the rest
		// when finish closes; its status arrives on the channel. A plain
		// client: the contract-checking one reads a request's whole body
		// before sending it.
		slow := func(finish chan struct{}) chan int {
			pr, pw := io.Pipe()
			mw := multipart.NewWriter(pw)
			go func() {
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", `form-data; name="logo"; filename="logo.png"`)
				h.Set("Content-Type", "image/png")
				part, _ := mw.CreatePart(h)
				part.Write(logo[:len(logo)/2])
				<-finish
				part.Write(logo[len(logo)/2:])
				pw.CloseWithError(mw.Close())
			}()
			req, _ := http.NewRequest("PUT", e.url+"/api/v1/panel/brand/logo", pr)
			req.Header.Set("Content-Type", mw.FormDataContentType())
			req.Header.Set("Authorization", "Bearer "+res.token)
			status := make(chan int, 1)
			go func() {
				r, err := http.DefaultClient.Do(req)
				if err != nil {
					status <- 0
					return
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
				status <- r.StatusCode
			}()
			return status
		}

		// A quick upload sent while the slow one holds the reseller's turn
		// is refused. Before the slow one reaches the handler a quick one
		// may go through, and may even refuse the slow one: then, another
		// try.
		for try := 1; ; try++ {
			finish := make(chan struct{})
			first := slow(finish)
			time.Sleep(100 * time.Millisecond)
			var busy resp
			for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
				if busy = e.putLogo(res.token, "image/png", logo); busy.status == 429 || time.Now().After(deadline) {
					break
				}
				if busy.status != 200 {
					t.Fatalf("a second upload: %d %s", busy.status, busy.raw)
				}
			}
			if busy.status == 429 {
				if busy.str("error") != "logo_upload_in_progress" || busy.header.Get("Retry-After") == "" {
					t.Fatalf("an upload beside a running one: %d %s %v", busy.status, busy.raw, busy.header)
				}
				e.must(e.putLogo(other.token, "image/png", logo), 200) // another reseller is not held up
			}
			close(finish)
			status := <-first
			if busy.status == 429 && status == 200 {
				break
			}
			if status != 429 || try == 3 {
				t.Fatalf("try %d: the slow upload %d, the quick one beside it %d %s", try, status, busy.status, busy.raw)
			}
		}
		e.must(e.putLogo(res.token, "image/png", logo), 200) // its turn is free again
		e.ledgerClean()
	})
}
