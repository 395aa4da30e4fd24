// Package pricing decides what a call costs.
package pricing

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type Status string

const (
	StatusActive   Status = "active"
	StatusInactive Status = "inactive"
)

// Price is a pricing row: the service's default (UserID nil) or one user's override.
type Price struct {
	ID               uint64
	ServiceID        uint64
	UserID           *uint64
	AdminCost        decimal.Decimal
	UserPrice        decimal.Decimal
	ResellerPrice    decimal.Decimal
	MinimumHitCharge decimal.Decimal
	Status           Status
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

var (
	ErrNotFound  = errs.E(errs.NotFound, "pricing_not_found", "Pricing not found")
	ErrDuplicate = errs.E(errs.Conflict, "pricing_exists", "A pricing row for this service and user already exists")
)

// Charge is what a user of role pays per call under this row:
// max(the role's price, minimum_hit_charge), rounded half-up to 2 places.
func (p *Price) Charge(role user.Role) decimal.Decimal {
	var price decimal.Decimal
	switch role {
	case user.RoleAdmin:
		price = p.AdminCost
	case user.RoleReseller:
		price = p.ResellerPrice
	default:
		price = p.UserPrice
	}
	if p.MinimumHitCharge.GreaterThan(price) {
		price = p.MinimumHitCharge
	}
	return inr.Round2(price)
}

// Validate checks amounts against their columns.
func (p *Price) Validate() error {
	fe := errs.FieldErrors{}
	if p.Status == "" {
		p.Status = StatusActive
	}
	check := func(field string, d decimal.Decimal, places int) {
		if d.IsNegative() {
			fe.Add(field, "must not be negative")
		} else if !inr.FitsColumn(d, 10, places) {
			fe.Add(field, "must fit "+map[int]string{2: "8 digits and 2 decimals", 4: "6 digits and 4 decimals"}[places])
		}
	}
	check("admin_cost", p.AdminCost, 4)
	check("user_price", p.UserPrice, 4)
	check("reseller_price", p.ResellerPrice, 4)
	check("minimum_hit_charge", p.MinimumHitCharge, 2)
	if len(fe) == 0 { // each role's charge must fit the hit log too (ChargeFits)
		tooLarge := "makes a call's charge larger than " + MaxCharge.StringFixed(2)
		if !ChargeFits(inr.Round2(p.MinimumHitCharge)) {
			fe.Add("minimum_hit_charge", tooLarge)
		} else {
			for _, r := range []struct {
				field string
				role  user.Role
			}{{"admin_cost", user.RoleAdmin}, {"user_price", user.RoleUser}, {"reseller_price", user.RoleReseller}} {
				if !ChargeFits(p.Charge(r.role)) {
					fe.Add(r.field, tooLarge)
				}
			}
		}
	}
	if p.Status != StatusActive && p.Status != StatusInactive {
		fe.Add("status", "must be active or inactive")
	}
	return fe.Err()
}

// Repository stores pricing rows.
type Repository interface {
	Create(ctx context.Context, p *Price) error // ErrDuplicate on a second row for (service, user)
	ByID(ctx context.Context, id uint64) (*Price, error)
	// LockByID reads a row and locks it until the transaction ends.
	LockByID(ctx context.Context, id uint64) (*Price, error)
	ListByService(ctx context.Context, serviceID uint64) ([]Price, error)
	Update(ctx context.Context, p *Price) error
	Delete(ctx context.Context, id uint64) error
	// Applicable returns the active row of service for userID, else the
	// active default row; ErrNotFound when neither exists.
	Applicable(ctx context.Context, serviceID, userID uint64) (*Price, error)
}
