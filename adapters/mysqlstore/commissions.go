package mysqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/resale"
)

var colSettled = column{"amount", 12, 2}

type settlementRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ResellerID    uint64     `gorm:"column:reseller_id"`
	HourStart     *time.Time `gorm:"column:hour_start"`
	Hits          int        `gorm:"column:hits"`
	Amount        string     `gorm:"column:amount"`
	TransactionID *uint64    `gorm:"column:transaction_id"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (settlementRow) TableName() string { return "commission_settlements" }

// commissionStore keeps the commission settlements and sums the hits of
// resellers' customers (api_hit_logs.reseller_id, its index with
// created_at).
type commissionStore struct{ base }

var _ resale.Settlements = (*commissionStore)(nil)

func (s *commissionStore) Resellers(ctx context.Context) ([]uint64, error) {
	var ids []uint64
	err := s.conn(ctx).Raw("SELECT DISTINCT parent_id FROM users WHERE parent_id IS NOT NULL ORDER BY parent_id").Scan(&ids).Error
	if err != nil {
		return nil, fmt.Errorf("list resellers: %w", translate(err))
	}
	return ids, nil
}

func (s *commissionStore) NextHitAt(ctx context.Context, resellerID uint64, from, before time.Time) (*time.Time, error) {
	var rows []hitRow
	err := s.conn(ctx).Model(&hitRow{}).Select("created_at").
		Where("reseller_id = ? AND created_at >= ? AND created_at < ?", resellerID, dbTime(from), dbTime(before)).
		Order("created_at").Limit(1).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("find the next hit of reseller %d's customers: %w", resellerID, translate(err))
	}
	if len(rows) == 0 {
		return nil, nil
	}
	t := timeFromDB(rows[0].CreatedAt)
	return &t, nil
}

// Accrued sums in units of 0.0001 (the column's places) as integers: SQLite
// keeps DECIMAL columns as floating point, whose SUM would not be exact.
func (s *commissionStore) Accrued(ctx context.Context, resellerID uint64, from, to time.Time) (resale.Accrual, error) {
	intType := "INTEGER"
	if s.mysql {
		intType = "SIGNED"
	}
	var r struct {
		Hits    int64 `gorm:"column:hits"`
		Units   int64 `gorm:"column:units"`
		Pending int64 `gorm:"column:pending"`
		Held    int64 `gorm:"column:held"`
	}
	// held: open holds of its customers taken before the span's end may
	// still write hits dated inside it (one round trip with the sums).
	q := "SELECT COUNT(CASE WHEN status = ? THEN 1 END) AS hits, " +
		"COALESCE(SUM(CASE WHEN status = ? THEN CAST(ROUND(commission * 10000) AS " + intType + ") END), 0) AS units, " +
		"COUNT(CASE WHEN status = ? THEN 1 END) AS pending, " +
		"(SELECT COUNT(*) FROM call_holds h JOIN users u ON u.id = h.user_id WHERE u.parent_id = ? AND h.created_at < ?) AS held " +
		"FROM api_hit_logs WHERE reseller_id = ? AND created_at >= ? AND created_at < ?"
	success := string(hitlog.StatusSuccess)
	err := s.conn(ctx).Raw(q, success, success, string(hitlog.StatusPending), resellerID, dbTime(to),
		resellerID, dbTime(from), dbTime(to)).Scan(&r).Error
	if err != nil {
		return resale.Accrual{}, fmt.Errorf("sum the commissions of reseller %d: %w", resellerID, translate(err))
	}
	return resale.Accrual{Hits: int(r.Hits), Amount: decimal.New(r.Units, -4), Pending: int(r.Pending + r.Held)}, nil
}

func (s *commissionStore) Insert(ctx context.Context, st *resale.Settlement) error {
	var w moneyWriter
	r := settlementRow{ResellerID: st.ResellerID, HourStart: stamp(st.HourStart), Hits: st.Hits,
		Amount: w.put(colSettled, st.Amount), TransactionID: st.TransactionID, CreatedAt: stamp(st.CreatedAt)}
	if w.err != nil {
		return fmt.Errorf("insert settlement: %w", w.err)
	}
	if r.CreatedAt == nil {
		r.CreatedAt = stamp(time.Now())
	}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		err = translate(err)
		if errors.Is(err, errs.ErrConflict) {
			return resale.ErrAlreadySettled.Wrap(err)
		}
		return fmt.Errorf("insert settlement of reseller %d: %w", st.ResellerID, err)
	}
	st.ID = r.ID
	return nil
}

func (s *commissionStore) SetTransaction(ctx context.Context, id, transactionID uint64) error {
	err := s.conn(ctx).Model(&settlementRow{}).Where("id = ?", id).Update("transaction_id", transactionID).Error
	if err != nil {
		return fmt.Errorf("record the credit of settlement %d: %w", id, translate(err))
	}
	return nil
}

// filtered is the settlements f selects, unpaged.
func (s *commissionStore) filtered(ctx context.Context, f resale.Filter) *gorm.DB {
	q := s.conn(ctx).Model(&settlementRow{})
	if f.ResellerID != nil {
		q = q.Where("reseller_id = ?", *f.ResellerID)
	}
	if f.From != nil {
		q = q.Where("hour_start >= ?", dbTime(*f.From))
	}
	if f.To != nil {
		q = q.Where("hour_start < ?", dbTime(*f.To))
	}
	return q
}

func (s *commissionStore) Count(ctx context.Context, f resale.Filter) (int64, error) {
	var n int64
	if err := s.filtered(ctx, f).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count settlements: %w", translate(err))
	}
	return n, nil
}

func (s *commissionStore) List(ctx context.Context, f resale.Filter) ([]resale.Settlement, error) {
	q := s.filtered(ctx, f).Order("hour_start, id")
	if f.Limit > 0 {
		q = q.Offset(f.Offset).Limit(f.Limit)
	}
	var rows []settlementRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list settlements: %w", translate(err))
	}
	out := make([]resale.Settlement, len(rows))
	var w moneyWriter
	for i, r := range rows {
		out[i] = resale.Settlement{ID: r.ID, ResellerID: r.ResellerID, HourStart: timeFromDB(r.HourStart), Hits: r.Hits,
			Amount: w.get(colSettled, r.Amount), TransactionID: r.TransactionID, CreatedAt: timeFromDB(r.CreatedAt)}
	}
	return out, w.err
}
