package mysqlstore

import (
	"context"
	"fmt"

	"paygate/core/ledgercheck"
)

type transferLegRow struct {
	ID         uint64 `gorm:"column:id"`
	ResellerID uint64 `gorm:"column:reseller_id"`
	CustomerID uint64 `gorm:"column:customer_id"`
	Direction  string `gorm:"column:direction"`
	Amount     string `gorm:"column:amount"`
}

func (transferLegRow) TableName() string { return "transfers" }

var _ ledgercheck.Transfers = (*Store)(nil)

// ForEachTransfer visits every transfers row in id order, for the ledger
// check (the transfers' own repository belongs to the customers' use
// case).
func (s *Store) ForEachTransfer(ctx context.Context, fn func(ledgercheck.Transfer) error) error {
	q := s.db.WithContext(ctx).Model(&transferLegRow{}).Select("id, reseller_id, customer_id, direction, amount").Order("id")
	err := forEachRow(q, func(r *transferLegRow) (ledgercheck.Transfer, error) {
		var w moneyWriter
		t := ledgercheck.Transfer{ID: r.ID, ResellerID: r.ResellerID, CustomerID: r.CustomerID, Direction: r.Direction,
			Amount: w.get(colAmount, r.Amount)}
		return t, w.err
	}, fn)
	if err != nil {
		return fmt.Errorf("read transfers: %w", err)
	}
	return nil
}
