package resalestore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
	"paygate/core/resale/settlement"
)

var (
	colSettled      = sqlbase.Column{Name: "amount", Total: 12, Places: 2}
	colReversed     = sqlbase.Column{Name: "reversed", Total: 12, Places: 4}
	colReversalTook = sqlbase.Column{Name: "reversal_taken", Total: 12, Places: 2}
)

type settlementRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ResellerID    uint64     `gorm:"column:reseller_id"`
	HourStart     *time.Time `gorm:"column:hour_start"`
	Hits          int        `gorm:"column:hits"`
	Amount        string     `gorm:"column:amount"`
	TransactionID *uint64    `gorm:"column:transaction_id"`
	Reversed      string     `gorm:"column:reversed"`
	ReversalTaken string     `gorm:"column:reversal_taken"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (settlementRow) TableName() string { return "commission_settlements" }

// CommissionStore keeps the commission settlements and sums the hits of
// resellers' customers (api_hit_logs.reseller_id, its index with
// created_at).
type CommissionStore struct{ sqlbase.Base }

var _ settlement.Settlements = (*CommissionStore)(nil)

func (s *CommissionStore) Resellers(ctx context.Context) ([]uint64, error) {
	var ids []uint64
	err := s.Conn(ctx).Raw("SELECT parent_id AS id FROM users WHERE parent_id IS NOT NULL UNION " +
		"SELECT reseller_id AS id FROM commission_settlements WHERE " + s.owedWhere() + " ORDER BY id").Scan(&ids).Error
	if err != nil {
		return nil, fmt.Errorf("list resellers: %w", sqlbase.Translate(err))
	}
	return ids, nil
}

func (s *CommissionStore) NextHitAt(ctx context.Context, resellerID uint64, from, before time.Time) (*time.Time, error) {
	var rows []meteringstore.HitRow
	err := s.Conn(ctx).Model(&meteringstore.HitRow{}).Select("created_at").
		Where("reseller_id = ? AND created_at >= ? AND created_at < ?", resellerID, sqlbase.DBTime(from), sqlbase.DBTime(before)).
		Order("created_at").Limit(1).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("find the next hit of reseller %d's customers: %w", resellerID, sqlbase.Translate(err))
	}
	if len(rows) == 0 {
		return nil, nil
	}
	t := sqlbase.TimeFromDB(rows[0].CreatedAt)
	return &t, nil
}

// Accrued sums in units of 0.0001 (the column's places) as integers: SQLite
// keeps DECIMAL columns as floating point, whose SUM would not be exact.
func (s *CommissionStore) Accrued(ctx context.Context, resellerID uint64, from, to time.Time) (settlement.Accrual, error) {
	intType := s.intType()
	var r struct {
		Hits    int64 `gorm:"column:hits"`
		Units   int64 `gorm:"column:units"`
		Pending int64 `gorm:"column:pending"`
		Held    int64 `gorm:"column:held"`
	}
	// held: open holds of its customers taken before the span's end may
	// still write hits dated inside it (one round trip with the sums).
	q := "SELECT COUNT(CASE WHEN status = ? AND commission_settlement_id IS NULL THEN 1 END) AS hits, " +
		"COALESCE(SUM(CASE WHEN status = ? AND commission_settlement_id IS NULL THEN CAST(ROUND(commission * 10000) AS " + intType + ") END), 0) AS units, " +
		"COUNT(CASE WHEN status = ? THEN 1 END) AS pending, " +
		"(SELECT COUNT(*) FROM call_holds h JOIN users u ON u.id = h.user_id WHERE u.parent_id = ? AND h.created_at < ?) AS held " +
		"FROM api_hit_logs WHERE reseller_id = ? AND created_at >= ? AND created_at < ?"
	success := string(hitlog.StatusSuccess)
	err := s.Conn(ctx).Raw(q, success, success, string(hitlog.StatusPending), resellerID, sqlbase.DBTime(to),
		resellerID, sqlbase.DBTime(from), sqlbase.DBTime(to)).Scan(&r).Error
	if err != nil {
		return settlement.Accrual{}, fmt.Errorf("sum the commissions of reseller %d: %w", resellerID, sqlbase.Translate(err))
	}
	return settlement.Accrual{Hits: int(r.Hits), Amount: decimal.New(r.Units, -4), Pending: int(r.Pending + r.Held)}, nil
}

// intType is the dialect's integer type for CAST.
func (s *CommissionStore) intType() string {
	if s.MySQL {
		return "SIGNED"
	}
	return "INTEGER"
}

func (s *CommissionStore) Insert(ctx context.Context, st *settlement.Settlement) error {
	var w sqlbase.MoneyWriter
	r := settlementRow{ResellerID: st.ResellerID, HourStart: sqlbase.Stamp(st.HourStart), Hits: st.Hits,
		Amount: w.Put(colSettled, st.Amount), TransactionID: st.TransactionID, CreatedAt: sqlbase.Stamp(st.CreatedAt),
		Reversed: w.Put(colReversed, st.Reversed), ReversalTaken: w.Put(colReversalTook, st.ReversalTaken)}
	if w.Err != nil {
		return fmt.Errorf("insert settlement: %w", w.Err)
	}
	if r.CreatedAt == nil {
		r.CreatedAt = sqlbase.Stamp(time.Now())
	}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		err = sqlbase.Translate(err)
		if errors.Is(err, errs.ErrConflict) {
			return settlement.ErrAlreadySettled.Wrap(err)
		}
		return fmt.Errorf("insert settlement of reseller %d: %w", st.ResellerID, err)
	}
	st.ID = r.ID
	return nil
}

func (s *CommissionStore) SetCredit(ctx context.Context, st *settlement.Settlement) error {
	var w sqlbase.MoneyWriter
	amount := w.Put(colSettled, st.Amount)
	if w.Err != nil {
		return fmt.Errorf("record the credit of settlement %d: %w", st.ID, w.Err)
	}
	err := s.Conn(ctx).Model(&settlementRow{}).Where("id = ?", st.ID).
		Updates(map[string]any{"hits": st.Hits, "amount": amount, "transaction_id": st.TransactionID}).Error
	if err != nil {
		return fmt.Errorf("record the credit of settlement %d: %w", st.ID, sqlbase.Translate(err))
	}
	return nil
}

// sumClaimed sums, in units of 0.0001, the hits of [from, to) settlement
// id claimed (their commission now).
func (s *CommissionStore) sumClaimed(ctx context.Context, id, resellerID uint64, from, to time.Time) (settlement.Accrual, error) {
	var r struct {
		Hits  int64 `gorm:"column:hits"`
		Units int64 `gorm:"column:units"`
	}
	err := s.Conn(ctx).Raw("SELECT COUNT(*) AS hits, COALESCE(SUM(CAST(ROUND(commission * 10000) AS "+s.intType()+")), 0) AS units "+
		"FROM api_hit_logs WHERE reseller_id = ? AND created_at >= ? AND created_at < ? AND commission_settlement_id = ?",
		resellerID, sqlbase.DBTime(from), sqlbase.DBTime(to), id).Scan(&r).Error
	if err != nil {
		return settlement.Accrual{}, fmt.Errorf("sum the hits of settlement %d: %w", id, sqlbase.Translate(err))
	}
	return settlement.Accrual{Hits: int(r.Hits), Amount: decimal.New(r.Units, -4)}, nil
}

// Claim marks by the (reseller_id, created_at) index; every hit a
// settlement marks lies in its hour, so Credited sums them the same way.
func (s *CommissionStore) Claim(ctx context.Context, settlementID, resellerID uint64, from, to time.Time) (settlement.Accrual, error) {
	err := s.Conn(ctx).Exec("UPDATE api_hit_logs SET commission_settlement_id = ? WHERE reseller_id = ? AND created_at >= ? AND created_at < ? "+
		"AND status = ? AND commission_settlement_id IS NULL AND commission <> 0",
		settlementID, resellerID, sqlbase.DBTime(from), sqlbase.DBTime(to), string(hitlog.StatusSuccess)).Error
	if err != nil {
		return settlement.Accrual{}, fmt.Errorf("claim the hits of settlement %d: %w", settlementID, sqlbase.Translate(err))
	}
	return s.sumClaimed(ctx, settlementID, resellerID, from, to)
}

func (s *CommissionStore) Credited(ctx context.Context, st settlement.Settlement) (settlement.Accrual, error) {
	return s.sumClaimed(ctx, st.ID, st.ResellerID, st.HourStart, st.HourStart.Add(time.Hour))
}

// CancelHit locks the hit's row first (the refund's transaction holds its
// owner's row already; a settlement claiming it holds the hit until it
// commits, so this reads the claim once it is there).
func (s *CommissionStore) CancelHit(ctx context.Context, hitID uint64) (settlement.Cancelled, error) {
	out := settlement.Cancelled{Amount: decimal.Zero}
	var rows []meteringstore.HitRow
	q := s.Conn(ctx).Model(&meteringstore.HitRow{}).Select("id, reseller_id, commission, commission_settlement_id").Where("id = ?", hitID)
	if err := s.Locking(q).Find(&rows).Error; err != nil {
		return out, fmt.Errorf("read hit %d: %w", hitID, sqlbase.Translate(err))
	}
	if len(rows) == 0 {
		return out, fmt.Errorf("hit %d: %w", hitID, errs.ErrNotFound)
	}
	var w sqlbase.MoneyWriter
	amount := w.Get(sqlbase.ColCommission, rows[0].Commission)
	if w.Err != nil {
		return out, fmt.Errorf("hit %d: %w", hitID, w.Err)
	}
	if rows[0].ResellerID == nil || amount.IsZero() {
		return out, nil
	}
	res := s.Conn(ctx).Exec("UPDATE api_hit_logs SET commission_cancelled = commission, commission = 0 WHERE id = ? AND commission <> 0", hitID)
	if res.Error != nil {
		return out, fmt.Errorf("cancel the commission of hit %d: %w", hitID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return out, nil
	}
	out.Amount, out.ResellerID, out.SettlementID = amount, *rows[0].ResellerID, rows[0].SettlementID
	if out.SettlementID == nil {
		return out, nil
	}
	err := s.Conn(ctx).Exec("UPDATE commission_settlements SET reversed = reversed + ? WHERE id = ?",
		w.Put(colReversed, amount), *out.SettlementID).Error
	if err == nil {
		err = w.Err
	}
	if err != nil {
		return out, fmt.Errorf("record the reversal of hit %d on settlement %d: %w", hitID, *out.SettlementID, sqlbase.Translate(err))
	}
	return out, nil
}

// owedWhere selects settlements with a reversal due, compared in cents
// as integers (SQLite keeps DECIMAL as floating point).
func (s *CommissionStore) owedWhere() string {
	return "CAST(ROUND(reversed * 100) AS " + s.intType() + ") > CAST(ROUND(reversal_taken * 100) AS " + s.intType() + ")"
}

func (s *CommissionStore) Owed(ctx context.Context, resellerID uint64) ([]settlement.Settlement, error) {
	var rows []settlementRow
	q := s.Conn(ctx).Where("reseller_id = ? AND "+s.owedWhere(), resellerID).Order("hour_start, id")
	if err := s.Locking(q).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list reversals owed: %w", sqlbase.Translate(err))
	}
	return toSettlements(rows)
}

func (s *CommissionStore) TakeReversal(ctx context.Context, id uint64, amount decimal.Decimal) error {
	var w sqlbase.MoneyWriter
	v := w.Put(colReversalTook, amount)
	if w.Err != nil {
		return fmt.Errorf("take the reversal of settlement %d: %w", id, w.Err)
	}
	if err := s.Conn(ctx).Exec("UPDATE commission_settlements SET reversal_taken = reversal_taken + ? WHERE id = ?", v, id).Error; err != nil {
		return fmt.Errorf("take the reversal of settlement %d: %w", id, sqlbase.Translate(err))
	}
	return nil
}

// filtered is the settlements f selects, unpaged.
func (s *CommissionStore) filtered(ctx context.Context, f settlement.Filter) *gorm.DB {
	q := s.Conn(ctx).Model(&settlementRow{})
	if f.ResellerID != nil {
		q = q.Where("reseller_id = ?", *f.ResellerID)
	}
	if f.From != nil {
		q = q.Where("hour_start >= ?", sqlbase.DBTime(*f.From))
	}
	if f.To != nil {
		q = q.Where("hour_start < ?", sqlbase.DBTime(*f.To))
	}
	return q
}

func (s *CommissionStore) Count(ctx context.Context, f settlement.Filter) (int64, error) {
	var n int64
	if err := s.filtered(ctx, f).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count settlements: %w", sqlbase.Translate(err))
	}
	return n, nil
}

func (s *CommissionStore) List(ctx context.Context, f settlement.Filter) ([]settlement.Settlement, error) {
	q := s.filtered(ctx, f).Order("hour_start, id")
	if f.Limit > 0 {
		q = q.Offset(f.Offset).Limit(f.Limit)
	}
	var rows []settlementRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list settlements: %w", sqlbase.Translate(err))
	}
	return toSettlements(rows)
}

func toSettlements(rows []settlementRow) ([]settlement.Settlement, error) {
	out := make([]settlement.Settlement, len(rows))
	var w sqlbase.MoneyWriter
	for i, r := range rows {
		out[i] = settlement.Settlement{ID: r.ID, ResellerID: r.ResellerID, HourStart: sqlbase.TimeFromDB(r.HourStart), Hits: r.Hits,
			Amount: w.Get(colSettled, r.Amount), TransactionID: r.TransactionID, CreatedAt: sqlbase.TimeFromDB(r.CreatedAt),
			Reversed: w.Get(colReversed, r.Reversed), ReversalTaken: w.Get(colReversalTook, r.ReversalTaken)}
	}
	return out, w.Err
}
