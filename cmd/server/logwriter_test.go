package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeRecorder keeps every Write it receives, one entry per call; while
// fail is set, writes fail after taking half of the bytes.
type writeRecorder struct {
	mu     sync.Mutex
	writes []string
	fail   bool
}

func (r *writeRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail {
		return len(p) / 2, errors.New("broken pipe")
	}
	r.writes = append(r.writes, string(p))
	return len(p), nil
}

func (r *writeRecorder) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.writes...)
}

func (r *writeRecorder) setFail(f bool) { r.mu.Lock(); r.fail = f; r.mu.Unlock() }

const never = time.Hour // a flush loop that does not tick within a test

func TestLogWriterKeepsLinesWholeUnderConcurrentWriters(t *testing.T) {
	rec := &writeRecorder{}
	w := newLogWriter(rec, 1024, time.Millisecond)
	const writers, lines = 8, 500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range lines {
				// Lengths from 20 to about 1,300 bytes: some lines are
				// larger than the buffer and go out on their own.
				pad := strings.Repeat("x", 1+(g*lines+i)*7%1300)
				fmt.Fprintf(w, "g=%d i=%d n=%d %s\n", g, i, len(pad), pad)
			}
		})
	}
	wg.Wait()
	w.Close()

	next := make([]int, writers) // each writer's lines arrive in its order
	for _, out := range rec.get() {
		if !strings.HasSuffix(out, "\n") {
			t.Fatalf("a write ends mid-line: ...%q", out[max(0, len(out)-40):])
		}
		if len(out) > 1024 && strings.Count(out, "\n") > 1 {
			t.Fatalf("a write of %d bytes (more than the buffer) holds %d lines", len(out), strings.Count(out, "\n"))
		}
		for line := range strings.SplitSeq(strings.TrimSuffix(out, "\n"), "\n") {
			var g, i, n int
			var pad string
			if _, err := fmt.Sscanf(line, "g=%d i=%d n=%d %s", &g, &i, &n, &pad); err != nil {
				t.Fatalf("line %.60q: %v", line, err)
			}
			if len(pad) != n || strings.Trim(pad, "x") != "" {
				t.Fatalf("line g=%d i=%d is torn: %d bytes of padding, want %d", g, i, len(pad), n)
			}
			if i != next[g] {
				t.Fatalf("writer %d: line %d, want %d", g, i, next[g])
			}
			next[g]++
		}
	}
	for g, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d lines out, want %d", g, n, lines)
		}
	}
}

func TestLogWriterFlushesWhenTheNextLineDoesNotFit(t *testing.T) {
	rec := &writeRecorder{}
	w := newLogWriter(rec, 100, never)
	defer w.Close()
	line := strings.Repeat("a", 39) + "\n" // 40 bytes
	w.Write([]byte(line))
	w.Write([]byte(line))
	if got := rec.get(); len(got) != 0 {
		t.Fatalf("80 of 100 bytes buffered, yet written: %q", got)
	}
	w.Write([]byte(line)) // 120 > 100: the first two go out, the third waits
	if got := rec.get(); len(got) != 1 || got[0] != line+line {
		t.Fatalf("writes %q, want the first two lines in one", got)
	}
	big := strings.Repeat("b", 150) + "\n" // larger than the buffer: on its own, after the third
	w.Write([]byte(big))
	if got := rec.get(); len(got) != 3 || got[1] != line || got[2] != big {
		t.Fatalf("writes %q", got)
	}
}

func TestLogWriterFlushesOnTick(t *testing.T) {
	rec := &writeRecorder{}
	w := newLogWriter(rec, 1024, 20*time.Millisecond)
	defer w.Close()
	w.Write([]byte("one\n"))
	w.Write([]byte("two\n"))
	deadline := time.Now().Add(5 * time.Second)
	for len(rec.get()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := rec.get(); len(got) != 1 || got[0] != "one\ntwo\n" {
		t.Fatalf("writes %q, want both lines in one write by the flush loop", got)
	}
}

func TestLogWriterCloseWritesEverything(t *testing.T) {
	rec := &writeRecorder{}
	w := newLogWriter(rec, 1024, never)
	var want strings.Builder
	for i := range 100 { // 100 lines of ~9 bytes: some flushed on size, the rest at Close
		line := fmt.Sprintf("line %03d\n", i)
		want.WriteString(line)
		w.Write([]byte(line))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rec.get(), ""); got != want.String() {
		t.Fatalf("after Close the output holds %d bytes, want %d", len(got), want.Len())
	}
	select {
	case <-w.done:
	default:
		t.Fatal("the flush loop still runs after Close")
	}
	// Late lines (a goroutine that outlives the server) go straight out.
	w.Write([]byte("late\n"))
	if got := rec.get(); got[len(got)-1] != "late\n" {
		t.Fatalf("a write after Close: %q", got)
	}
	if err := w.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
}

func TestLoggerFlushesAtWarn(t *testing.T) {
	rec := &writeRecorder{}
	w := newLogWriter(rec, 32<<10, never)
	defer w.Close()
	log := newLogger(w).With("component", "test")
	log.Info("request", "status", 200)
	log.Debug("not enabled")
	if got := rec.get(); len(got) != 0 {
		t.Fatalf("an INFO line was written at once: %q", got)
	}
	log.Warn("upstream slow")
	got := rec.get()
	if len(got) != 1 || strings.Count(got[0], "\n") != 2 || !strings.Contains(got[0], `"msg":"request"`) ||
		!strings.Contains(got[0], `"level":"WARN","msg":"upstream slow","component":"test"`) {
		t.Fatalf("after WARN: %q, want the INFO and the WARN line in one write", got)
	}
	log.WithGroup("g").Error("database gone", "err", "x")
	if got := rec.get(); len(got) != 2 || !strings.Contains(got[1], `"level":"ERROR"`) {
		t.Fatalf("after ERROR: %q", got)
	}
	log.Log(context.Background(), slog.LevelInfo+2, "between INFO and WARN")
	if got := rec.get(); len(got) != 2 {
		t.Fatalf("a record below WARN flushed: %q", got)
	}
}

func TestLogWriterDropsAndCountsFailedWrites(t *testing.T) {
	rec := &writeRecorder{fail: true}
	w := newLogWriter(rec, 1024, never)
	defer w.Close()
	for _, l := range []string{"a\n", "b\n", "c\n"} {
		if n, err := w.Write([]byte(l)); n != len(l) || err != nil {
			t.Fatalf("Write = %d, %v: a failing output must not fail the logger", n, err)
		}
	}
	w.Flush()
	if got := w.Lost(); got != 2 { // "a\nb" half written: b and c lost
		t.Fatalf("lost %d lines, want 2", got)
	}
	rec.setFail(false)
	w.Write([]byte("d\n"))
	w.Flush()
	if got := rec.get(); len(got) != 1 || got[0] != "d\n" {
		t.Fatalf("after the output recovered: %q (dropped lines must not come back)", got)
	}
}

// BenchmarkLogLine compares one access-log-sized line written to a file
// with a write(2) per line against the buffered writer.
func BenchmarkLogLine(b *testing.B) {
	line := []byte(`{"time":"2026-11-22T01:34:47.123456789+05:30","level":"INFO","msg":"request","request_id":"req_01JDCX8Z0R6V3KX2B7PQ4M5N6T","method":"POST","path":"/api/v1/sms-gateway-api","route":"/api/v1/:slug","status":200,"bytes":87,"latency_ms":1.234,"ip":"127.0.0.1"}` + "\n")
	open := func(b *testing.B) *os.File {
		f, err := os.Create(filepath.Join(b.TempDir(), "log"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		return f
	}
	b.Run("direct", func(b *testing.B) {
		f := open(b)
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			f.Write(line)
		}
	})
	b.Run("buffered", func(b *testing.B) {
		w := newLogWriter(open(b), logBufferSize, logFlushInterval)
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			w.Write(line)
		}
		w.Close()
	})
	b.Run("direct-parallel", func(b *testing.B) {
		f := open(b)
		b.SetBytes(int64(len(line)))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				f.Write(line)
			}
		})
	})
	b.Run("buffered-parallel", func(b *testing.B) {
		w := newLogWriter(open(b), logBufferSize, logFlushInterval)
		b.SetBytes(int64(len(line)))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				w.Write(line)
			}
		})
		w.Close()
	})
}
