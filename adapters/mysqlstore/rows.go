package mysqlstore

import (
	"fmt"
	"time"

	"gorm.io/gorm"
)

// forEachRow streams the rows of q one at a time, converted to the domain,
// so a long history is never loaded whole.
func forEachRow[R, D any](q *gorm.DB, conv func(*R) (D, error), fn func(D) error) error {
	rows, err := q.Rows()
	if err != nil {
		return translate(err)
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
	return translate(rows.Err())
}

// convertRows converts a page of rows to the domain.
func convertRows[R, D any](rows []R, conv func(*R) (D, error)) ([]D, error) {
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

// cappedCount counts the rows of q, but at most limit+1 of them: the
// database stops reading there, so a count over millions of rows costs no
// more than a page of them. A result above limit means "more than limit".
func cappedCount(q *gorm.DB, limit int) (int64, error) {
	var n int64
	sub := q.Select("1").Limit(limit + 1)
	if err := q.Session(&gorm.Session{NewDB: true}).Table("(?) AS capped", sub).Count(&n).Error; err != nil {
		return 0, translate(err)
	}
	return n, nil
}

// pageNewest counts the rows of R's table that filter selects and reads one
// page of them, newest id first, converted by conv; what names the rows in
// errors ("users").
func pageNewest[R, D any](db *gorm.DB, filter func(*gorm.DB) *gorm.DB, page, perPage int, what string,
	conv func(*R) (D, error)) ([]D, int64, error) {
	var total int64
	if err := db.Model(new(R)).Scopes(filter).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count %s: %w", what, translate(err))
	}
	limit, offset := paging(page, perPage)
	var rows []R
	if err := db.Scopes(filter).Order("id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("list %s: %w", what, translate(err))
	}
	out, err := convertRows(rows, conv)
	return out, total, err
}

// createdBetween narrows q to rows created within [from, to]; a nil bound
// is open.
func createdBetween(q *gorm.DB, from, to *time.Time) *gorm.DB {
	if from != nil {
		q = q.Where("created_at >= ?", dbTime(*from))
	}
	if to != nil {
		q = q.Where("created_at <= ?", dbTime(*to))
	}
	return q
}
