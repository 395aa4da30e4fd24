package resalestore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/catalog/pricing"
)

var (
	colSellingPrice = sqlbase.Column{Name: "price", Total: 10, Places: 4}
	colMarkup       = sqlbase.Column{Name: "default_markup", Total: 6, Places: 2}
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
	var w sqlbase.MoneyWriter
	p := pricing.CustomerPrice{ID: r.ID, ResellerID: r.ResellerID, ServiceID: r.ServiceID,
		Price: w.Get(colSellingPrice, r.Price), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
	return p, w.Err
}

// CustomerPriceStore keeps resellers' selling prices (customer_prices) and
// their default markup (reseller_settings.default_markup only: the brand
// columns belong to the brand's store).
type CustomerPriceStore struct{ sqlbase.Base }

var _ pricing.CustomerPrices = (*CustomerPriceStore)(nil)

func (s *CustomerPriceStore) Selling(ctx context.Context, resellerID, serviceID uint64) (pricing.Selling, error) {
	var price, markup sql.NullString
	err := s.Conn(ctx).Raw("SELECT (SELECT price FROM customer_prices WHERE reseller_id = ? AND service_id = ?), "+
		"(SELECT default_markup FROM reseller_settings WHERE reseller_id = ?)", resellerID, serviceID, resellerID).
		Row().Scan(&price, &markup)
	if err != nil {
		return pricing.Selling{}, fmt.Errorf("read selling price of reseller %d, service %d: %w", resellerID, serviceID, sqlbase.Translate(err))
	}
	var w sqlbase.MoneyWriter
	var out pricing.Selling
	if price.Valid {
		out.Price = w.GetPtr(colSellingPrice, &price.String)
	}
	if markup.Valid {
		out.Markup = w.GetPtr(colMarkup, &markup.String)
	}
	return out, w.Err
}

func (s *CustomerPriceStore) ListByReseller(ctx context.Context, resellerID uint64) ([]pricing.CustomerPrice, error) {
	var rows []customerPriceRow
	if err := s.Conn(ctx).Where("reseller_id = ?", resellerID).Order("service_id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list selling prices of reseller %d: %w", resellerID, sqlbase.Translate(err))
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

func (s *CustomerPriceStore) Set(ctx context.Context, p *pricing.CustomerPrice) error {
	var w sqlbase.MoneyWriter
	price := w.Put(colSellingPrice, p.Price)
	if w.Err != nil {
		return fmt.Errorf("set selling price: %w", w.Err)
	}
	now := p.UpdatedAt
	if now.IsZero() {
		now = time.Now()
	}
	at := sqlbase.DBTime(now)
	q := "INSERT INTO customer_prices (reseller_id, service_id, price, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"
	if s.Conflict == sqlbase.ConflictExcluded {
		q += " ON CONFLICT (reseller_id, service_id) DO UPDATE SET "
	} else {
		q += s.Conflict.RowAlias() + " ON DUPLICATE KEY UPDATE "
	}
	q += "price = " + s.Conflict.Inserted("price") + ", updated_at = " + s.Conflict.Inserted("updated_at")
	if err := s.Conn(ctx).Exec(q, p.ResellerID, p.ServiceID, price, at, at).Error; err != nil {
		return fmt.Errorf("set selling price of reseller %d, service %d: %w", p.ResellerID, p.ServiceID, sqlbase.Translate(err))
	}
	var r customerPriceRow
	if err := s.Conn(ctx).Where("reseller_id = ? AND service_id = ?", p.ResellerID, p.ServiceID).Take(&r).Error; err != nil {
		return fmt.Errorf("read selling price of reseller %d, service %d: %w", p.ResellerID, p.ServiceID, sqlbase.Translate(err))
	}
	got, err := toDomainCustomerPrice(&r)
	if err != nil {
		return err
	}
	*p = got
	return nil
}

func (s *CustomerPriceStore) Delete(ctx context.Context, resellerID, serviceID uint64) error {
	res := s.Conn(ctx).Where("reseller_id = ? AND service_id = ?", resellerID, serviceID).Delete(&customerPriceRow{})
	if res.Error != nil {
		return fmt.Errorf("delete selling price of reseller %d, service %d: %w", resellerID, serviceID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return pricing.ErrCustomerPriceNotFound
	}
	return nil
}

func (s *CustomerPriceStore) Markup(ctx context.Context, resellerID uint64) (*decimal.Decimal, error) {
	var markup sql.NullString
	err := s.Conn(ctx).Raw("SELECT (SELECT default_markup FROM reseller_settings WHERE reseller_id = ?)", resellerID).Row().Scan(&markup)
	if err != nil {
		return nil, fmt.Errorf("read markup of reseller %d: %w", resellerID, sqlbase.Translate(err))
	}
	if !markup.Valid {
		return nil, nil
	}
	var w sqlbase.MoneyWriter
	m := w.GetPtr(colMarkup, &markup.String)
	return m, w.Err
}

func (s *CustomerPriceStore) SetMarkup(ctx context.Context, resellerID uint64, markup *decimal.Decimal, at time.Time) error {
	var w sqlbase.MoneyWriter
	m := w.PutPtr(colMarkup, markup)
	if w.Err != nil {
		return fmt.Errorf("set markup: %w", w.Err)
	}
	q := "INSERT INTO reseller_settings (reseller_id, default_markup, updated_at) VALUES (?, ?, ?)"
	if s.Conflict == sqlbase.ConflictExcluded {
		q += " ON CONFLICT (reseller_id) DO UPDATE SET "
	} else {
		q += s.Conflict.RowAlias() + " ON DUPLICATE KEY UPDATE "
	}
	q += "default_markup = " + s.Conflict.Inserted("default_markup") + ", updated_at = " + s.Conflict.Inserted("updated_at")
	if err := s.Conn(ctx).Exec(q, resellerID, m, sqlbase.DBTime(at)).Error; err != nil {
		return fmt.Errorf("set markup of reseller %d: %w", resellerID, sqlbase.Translate(err))
	}
	return nil
}
