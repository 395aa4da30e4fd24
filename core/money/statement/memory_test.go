package statement_test

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"testing"

	"paygate/core/money/statement"
)

// generated is a statement of n credit lines made as it is read, so the
// test itself holds no file.
type generated struct {
	n, i int
	buf  []byte
}

func (g *generated) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		switch {
		case g.i > g.n:
			return 0, io.EOF
		case g.i == 0:
			g.buf = []byte("Date,Narration,Ref No,Debit,Credit,Balance\n")
		default:
			g.buf = fmt.Appendf(g.buf[:0], "%02d/04/2024,UPI/%012d/PAYMENT FROM CUSTOMER NUMBER %d,%012d,,\"1,%03d.00\",\"%d.00\"\n",
				1+g.i%28, g.i, g.i, g.i, g.i%1000, 100000+g.i)
		}
		g.i++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Reading a statement holds a line at a time: all that grows with the file
// is the occurrence index (a 64-bit hash and a count per credit line, about
// 24 bytes; 64 allows for the map's doubling), never the lines themselves
// (about 100 bytes each here).
func TestReaderHoldsALineAndTheOccurrenceIndexNotTheFile(t *testing.T) {
	const lines = 100_000
	fileBytes := 0
	for g := (&generated{n: lines}); ; {
		b := make([]byte, 64<<10)
		n, err := g.Read(b)
		fileBytes += n
		if err != nil {
			break
		}
	}
	before := liveHeap()
	r, err := statement.NewReader(&generated{n: lines}, statement.Mapping{})
	if err != nil {
		t.Fatal(err)
	}
	var peak uint64
	read := 0
	for {
		_, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if read++; read%20_000 == 0 {
			peak = max(peak, liveHeap())
		}
	}
	if read != lines {
		t.Fatalf("read %d lines, want %d", read, lines)
	}
	grew := int64(peak) - int64(before)
	t.Logf("file %d bytes, live heap grew by at most %d bytes", fileBytes, grew)
	runtime.KeepAlive(r)
	if grew > 64*lines || grew > int64(fileBytes)/2 {
		t.Fatalf("the live heap grew by %d bytes (%d a line) reading a %d-byte file", grew, grew/lines, fileBytes)
	}
}
