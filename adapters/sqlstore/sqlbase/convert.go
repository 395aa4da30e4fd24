package sqlbase

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

// Column is a DECIMAL(Total, Places) column.
type Column struct {
	Name          string
	Total, Places int
}

var (
	ColBalance     = Column{"balance", 12, 2}
	ColSpent       = Column{"total_spent", 12, 2}
	ColHeld        = Column{"held_amount", 12, 2}
	ColLowBalance  = Column{"low_balance_alert", 12, 2}
	ColFeePercent  = Column{"collection_fee_percent", 5, 2}
	ColPayoutLimit = Column{"daily_payout_limit", 12, 2}
	ColFee         = Column{"fee", 12, 2}
	ColPayoutFee   = Column{"fee", 12, 4}
	ColAmount      = Column{"amount", 12, 2}
	ColBefore      = Column{"balance_before", 12, 2}
	ColAfter       = Column{"balance_after", 12, 2}
	ColAdminCost   = Column{"admin_cost", 10, 4}
	ColUserPrice   = Column{"user_price", 10, 4}
	ColResellerP   = Column{"reseller_price", 10, 4}
	ColMinCharge   = Column{"minimum_hit_charge", 10, 2}
	ColCharge      = Column{"charge_amount", 10, 4}
	ColCost        = Column{"cost_amount", 10, 4}
	ColReserved    = Column{"reserved_amount", 10, 4}
	ColAdmitted    = Column{"admitted_amount", 10, 4}
	ColCommission  = Column{"commission", 10, 4}
)

func (c Column) ToDB(d decimal.Decimal) (string, error) {
	if !inr.FitsColumn(d, c.Total, c.Places) {
		return "", fmt.Errorf("%s %s does not fit DECIMAL(%d,%d)", c.Name, d.String(), c.Total, c.Places)
	}
	return d.StringFixed(int32(c.Places)), nil
}

func (c Column) ptrToDB(d *decimal.Decimal) (*string, error) {
	if d == nil {
		return nil, nil
	}
	s, err := c.ToDB(*d)
	return &s, err
}

func (c Column) fromDB(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, fmt.Errorf("read %s %q: %w", c.Name, s, err)
	}
	return d, nil
}

func (c Column) ptrFromDB(s *string) (*decimal.Decimal, error) {
	if s == nil {
		return nil, nil
	}
	d, err := c.fromDB(*s)
	return &d, err
}

// MoneyWriter collects the first conversion error of several columns, so a
// converter reads as a list of assignments.
type MoneyWriter struct{ Err error }

func (w *MoneyWriter) Put(c Column, d decimal.Decimal) string {
	s, err := c.ToDB(d)
	if err != nil && w.Err == nil {
		w.Err = err
	}
	return s
}

func (w *MoneyWriter) PutPtr(c Column, d *decimal.Decimal) *string {
	s, err := c.ptrToDB(d)
	if err != nil && w.Err == nil {
		w.Err = err
	}
	return s
}

func (w *MoneyWriter) Get(c Column, s string) decimal.Decimal {
	d, err := c.fromDB(s)
	if err != nil && w.Err == nil {
		w.Err = err
	}
	return d
}

func (w *MoneyWriter) GetPtr(c Column, s *string) *decimal.Decimal {
	d, err := c.ptrFromDB(s)
	if err != nil && w.Err == nil {
		w.Err = err
	}
	return d
}

// Times are stored in UTC with microseconds (DATETIME(6)); both databases
// then hold and return the same instant.

func DBTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// Stamp is t for a row, or now when the domain left it zero.
func Stamp(t time.Time) *time.Time {
	if t.IsZero() {
		t = time.Now()
	}
	u := DBTime(t)
	return &u
}

func TimePtrToDB(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := DBTime(*t)
	return &u
}

// NonZeroTime is nil (NULL) for the zero time.
func NonZeroTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return TimePtrToDB(&t)
}

func TimeFromDB(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

func TimePtrFromDB(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// NullString is nil for "", so optional text columns hold NULL rather than an empty string.
func NullString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// JSON columns: JSON on MySQL, TEXT checked by json_valid on SQLite.

func JSONToDB(field string, v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", field, err)
	}
	return string(b), nil
}

func JSONFromDB(field, s string, dst any) error {
	if err := json.Unmarshal([]byte(s), dst); err != nil {
		return fmt.Errorf("decode %s: %w", field, err)
	}
	return nil
}

// Paging turns page/per_page into LIMIT and OFFSET: 20 a page by default,
// 100 at most.
func Paging(page, perPage int) (limit, offset int) {
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

// LikePattern matches s anywhere, with LIKE's wildcards in s escaped by '!'
// (an escape character that means the same on MySQL and SQLite).
func LikePattern(s string) string {
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

const LikeEscape = " ESCAPE '!'"
