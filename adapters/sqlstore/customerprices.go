package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/catalog/pricing"
)

var (
	colSellingPrice = column{"price", 10, 4}
	colMarkup       = column{"default_markup", 6, 2}
)

type customerPriceRow struct {
	ID         uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ResellerID uint64     `gorm:"column:reseller_id"`
	ServiceID  uint64     `gorm:"column:service_id"`
	Price      string     `gorm:"column:price"`
	CreatedAt  *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt  *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (customerPriceRow) TableName() string { return "customer_prices" }

func toDomainCustomerPrice(r *customerPriceRow) (pricing.CustomerPrice, error) {
	var w moneyWriter
	p := pricing.CustomerPrice{ID: r.ID, ResellerID: r.ResellerID, ServiceID: r.ServiceID,
		Price: w.get(colSellingPrice, r.Price), CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt)}
	return p, w.err
}

// customerPriceStore keeps resellers' selling prices (customer_prices) and
// their default markup (reseller_settings.default_markup only: the brand
// columns belong to the brand's store).
type customerPriceStore struct{ base }

var _ pricing.CustomerPrices = (*customerPriceStore)(nil)

func (s *customerPriceStore) Selling(ctx context.Context, resellerID, serviceID uint64) (pricing.Selling, error) {
	var price, markup sql.NullString
	err := s.conn(ctx).Raw("SELECT (SELECT price FROM customer_prices WHERE reseller_id = ? AND service_id = ?), "+
		"(SELECT default_markup FROM reseller_settings WHERE reseller_id = ?)", resellerID, serviceID, resellerID).
		Row().Scan(&price, &markup)
	if err != nil {
		return pricing.Selling{}, fmt.Errorf("read selling price of reseller %d, service %d: %w", resellerID, serviceID, translate(err))
	}
	var w moneyWriter
	var out pricing.Selling
	if price.Valid {
		out.Price = w.getPtr(colSellingPrice, &price.String)
	}
	if markup.Valid {
		out.Markup = w.getPtr(colMarkup, &markup.String)
	}
	return out, w.err
}

func (s *customerPriceStore) ListByReseller(ctx context.Context, resellerID uint64) ([]pricing.CustomerPrice, error) {
	var rows []customerPriceRow
	if err := s.conn(ctx).Where("reseller_id = ?", resellerID).Order("service_id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list selling prices of reseller %d: %w", resellerID, translate(err))
	}
	out := make([]pricing.CustomerPrice, len(rows))
	for i := range rows {
		p, err := toDomainCustomerPrice(&rows[i])
		if err != nil {
			return nil, err
		}
		out[i] = p
	}
	return out, nil
}

func (s *customerPriceStore) Set(ctx context.Context, p *pricing.CustomerPrice) error {
	var w moneyWriter
	price := w.put(colSellingPrice, p.Price)
	if w.err != nil {
		return fmt.Errorf("set selling price: %w", w.err)
	}
	now := p.UpdatedAt
	if now.IsZero() {
		now = time.Now()
	}
	at := dbTime(now)
	q := "INSERT INTO customer_prices (reseller_id, service_id, price, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
	if s.conflict == conflictExcluded {
		q += " ON CONFLICT (reseller_id, service_id) DO UPDATE SET "
	} else {
		q += s.conflict.rowAlias() + " ON DUPLICATE KEY UPDATE "
	}
	q += "price = " + s.conflict.inserted("price") + ", updated_at = " + s.conflict.inserted("updated_at")
	if err := s.conn(ctx).Exec(q, p.ResellerID, p.ServiceID, price, at, at).Error; err != nil {
		return fmt.Errorf("set selling price of reseller %d, service %d: %w", p.ResellerID, p.ServiceID, translate(err))
	}
	var r customerPriceRow
	if err := s.conn(ctx).Where("reseller_id = ? AND service_id = ?", p.ResellerID, p.ServiceID).Take(&r).Error; err != nil {
		return fmt.Errorf("read selling price of reseller %d, service %d: %w", p.ResellerID, p.ServiceID, translate(err))
	}
	got, err := toDomainCustomerPrice(&r)
	if err != nil {
		return err
	}
	*p = got
	return nil
}

func (s *customerPriceStore) Delete(ctx context.Context, resellerID, serviceID uint64) error {
	res := s.conn(ctx).Where("reseller_id = ? AND service_id = ?", resellerID, serviceID).Delete(&customerPriceRow{})
	if res.Error != nil {
		return fmt.Errorf("delete selling price of reseller %d, service %d: %w", resellerID, serviceID, translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return pricing.ErrCustomerPriceNotFound
	}
	return nil
}

func (s *customerPriceStore) Markup(ctx context.Context, resellerID uint64) (*decimal.Decimal, error) {
	var markup sql.NullString
	err := s.conn(ctx).Raw("SELECT (SELECT default_markup FROM reseller_settings WHERE reseller_id = ?)", resellerID).Row().Scan(&markup)
	if err != nil {
		return nil, fmt.Errorf("read markup of reseller %d: %w", resellerID, translate(err))
	}
	if !markup.Valid {
		return nil, nil
	}
	var w moneyWriter
	m := w.getPtr(colMarkup, &markup.String)
	return m, w.err
}

func (s *customerPriceStore) SetMarkup(ctx context.Context, resellerID uint64, markup *decimal.Decimal, at time.Time) error {
	var w moneyWriter
	m := w.putPtr(colMarkup, markup)
	if w.err != nil {
		return fmt.Errorf("set markup: %w", w.err)
	}
	q := "INSERT INTO reseller_settings (reseller_id, default_markup, updated_at) VALUES (?, ?, ?)"
	if s.conflict == conflictExcluded {
		q += " ON CONFLICT (reseller_id) DO UPDATE SET "
	} else {
		q += s.conflict.rowAlias() + " ON DUPLICATE KEY UPDATE "
	}
	q += "default_markup = " + s.conflict.inserted("default_markup") + ", updated_at = " + s.conflict.inserted("updated_at")
	if err := s.conn(ctx).Exec(q, resellerID, m, dbTime(at)).Error; err != nil {
		return fmt.Errorf("set markup of reseller %d: %w", resellerID, translate(err))
	}
	return nil
}
