package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// The server's log output is buffered: one write(2) per request line was
// half of slog's cost under load (decisions: "Buffered log output").
const (
	logBufferSize    = 32 << 10
	logFlushInterval = 100 * time.Millisecond
)

// logWriter collects log lines and writes them out in blocks: when the next
// line would not fit in its buffer, every interval (a flush loop), on Flush
// and on Close. Each Write is taken as whole lines (slog's handlers write one
// record per call) and is never split across two writes to out; a line
// larger than the buffer is written on its own, after what was buffered. A
// failed write is not an error for the caller: its lines are dropped and
// counted, as a closed stdout would lose them. Safe for concurrent use;
// after Close, writes go straight to out.
type logWriter struct {
	mu     sync.Mutex
	out    io.Writer
	buf    []byte
	closed bool
	lost   atomic.Int64 // lines whose write to out failed

	stop chan struct{}
	done chan struct{}
}

func newLogWriter(out io.Writer, size int, interval time.Duration) *logWriter {
	w := &logWriter{out: out, buf: make([]byte, 0, size), stop: make(chan struct{}), done: make(chan struct{})}
	go w.flushLoop(interval)
	return w
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf)+len(p) > cap(w.buf) {
		w.flushLocked()
	}
	if w.closed || len(p) > cap(w.buf) {
		w.writeOut(p)
	} else {
		w.buf = append(w.buf, p...)
	}
	return len(p), nil
}

// Flush writes out what is buffered.
func (w *logWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked()
}

// Close flushes and stops the flush loop. It does not close out.
func (w *logWriter) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.flushLocked()
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	return nil
}

// Lost is the number of lines dropped because writing them out failed.
func (w *logWriter) Lost() int64 { return w.lost.Load() }

func (w *logWriter) flushLoop(interval time.Duration) {
	defer close(w.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			w.Flush()
		case <-w.stop:
			return
		}
	}
}

func (w *logWriter) flushLocked() {
	if len(w.buf) > 0 {
		w.writeOut(w.buf)
		w.buf = w.buf[:0]
	}
}

func (w *logWriter) writeOut(p []byte) {
	n, err := w.out.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		// A line cut short counts as lost with the ones after it.
		w.lost.Add(int64(max(bytes.Count(p[n:], []byte{'\n'}), 1)))
	}
}

// newLogger is the server's JSON logger on w. A record at WARN or above
// flushes w at once, so a crash right after an error still leaves it (and
// the lines before it) in the output.
func newLogger(w *logWriter) *slog.Logger {
	return slog.New(flushAtWarn{slog.NewJSONHandler(w, nil), w})
}

type flushAtWarn struct {
	slog.Handler
	w *logWriter
}

func (h flushAtWarn) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		h.w.Flush()
	}
	return err
}

func (h flushAtWarn) WithAttrs(attrs []slog.Attr) slog.Handler {
	return flushAtWarn{h.Handler.WithAttrs(attrs), h.w}
}

func (h flushAtWarn) WithGroup(name string) slog.Handler {
	return flushAtWarn{h.Handler.WithGroup(name), h.w}
}
