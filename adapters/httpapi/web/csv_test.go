package web

import (
	"encoding/csv"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

func newCSVTest() (*CSVStream, *httptest.ResponseRecorder) {
	req := httptest.NewRequest(http.MethodGet, "/api/v1/panel/hit-logs?format=csv", nil)
	rec := httptest.NewRecorder()
	c := echo.New().NewContext(req, rec)
	k := &Kit{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return NewCSVStream(c, k, "hit-logs", time.Date(2026, 11, 21, 23, 0, 0, 0, time.UTC), []string{"a", "b"}), rec
}

func TestCSVStreamErrorBeforeTheFirstRowIsReturned(t *testing.T) {
	out, rec := newCSVTest()
	boom := errors.New("database gone")
	if err := out.Finish(boom); !errors.Is(err, boom) {
		t.Fatalf("finish = %v, want the error back for the JSON error body", err)
	}
	if rec.Body.Len() != 0 || rec.Header().Get("Content-Type") != "" {
		t.Fatalf("something was written before the error: %q", rec.Body.String())
	}
}

func TestCSVStreamErrorAfterRowsAbortsTheResponse(t *testing.T) {
	out, rec := newCSVTest()
	if err := out.Row("1", "x"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != http.ErrAbortHandler {
			t.Fatalf("recovered %v, want http.ErrAbortHandler (the connection is cut)", r)
		}
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Disposition") != `attachment; filename="hit-logs-2026-11-21.csv"` {
			t.Fatalf("headers: %d %v", rec.Code, rec.Header())
		}
	}()
	_ = out.Finish(errors.New("connection lost"))
	t.Fatal("finish returned after a mid-stream error")
}

func TestCSVStreamEmptyExportIsItsHeaderAndCellsAreDefused(t *testing.T) {
	out, rec := newCSVTest()
	if err := out.Finish(nil); err != nil || rec.Body.String() != "\"a\",\"b\"\n" {
		t.Fatalf("empty export: %q, %v", rec.Body.String(), err)
	}
	out, rec = newCSVTest()
	for _, v := range []string{"=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "plain", "", "a=b"} {
		if err := out.Row(v, "multi\nline, \"quoted\""); err != nil {
			t.Fatal(err)
		}
	}
	if err := out.Finish(nil); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(rec.Body.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"'=1+1", "'+1", "'-1", "'@SUM(A1)", "'\tx", "'\rx", "plain", "", "a=b"}
	for i, w := range want {
		if rows[i+1][0] != w || rows[i+1][1] != "multi\nline, \"quoted\"" {
			t.Errorf("row %d: %q, want %q", i, rows[i+1], w)
		}
	}
}

// The formula rule: a sign at the start of a cell or after a separator
// (spaces between allowed) gets an apostrophe; nothing else changes.
func TestSafeCellDefusesFormulasAtTheStartAndAfterSeparators(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1": "'=1+1", "+1": "'+1", "-1": "'-1", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx", "\rx": "'\rx",
		"＝1+1": "'＝1+1", "＋1": "'＋1", "－1": "'－1", "＠A1": "'＠A1",
		"Asha;=1+1": "Asha;'=1+1", "Asha,=1+1": "Asha,'=1+1", "Asha; =1+1": "Asha; '=1+1", "Asha;＝1+1": "Asha;'＝1+1",
		"a;b;+c,@d": "a;b;'+c,'@d", "x;\ty": "x;'\ty", "x,\ry": "x,'\ry", "a；=b": "a；'=b", "a，=b": "a，'=b",
		" =1": " '=1", "==1": "'==1",
		"plain": "plain", "": "", "a=b": "a=b", "a+b-c@d": "a+b-c@d", "a;b": "a;b", "1,000.00": "1,000.00",
		"2026-11-21T10:00:00+05:30": "2026-11-21T10:00:00+05:30", "Asha Rao": "Asha Rao", "नमस्ते;=1": "नमस्ते;'=1",
	} {
		if got := safeCell(in); got != want {
			t.Errorf("safeCell(%q) = %q, want %q", in, got, want)
		}
	}
}

// Every cell is quoted, so a reader that splits on ; keeps "Asha;=1+1" whole.
func TestCSVRecordsQuoteEveryCell(t *testing.T) {
	out, rec := newCSVTest()
	if err := out.Row("Asha;=1+1", `say "hi"`); err != nil {
		t.Fatal(err)
	}
	if err := out.Finish(nil); err != nil {
		t.Fatal(err)
	}
	if want := "\"a\",\"b\"\n\"Asha;'=1+1\",\"say \"\"hi\"\"\"\n"; rec.Body.String() != want {
		t.Fatalf("body %q, want %q", rec.Body.String(), want)
	}
	r := csv.NewReader(strings.NewReader(rec.Body.String()))
	r.Comma = ';'
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil || len(rows[1]) != 1 {
		t.Fatalf("read with ; as separator: %q, %v", rows, err)
	}
}
