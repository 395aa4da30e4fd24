package web

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/platform/export"
)

// csvFlushEvery is how many rows a CSV export writes between flushes to the
// client, so a long export arrives as it is read.
const csvFlushEvery = 500

// CSVStream writes a CSV export row by row. Nothing is sent before the
// first row (or the end of an empty export), so an error that comes first
// still gets the JSON error body; one that comes later cuts the connection,
// so the client sees a broken download rather than a short file that looks
// complete.
//
// A client that reads nothing for the stall timeout ends the export: every
// write to the connection first moves its write deadline to that far ahead
// (stallGuard), so a write blocks at most that long however long a healthy
// export runs. The answer closes the connection after it (Connection:
// close), so the deadline never outlives the export on a kept-alive one.
type CSVStream struct {
	c       echo.Context
	k       *Kit
	name    string // file name, e.g. hit-logs-2026-11-21.csv
	header  []string
	w       *bufio.Writer // over stallGuard
	rc      *http.ResponseController
	started bool
	rows    int
}

func NewCSVStream(c echo.Context, k *Kit, kind string, now time.Time, header []string) *CSVStream {
	return &CSVStream{c: c, k: k, name: kind + "-" + now.Format("2006-01-02") + ".csv", header: header}
}

func (o *CSVStream) start() error {
	o.started = true
	h := o.c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", o.name))
	h.Set("Cache-Control", "no-store")
	h.Set(echo.HeaderConnection, "close")
	o.rc = http.NewResponseController(o.c.Response().Writer)
	guard := stallGuard{w: o.c.Response(), rc: o.rc, stall: o.k.exportStall}
	guard.extend()
	o.c.Response().WriteHeader(http.StatusOK)
	o.w = bufio.NewWriter(guard)
	return writeCSVRecord(o.w, o.header)
}

// flush sends what the encoder holds to the client, under the stall
// deadline.
func (o *CSVStream) flush() error {
	if err := o.w.Flush(); err != nil {
		return err
	}
	_ = o.rc.SetWriteDeadline(time.Now().Add(o.k.exportStall))
	return o.rc.Flush()
}

// stallGuard is the writer under the CSV encoder: before each write (of
// the encoder's 4 kB buffer) it moves the connection's write deadline to
// stall from now. A writer that cannot take deadlines (a test recorder)
// writes without one.
type stallGuard struct {
	w     io.Writer
	rc    *http.ResponseController
	stall time.Duration
}

func (g stallGuard) Write(p []byte) (int, error) {
	g.extend()
	return g.w.Write(p)
}

func (g stallGuard) extend() { _ = g.rc.SetWriteDeadline(time.Now().Add(g.stall)) }

// Row writes one row, every cell made safe for spreadsheets.
func (o *CSVStream) Row(cells ...string) error {
	if !o.started {
		if err := o.start(); err != nil {
			return err
		}
	}
	for i, v := range cells {
		cells[i] = safeCell(v)
	}
	if err := writeCSVRecord(o.w, cells); err != nil {
		return err
	}
	o.rows++
	if o.rows%csvFlushEvery == 0 {
		return o.flush()
	}
	return nil
}

// Finish ends the export after the rows were visited with err.
func (o *CSVStream) Finish(err error) error {
	if err != nil {
		if !o.started {
			if errors.Is(err, export.ErrBusy) {
				o.c.Response().Header().Set("Retry-After", strconv.Itoa(int(export.RetryAfter/time.Second)))
			}
			return err
		}
		switch {
		case errors.Is(err, os.ErrDeadlineExceeded):
			o.k.log.Warn("CSV export ended: its client read nothing for the stall timeout", "request_id", RequestID(o.c),
				"file", o.name, "rows", o.rows, "stall_timeout", o.k.exportStall.String())
		case o.c.Request().Context().Err() == nil:
			o.k.log.Error("CSV export failed after it started", "request_id", RequestID(o.c), "file", o.name, "rows", o.rows, "err", err)
		}
		panic(http.ErrAbortHandler)
	}
	if !o.started {
		if err := o.start(); err != nil {
			return err
		}
	}
	if err := o.flush(); err != nil {
		return o.Finish(err)
	}
	return nil
}

// safeCell defuses spreadsheet formulas (CSV injection): a formula sign (=
// + - @, a tab or a carriage return, or the fullwidth ＝ ＋ － ＠ that some
// spreadsheets read as them) at the start of the cell, or after a separator
// (, or ; and their fullwidth forms; spaces between allowed) inside it, gets
// an apostrophe before it. A locale whose separator is ; splits an unquoted
// "Asha;=1+1" into a second cell; every cell is also quoted (writeCSVRecord),
// and the apostrophe covers a reader that splits anyway, so Excel,
// LibreOffice and Sheets show the text instead of evaluating it.
func safeCell(v string) string {
	if !hasFormula(v) {
		return v // most cells: no copy
	}
	var b strings.Builder
	b.Grow(len(v) + 4)
	atStart := true
	for _, r := range v {
		if atStart && isFormulaSign(r) {
			b.WriteByte('\'')
		}
		atStart = isSeparator(r) || (atStart && r == ' ')
		b.WriteRune(r)
	}
	return b.String()
}

// hasFormula reports whether safeCell has anything to defuse in v.
func hasFormula(v string) bool {
	atStart := true
	for _, r := range v {
		if atStart && isFormulaSign(r) {
			return true
		}
		atStart = isSeparator(r) || (atStart && r == ' ')
	}
	return false
}

func isFormulaSign(r rune) bool {
	switch r {
	case '=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠':
		return true
	}
	return false
}

func isSeparator(r rune) bool { return r == ',' || r == ';' || r == '，' || r == '；' }

// writeCSVRecord writes one RFC 4180 record with every cell quoted
// (encoding/csv quotes only cells holding a comma, so "Asha;=1+1" went out
// bare), ending in \n.
func writeCSVRecord(w *bufio.Writer, cells []string) error {
	for i, c := range cells {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteByte('"')
		w.WriteString(strings.ReplaceAll(c, `"`, `""`))
		w.WriteByte('"')
	}
	return w.WriteByte('\n')
}

// CSVTime writes t in RFC 3339 in the service's time zone; empty when unknown.
func CSVTime(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(time.RFC3339)
}
