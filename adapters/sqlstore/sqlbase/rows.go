package sqlbase

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"gorm.io/gorm"
)

// ForEachRow streams the rows of q one at a time, converted to the domain,
// so a long history is never loaded whole.
func ForEachRow[R, D any](q *gorm.DB, conv func(*R) (D, error), fn func(D) error) error {
	rows, err := q.Rows()
	if err != nil {
		return Translate(err)
	}
	defer rows.Close()
	for rows.Next() {
		var r R
		if err := q.ScanRows(rows, &r); err != nil {
			return err
		}
		d, err := conv(&r)
		if err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return Translate(rows.Err())
}

// ExportPageRows is the most rows one page of an export reads.
const ExportPageRows = 1000

// ExportPageSize is the rows a page reads for a configured size n
// (Store.SetExportPageRows): n from 1 to ExportPageRows, else ExportPageRows.
func ExportPageSize(n int) int {
	if n <= 0 || n > ExportPageRows {
		return ExportPageRows
	}
	return n
}

// ForEachPage visits the rows that page reads, in its order, one keyset
// page at a time: page(nil) reads the first rows, page(last) the rows after
// the last one visited, and each page is one short query (LIMIT size).
// No connection is held while fn runs, so a consumer that waits (a client
// reading an export slowly) never keeps one from the pool; the price is
// that the pages are not one snapshot (rows written meanwhile before the
// cursor may show, rows after it do not).
func ForEachPage[R, D any](size int, page func(last *R) *gorm.DB, conv func(*R) (D, error), fn func(D) error) error {
	size = ExportPageSize(size)
	var last *R
	for {
		var rows []R
		if err := page(last).Limit(size).Find(&rows).Error; err != nil {
			return Translate(err)
		}
		for i := range rows {
			d, err := conv(&rows[i])
			if err != nil {
				return err
			}
			if err := fn(d); err != nil {
				return err
			}
		}
		if len(rows) < size {
			return nil
		}
		last = &rows[len(rows)-1]
	}
}

// ForEachOfUser visits the rows of userID in R's table in id order, 500 a
// page (forEachPage); id is a row's id (the keyset).
func ForEachOfUser[R, D any](db *gorm.DB, userID uint64, id func(*R) uint64, conv func(*R) (D, error), fn func(D) error) error {
	page := func(last *R) *gorm.DB {
		q := db.Model(new(R)).Where("user_id = ?", userID).Order("id")
		if last != nil {
			q = q.Where("id > ?", id(last))
		}
		return q
	}
	return ForEachPage(500, page, conv, fn)
}

// ConvertRows converts a page of rows to the domain.
func ConvertRows[R, D any](rows []R, conv func(*R) (D, error)) ([]D, error) {
	out := make([]D, 0, len(rows))
	for i := range rows {
		d, err := conv(&rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// CappedCount counts the rows of q, but at most limit+1 of them: the
// database stops reading there, so a count over millions of rows costs no
// more than a page of them. A result above limit means "more than limit".
func CappedCount(q *gorm.DB, limit int) (int64, error) {
	var n int64
	sub := q.Select("1").Limit(limit + 1)
	if err := q.Session(&gorm.Session{NewDB: true}).Table("(?) AS capped", sub).Count(&n).Error; err != nil {
		return 0, Translate(err)
	}
	return n, nil
}

// PageNewest counts the rows of R's table that filter selects and reads one
// page of them, newest id first, converted by conv; what names the rows in
// errors ("users").
func PageNewest[R, D any](db *gorm.DB, filter func(*gorm.DB) *gorm.DB, page, perPage int, what string,
	conv func(*R) (D, error)) ([]D, int64, error) {
	var total int64
	if err := db.Model(new(R)).Scopes(filter).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", what, Translate(err))
	}
	limit, offset := Paging(page, perPage)
	var rows []R
	if err := db.Scopes(filter).Order("id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", what, Translate(err))
	}
	out, err := ConvertRows(rows, conv)
	return out, total, err
}

// CreatedBetween narrows q to rows created within [from, to]; a nil bound
// is open.
func CreatedBetween(q *gorm.DB, from, to *time.Time) *gorm.DB {
	if from != nil {
		q = q.Where("created_at >= ?", DBTime(*from))
	}
	if to != nil {
		q = q.Where("created_at <= ?", DBTime(*to))
	}
	return q
}

// RowColumn is one column of a row struct: its name (the field's gorm
// column tag) and its field.
type RowColumn struct {
	Name  string
	Field reflect.StructField
}

// RowColumns are the columns of row struct R in field order. Every field of
// a row names its column; one that does not is a programming error.
func RowColumns[R any]() []RowColumn {
	t := reflect.TypeFor[R]()
	cols := make([]RowColumn, t.NumField())
	for i := range cols {
		f := t.Field(i)
		cols[i] = RowColumn{Name: gormColumn(f.Tag.Get("gorm")), Field: f}
		if cols[i].Name == "" {
			panic(fmt.Sprintf("sqlstore: field %s.%s names no column in its gorm tag", t.Name(), f.Name))
		}
	}
	return cols
}

// gormColumn is the column a gorm tag names ("column:name;…"), or "".
func gormColumn(tag string) string {
	for part := range strings.SplitSeq(tag, ";") {
		if name, ok := strings.CutPrefix(part, "column:"); ok {
			return name
		}
	}
	return ""
}

// ColumnNames are cols' names separated by commas, for a SELECT.
func ColumnNames(cols []RowColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// FieldPointers are pointers to r's fields of cols (r a pointer to the row
// struct cols were read from), the destinations of a scan.
func FieldPointers(r any, cols []RowColumn) []any {
	v := reflect.ValueOf(r).Elem()
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = v.FieldByIndex(c.Field.Index).Addr().Interface()
	}
	return out
}
