package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/platform/errs"
)

type ListMeta struct {
	Page    int   `json:"page"`
	PerPage int   `json:"per_page"`
	Total   int64 `json:"total"`
}

type ListResponse[T any] struct {
	Data []T      `json:"data"`
	Meta ListMeta `json:"meta"`
}

// Page reads page and per_page (default 20, at most 100).
func Page(c echo.Context, fe errs.FieldErrors) (int, int) {
	p, pp := 1, 20
	if v := c.QueryParam("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			fe.Add("page", "must be a whole number from 1")
		} else {
			p = n
		}
	}
	if v := c.QueryParam("per_page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			fe.Add("per_page", "must be a whole number from 1 to 100")
		} else {
			pp = n
		}
	}
	return p, pp
}

// TimeParam reads an optional RFC 3339 time or a YYYY-MM-DD date.
func TimeParam(c echo.Context, fe errs.FieldErrors, name string, loc *time.Location, endOfDay bool) *time.Time {
	v := c.QueryParam(name)
	if v == "" {
		return nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return &t
	}
	if t, err := time.ParseInLocation("2006-01-02", v, loc); err == nil {
		if endOfDay {
			t = t.AddDate(0, 0, 1).Add(-time.Nanosecond)
		}
		return &t
	}
	fe.Add(name, "must be a date (YYYY-MM-DD) or an RFC 3339 time")
	return nil
}

func UintParam(c echo.Context, fe errs.FieldErrors, name string) *uint64 {
	v := c.QueryParam(name)
	if v == "" {
		return nil
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		fe.Add(name, "must be a whole number")
		return nil
	}
	return &n
}

func WriteList[T any](c echo.Context, items []T, p, pp int, total int64) error {
	if items == nil {
		items = []T{}
	}
	return c.JSON(http.StatusOK, ListResponse[T]{Data: items, Meta: ListMeta{Page: p, PerPage: pp, Total: total}})
}

// WindowMeta is the meta of the history lists, which count at most a window
// of rows: total_capped (only written when true) says that more rows match
// than total, the window's size.
type WindowMeta struct {
	ListMeta
	TotalCapped bool `json:"total_capped,omitempty"`
}

type WindowListResponse[T any] struct {
	Data []T        `json:"data"`
	Meta WindowMeta `json:"meta"`
}

// WriteWindowList writes a page of a list whose total was counted up to
// window+1 rows.
func WriteWindowList[T any](c echo.Context, items []T, p, pp int, total int64, window int) error {
	if items == nil {
		items = []T{}
	}
	m := WindowMeta{ListMeta: ListMeta{Page: p, PerPage: pp, Total: total}}
	if total > int64(window) {
		m.Total, m.TotalCapped = int64(window), true
	}
	return c.JSON(http.StatusOK, WindowListResponse[T]{Data: items, Meta: m})
}

func MapSlice[A, B any](in []A, f func(*A) B) []B {
	out := make([]B, len(in))
	for i := range in {
		out[i] = f(&in[i])
	}
	return out
}

// WritePaged pages a short, fully loaded list (a user's keys, a service's
// prices) with the same page and per_page rules as database lists.
func WritePaged[T any](c echo.Context, items []T) error {
	fe := errs.FieldErrors{}
	p, pp := Page(c, fe)
	if err := fe.Err(); err != nil {
		return err
	}
	total := len(items)
	from := min((p-1)*pp, total)
	to := min(from+pp, total)
	return WriteList(c, items[from:to], p, pp, int64(total))
}

// Given is nil for an empty query filter, so it is not checked.
func Given[T ~string](v T) *T {
	if v == "" {
		return nil
	}
	return &v
}
