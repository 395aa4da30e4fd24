package sqlstore

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/inr"
)

// Money crosses the database as an exact decimal string with the column's
// places ("12.30", "0.5000"): DECIMAL on MySQL, TEXT on SQLite. A value that
// does not fit its column is refused here rather than rounded by a database.

// column is a DECIMAL(total, places) column.
type column struct {
	name          string
	total, places int
}

var (
	colBalance     = column{"balance", 12, 2}
	colSpent       = column{"total_spent", 12, 2}
	colHeld        = column{"held_amount", 12, 2}
	colLowBalance  = column{"low_balance_alert", 12, 2}
	colFeePercent  = column{"collection_fee_percent", 5, 2}
	colPayoutLimit = column{"daily_payout_limit", 12, 2}
	colFee         = column{"fee", 12, 2}
	colPayoutFee   = column{"fee", 12, 4}
	colAmount      = column{"amount", 12, 2}
	colBefore      = column{"balance_before", 12, 2}
	colAfter       = column{"balance_after", 12, 2}
	colAdminCost   = column{"admin_cost", 10, 4}
	colUserPrice   = column{"user_price", 10, 4}
	colResellerP   = column{"reseller_price", 10, 4}
	colMinCharge   = column{"minimum_hit_charge", 10, 2}
	colCharge      = column{"charge_amount", 10, 4}
	colCost        = column{"cost_amount", 10, 4}
	colReserved    = column{"reserved_amount", 10, 4}
	colAdmitted    = column{"admitted_amount", 10, 4}
	colCommission  = column{"commission", 10, 4}
)

func (c column) toDB(d decimal.Decimal) (string, error) {
	if !inr.FitsColumn(d, c.total, c.places) {
		return "", fmt.Errorf("%s %s does not fit DECIMAL(%d,%d)", c.name, d.String(), c.total, c.places)
	}
	return d.StringFixed(int32(c.places)), nil
}

func (c column) ptrToDB(d *decimal.Decimal) (*string, error) {
	if d == nil {
		return nil, nil
	}
	s, err := c.toDB(*d)
	return &s, err
}

func (c column) fromDB(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, fmt.Errorf("read %s %q: %w", c.name, s, err)
	}
	return d, nil
}

func (c column) ptrFromDB(s *string) (*decimal.Decimal, error) {
	if s == nil {
		return nil, nil
	}
	d, err := c.fromDB(*s)
	return &d, err
}

// moneyWriter collects the first conversion error of several columns, so a
// converter reads as a list of assignments.
type moneyWriter struct{ err error }

func (w *moneyWriter) put(c column, d decimal.Decimal) string {
	s, err := c.toDB(d)
	if err != nil && w.err == nil {
		w.err = err
	}
	return s
}

func (w *moneyWriter) putPtr(c column, d *decimal.Decimal) *string {
	s, err := c.ptrToDB(d)
	if err != nil && w.err == nil {
		w.err = err
	}
	return s
}

func (w *moneyWriter) get(c column, s string) decimal.Decimal {
	d, err := c.fromDB(s)
	if err != nil && w.err == nil {
		w.err = err
	}
	return d
}

func (w *moneyWriter) getPtr(c column, s *string) *decimal.Decimal {
	d, err := c.ptrFromDB(s)
	if err != nil && w.err == nil {
		w.err = err
	}
	return d
}

// Times are stored in UTC with microseconds (DATETIME(6)); both databases
// then hold and return the same instant.

func dbTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// stamp is t for a row, or now when the domain left it zero.
func stamp(t time.Time) *time.Time {
	if t.IsZero() {
		t = time.Now()
	}
	u := dbTime(t)
	return &u
}

func timePtrToDB(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := dbTime(*t)
	return &u
}

// nonZeroTime is nil (NULL) for the zero time.
func nonZeroTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return timePtrToDB(&t)
}

func timeFromDB(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

func timePtrFromDB(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// nullString is nil for "", so optional text columns hold NULL rather than an empty string.
func nullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// JSON columns: JSON on MySQL, TEXT checked by json_valid on SQLite.

func jsonToDB(field string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", field, err)
	}
	return string(b), nil
}

func jsonFromDB(field, s string, dst any) error {
	if err := json.Unmarshal([]byte(s), dst); err != nil {
		return fmt.Errorf("decode %s: %w", field, err)
	}
	return nil
}

// paging turns page/per_page into LIMIT and OFFSET: 20 a page by default,
// 100 at most.
func paging(page, perPage int) (limit, offset int) {
	if perPage <= 0 {
		perPage = 20
	}
	if perPage > 100 {
		perPage = 100
	}
	if page < 1 {
		page = 1
	}
	return perPage, (page - 1) * perPage
}

// likePattern matches s anywhere, with LIKE's wildcards in s escaped by '!'
// (an escape character that means the same on MySQL and SQLite).
func likePattern(s string) string {
	out := make([]rune, 0, len(s)+2)
	out = append(out, '%')
	for _, r := range s {
		if r == '!' || r == '%' || r == '_' {
			out = append(out, '!')
		}
		out = append(out, r)
	}
	return string(append(out, '%'))
}

const likeEscape = " ESCAPE '!'"
