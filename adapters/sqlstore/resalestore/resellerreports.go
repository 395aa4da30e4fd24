package resalestore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/report"
)

// ResellerReportStore sums a reseller's customers' calls and its
// commission settlements for its dashboard. MariaDB sums DECIMAL exactly;
// SQLite has no exact decimal SUM, so there the rows are summed here.
type ResellerReportStore struct{ sqlbase.Base }

var _ report.ResellerRepository = (*ResellerReportStore)(nil)

type usageSumRow struct {
	UserID     uint64 `gorm:"column:user_id"`
	Calls      int64  `gorm:"column:calls"`
	Spend      string `gorm:"column:spend"`
	Commission string `gorm:"column:commission"`
}

const usageWhere = "FROM api_hit_logs WHERE reseller_id = ? AND status = 'success' AND created_at >= ? AND created_at < ?"

func (s *ResellerReportStore) CustomerUsage(ctx context.Context, resellerID uint64, from, to time.Time) ([]report.CustomerUsage, error) {
	sums := map[uint64]*report.CustomerUsage{}
	var order []uint64
	add := func(r usageSumRow) error {
		spend, err := decimal.NewFromString(r.Spend)
		if err != nil {
			return fmt.Errorf("hit charges of user %d: %w", r.UserID, err)
		}
		com, err := decimal.NewFromString(r.Commission)
		if err != nil {
			return fmt.Errorf("hit commission of user %d: %w", r.UserID, err)
		}
		u := sums[r.UserID]
		if u == nil {
			u = &report.CustomerUsage{CustomerID: r.UserID, Spend: decimal.Zero, Commission: decimal.Zero}
			sums[r.UserID] = u
			order = append(order, r.UserID)
		}
		u.Calls += r.Calls
		u.Spend = u.Spend.Add(spend)
		u.Commission = u.Commission.Add(com)
		return nil
	}
	args := []any{resellerID, sqlbase.DBTime(from), sqlbase.DBTime(to)}
	if s.MySQL {
		var rows []usageSumRow
		q := "SELECT user_id, COUNT(*) AS calls, CAST(COALESCE(SUM(charge_amount), 0) AS CHAR) AS spend, " +
			"CAST(COALESCE(SUM(commission), 0) AS CHAR) AS commission " + usageWhere + " GROUP BY user_id ORDER BY user_id"
		if err := s.Conn(ctx).Raw(q, args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("sum customers' hits: %w", sqlbase.Translate(err))
		}
		for _, r := range rows {
			if err := add(r); err != nil {
				return nil, err
			}
		}
	} else {
		rows, err := s.Conn(ctx).Raw("SELECT user_id, 1 AS calls, CAST(charge_amount AS TEXT) AS spend, CAST(commission AS TEXT) AS commission "+
			usageWhere+" ORDER BY user_id, id", args...).Rows()
		if err != nil {
			return nil, fmt.Errorf("read customers' hits: %w", sqlbase.Translate(err))
		}
		defer rows.Close()
		for rows.Next() {
			var r usageSumRow
			if err := rows.Scan(&r.UserID, &r.Calls, &r.Spend, &r.Commission); err != nil {
				return nil, fmt.Errorf("read customers' hits: %w", sqlbase.Translate(err))
			}
			if err := add(r); err != nil {
				return nil, err
			}
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("read customers' hits: %w", sqlbase.Translate(err))
		}
	}
	out := make([]report.CustomerUsage, 0, len(order))
	for _, id := range order {
		u := sums[id]
		u.Cost = u.Spend.Sub(u.Commission)
		out = append(out, *u)
	}
	return out, nil
}

func (s *ResellerReportStore) CommissionSettled(ctx context.Context, resellerID uint64, from, to time.Time) (decimal.Decimal, error) {
	var rows []struct {
		Amount string `gorm:"column:amount"`
		Taken  string `gorm:"column:taken"`
	}
	err := s.Conn(ctx).Raw("SELECT CAST(amount AS CHAR) AS amount, CAST(reversal_taken AS CHAR) AS taken FROM commission_settlements "+
		"WHERE reseller_id = ? AND hour_start >= ? AND hour_start < ?", resellerID, sqlbase.DBTime(from), sqlbase.DBTime(to)).Scan(&rows).Error
	if err != nil {
		return decimal.Zero, fmt.Errorf("sum commission settlements: %w", sqlbase.Translate(err))
	}
	sum := decimal.Zero
	for _, r := range rows {
		a, err := decimal.NewFromString(r.Amount)
		if err != nil {
			return decimal.Zero, fmt.Errorf("commission settlement amount %q: %w", r.Amount, err)
		}
		tk, err := decimal.NewFromString(r.Taken)
		if err != nil {
			return decimal.Zero, fmt.Errorf("commission settlement reversal %q: %w", r.Taken, err)
		}
		sum = sum.Add(a.Round(2)).Sub(tk.Round(2))
	}
	return sum, nil
}

func (s *ResellerReportStore) HitCommissions(ctx context.Context, hitIDs []uint64) (map[uint64]decimal.Decimal, error) {
	out := make(map[uint64]decimal.Decimal, len(hitIDs))
	if len(hitIDs) == 0 {
		return out, nil
	}
	var rows []struct {
		ID         uint64 `gorm:"column:id"`
		Commission string `gorm:"column:commission"`
	}
	if err := s.Conn(ctx).Raw("SELECT id, CAST(commission AS CHAR) AS commission FROM api_hit_logs WHERE id IN ?", hitIDs).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("read hits' commission: %w", sqlbase.Translate(err))
	}
	for _, r := range rows {
		d, err := decimal.NewFromString(r.Commission)
		if err != nil {
			return nil, fmt.Errorf("commission of hit %d: %w", r.ID, err)
		}
		out[r.ID] = d
	}
	return out, nil
}
