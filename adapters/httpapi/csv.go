package httpapi

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// csvFlushEvery is how many rows a CSV export writes between flushes to the
// client, so a long export arrives as it is read.
const csvFlushEvery = 500

// csvStream writes a CSV export row by row. Nothing is sent before the
// first row (or the end of an empty export), so an error that comes first
// still gets the JSON error body; one that comes later cuts the connection,
// so the client sees a broken download rather than a short file that looks
// complete.
type csvStream struct {
	c       echo.Context
	s       *server
	name    string // file name, e.g. hit-logs-2026-11-21.csv
	header  []string
	w       *csv.Writer
	started bool
	rows    int
}

func newCSVStream(c echo.Context, s *server, kind string, now time.Time, header []string) *csvStream {
	return &csvStream{c: c, s: s, name: kind + "-" + now.Format("2006-01-02") + ".csv", header: header}
}

func (o *csvStream) start() error {
	o.started = true
	h := o.c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", o.name))
	h.Set("Cache-Control", "no-store")
	o.c.Response().WriteHeader(http.StatusOK)
	o.w = csv.NewWriter(o.c.Response())
	return o.w.Write(o.header)
}

// row writes one row, every cell made safe for spreadsheets.
func (o *csvStream) row(cells ...string) error {
	if !o.started {
		if err := o.start(); err != nil {
			return err
		}
	}
	for i, v := range cells {
		cells[i] = safeCell(v)
	}
	if err := o.w.Write(cells); err != nil {
		return err
	}
	o.rows++
	if o.rows%csvFlushEvery == 0 {
		o.w.Flush()
		if err := o.w.Error(); err != nil {
			return err
		}
		o.c.Response().Flush()
	}
	return nil
}

// finish ends the export after the rows were visited with err.
func (o *csvStream) finish(err error) error {
	if err != nil {
		if !o.started {
			return err
		}
		if o.c.Request().Context().Err() == nil {
			o.s.log.Error("CSV export failed after it started", "request_id", requestIDOf(o.c), "file", o.name, "rows", o.rows, "err", err)
		}
		panic(http.ErrAbortHandler)
	}
	if !o.started {
		if err := o.start(); err != nil {
			return err
		}
	}
	o.w.Flush()
	return o.w.Error()
}

// safeCell defuses spreadsheet formulas (CSV injection): a cell that starts
// with = + - @, a tab or a carriage return gets a leading apostrophe, so
// Excel, LibreOffice and Sheets show it as text instead of evaluating it.
func safeCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

// csvTime writes t in RFC 3339 in the service's time zone; empty when unknown.
func csvTime(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format(time.RFC3339)
}
