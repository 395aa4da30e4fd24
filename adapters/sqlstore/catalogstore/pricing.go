package catalogstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
)

// priceRow leaves out api_pricing.user_scope: the database computes it.
type priceRow struct {
	ID               uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ServiceID        uint64     `gorm:"column:api_service_id"`
	UserID           *uint64    `gorm:"column:user_id"`
	AdminCost        string     `gorm:"column:admin_cost"`
	UserPrice        string     `gorm:"column:user_price"`
	ResellerPrice    string     `gorm:"column:reseller_price"`
	MinimumHitCharge string     `gorm:"column:minimum_hit_charge"`
	Status           string     `gorm:"column:status"`
	CreatedAt        *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt        *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (priceRow) TableName() string { return "api_pricing" }

func toPriceRow(p *pricing.Price) (priceRow, error) {
	var w sqlbase.MoneyWriter
	r := priceRow{
		ID:               p.ID,
		ServiceID:        p.ServiceID,
		UserID:           p.UserID,
		AdminCost:        w.Put(sqlbase.ColAdminCost, p.AdminCost),
		UserPrice:        w.Put(sqlbase.ColUserPrice, p.UserPrice),
		ResellerPrice:    w.Put(sqlbase.ColResellerP, p.ResellerPrice),
		MinimumHitCharge: w.Put(sqlbase.ColMinCharge, p.MinimumHitCharge),
		Status:           string(p.Status),
		CreatedAt:        sqlbase.Stamp(p.CreatedAt),
		UpdatedAt:        sqlbase.Stamp(p.UpdatedAt),
	}
	if r.Status == "" {
		r.Status = string(pricing.StatusActive)
	}
	return r, w.Err
}

func toDomainPrice(r *priceRow) (*pricing.Price, error) {
	var w sqlbase.MoneyWriter
	p := &pricing.Price{
		ID:               r.ID,
		ServiceID:        r.ServiceID,
		UserID:           r.UserID,
		AdminCost:        w.Get(sqlbase.ColAdminCost, r.AdminCost),
		UserPrice:        w.Get(sqlbase.ColUserPrice, r.UserPrice),
		ResellerPrice:    w.Get(sqlbase.ColResellerP, r.ResellerPrice),
		MinimumHitCharge: w.Get(sqlbase.ColMinCharge, r.MinimumHitCharge),
		Status:           pricing.Status(r.Status),
		CreatedAt:        sqlbase.TimeFromDB(r.CreatedAt),
		UpdatedAt:        sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if w.Err != nil {
		return nil, fmt.Errorf("pricing %d: %w", r.ID, w.Err)
	}
	return p, nil
}

// PricingStore is the database's pricing.Repository.
type PricingStore struct{ sqlbase.Base }

var _ pricing.Repository = (*PricingStore)(nil)

// Create adds a pricing row. The unique key on (api_service_id,
// COALESCE(user_id, 0)) refuses a second row for the same service and user,
// and a second default row.
func (s *PricingStore) Create(ctx context.Context, p *pricing.Price) error {
	r, err := toPriceRow(p)
	if err != nil {
		return fmt.Errorf("create pricing: %w", err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		if msg, dup := sqlbase.DuplicateOf(err); dup && sqlbase.Mentions(msg, "api_pricing") {
			return pricing.ErrDuplicate.Wrap(err)
		}
		if f, msg := sqlbase.Classify(err); f == sqlbase.FailForeignKey && sqlbase.Mentions(msg, "api_service_id", "api_services") {
			return catalog.ErrServiceNotFound.Wrap(err)
		}
		return fmt.Errorf("create pricing: %w", sqlbase.Translate(err))
	}
	p.ID = r.ID
	p.CreatedAt, p.UpdatedAt = sqlbase.TimeFromDB(r.CreatedAt), sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

func (s *PricingStore) ByID(ctx context.Context, id uint64) (*pricing.Price, error) {
	return s.byID(s.Conn(ctx), id)
}

func (s *PricingStore) LockByID(ctx context.Context, id uint64) (*pricing.Price, error) {
	return s.byID(s.Locking(s.Conn(ctx)), id)
}

func (s *PricingStore) byID(q *gorm.DB, id uint64) (*pricing.Price, error) {
	var r priceRow
	if err := q.Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, pricing.ErrNotFound)
	}
	return toDomainPrice(&r)
}

// ListByService lists the default row first, then users' rows by id.
func (s *PricingStore) ListByService(ctx context.Context, serviceID uint64) ([]pricing.Price, error) {
	var rows []priceRow
	err := s.Conn(ctx).Where("api_service_id = ?", serviceID).
		Order("CASE WHEN user_id IS NULL THEN 0 ELSE 1 END, id").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list pricing of service %d: %w", serviceID, sqlbase.Translate(err))
	}
	out := make([]pricing.Price, 0, len(rows))
	for i := range rows {
		p, err := toDomainPrice(&rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, nil
}

// Update writes the amounts and the status; service and user stay.
func (s *PricingStore) Update(ctx context.Context, p *pricing.Price) error {
	r, err := toPriceRow(p)
	if err != nil {
		return fmt.Errorf("update pricing %d: %w", p.ID, err)
	}
	res := s.Conn(ctx).Model(&priceRow{}).Where("id = ?", p.ID).Updates(map[string]any{
		"admin_cost":         r.AdminCost,
		"user_price":         r.UserPrice,
		"reseller_price":     r.ResellerPrice,
		"minimum_hit_charge": r.MinimumHitCharge,
		"status":             r.Status,
		"updated_at":         r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("update pricing %d: %w", p.ID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return pricing.ErrNotFound
	}
	p.UpdatedAt = sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

func (s *PricingStore) Delete(ctx context.Context, id uint64) error {
	res := s.Conn(ctx).Where("id = ?", id).Delete(&priceRow{})
	if res.Error != nil {
		return fmt.Errorf("delete pricing %d: %w", id, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return pricing.ErrNotFound
	}
	return nil
}

// Applicable picks the user's active row, else the service's active default
// row, in one query.
func (s *PricingStore) Applicable(ctx context.Context, serviceID, userID uint64) (*pricing.Price, error) {
	var r priceRow
	err := s.Conn(ctx).
		Where("api_service_id = ? AND status = ? AND (user_id = ? OR user_id IS NULL)",
			serviceID, string(pricing.StatusActive), userID).
		Order("CASE WHEN user_id IS NULL THEN 1 ELSE 0 END").
		Take(&r).Error
	if err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, pricing.ErrNotFound)
	}
	return toDomainPrice(&r)
}
