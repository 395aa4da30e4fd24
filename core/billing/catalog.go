package billing

import (
	"context"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// The plan catalog as admins keep it (docs/decisions.md, "Plans that bill").

// Limits of a plan's fields.
const (
	maxPlanName     = 100
	maxFeatures     = 20
	maxFeature      = 100
	maxMonthlyCalls = 1_000_000_000
)

// checkPlan adds to fe what is wrong with p as the catalog would keep it.
func checkPlan(fe errs.FieldErrors, p *plan.Plan) {
	if len(p.Name) == 0 || len(p.Name) > maxPlanName {
		fe.Add("name", "is required, at most 100 characters")
	}
	if pr := p.MonthlyPrice; pr != nil && (pr.IsNegative() || !inr.FitsColumn(*pr, 12, 2) || !pr.Equal(pr.Round(2))) {
		fe.Add("monthly_price", "must be an amount of at least 0.00 with at most 2 decimals, or null for a price agreed per account")
	}
	if c := p.MonthlyCalls; c != nil && (*c < 0 || *c > maxMonthlyCalls) {
		fe.Add("monthly_calls", "must be 0 to 1000000000, or null for unlimited")
	}
	if len(p.Features) > maxFeatures {
		fe.Add("features", "at most 20")
	}
	for _, f := range p.Features {
		if len(f) == 0 || len(f) > maxFeature {
			fe.Add("features", "each must be 1 to 100 characters")
			break
		}
	}
	if p.Status != plan.StatusActive && p.Status != plan.StatusRetired {
		fe.Add("status", "must be active or retired")
	}
}

// NewPlan is an admin's new plan. MonthlyPrice nil: agreed per account;
// MonthlyCalls nil: unlimited.
type NewPlan struct {
	Code         string
	Name         string
	MonthlyPrice *decimal.Decimal
	MonthlyCalls *int
	Features     []string
	Public       bool
}

// CreatePlan adds a plan to the catalog, active, audited. 409
// plan_code_taken when its code exists.
func (b *Billing) CreatePlan(ctx context.Context, admin *user.User, in NewPlan) (*plan.Plan, error) {
	now := b.now().UTC()
	p := &plan.Plan{Code: in.Code, Name: in.Name, MonthlyPrice: in.MonthlyPrice, MonthlyCalls: in.MonthlyCalls,
		Features: in.Features, Public: in.Public, Status: plan.StatusActive, CreatedAt: now, UpdatedAt: now}
	if p.Features == nil {
		p.Features = []string{}
	}
	fe := errs.FieldErrors{}
	if !user.Plan(p.Code).Valid() {
		fe.Add("code", "must be 1 to 50 lowercase letters, digits or dashes, starting with a letter or digit")
	}
	checkPlan(fe, p)
	if err := fe.Err(); err != nil {
		return nil, err
	}
	err := b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Plans.Create(ctx, p); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, admin, audit.PlanCreate, audit.TargetPlan, p.ID, nil, planSnapshot(p))
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// PlanPatch is an admin's edit of a plan: nil leaves a field alone; Set*
// with a nil value makes the price custom or the allowance unlimited.
type PlanPatch struct {
	Name         *string
	SetPrice     bool
	MonthlyPrice *decimal.Decimal
	SetCalls     bool
	MonthlyCalls *int
	Features     *[]string
	Public       *bool
	Status       *plan.Status
}

// apply writes the patch's fields onto p.
func (patch PlanPatch) apply(p *plan.Plan) {
	if patch.Name != nil {
		p.Name = *patch.Name
	}
	if patch.SetPrice {
		p.MonthlyPrice = patch.MonthlyPrice
	}
	if patch.SetCalls {
		p.MonthlyCalls = patch.MonthlyCalls
	}
	if patch.Features != nil {
		p.Features = *patch.Features
	}
	if patch.Public != nil {
		p.Public = *patch.Public
	}
	if patch.Status != nil {
		p.Status = *patch.Status
	}
}

// UpdatePlan edits plan code, audited. A new allowance applies to the
// plan's subscribers' next call; a new price to subscriptions that move
// onto the plan afterwards (those on it keep the price they agreed to).
func (b *Billing) UpdatePlan(ctx context.Context, admin *user.User, code string, patch PlanPatch) (*plan.Plan, error) {
	var out *plan.Plan
	err := b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		p, err := s.Plans.ByCode(ctx, code)
		if err != nil {
			return err
		}
		before := *p
		patch.apply(p)
		fe := errs.FieldErrors{}
		checkPlan(fe, p)
		if err := fe.Err(); err != nil {
			return err
		}
		if code == b.cfg.DefaultPlan && p.Status != plan.StatusActive {
			return errs.E(errs.Conflict, "default_plan", "The default plan cannot be retired")
		}
		p.UpdatedAt = b.now().UTC()
		if err := s.Plans.Update(ctx, p); err != nil {
			return err
		}
		out = p
		return store.Record(ctx, s.Audit, b.now(), admin, audit.PlanUpdate, audit.TargetPlan, p.ID, planSnapshot(&before), planSnapshot(p))
	})
	return out, err
}

type planAudit struct {
	Code         string   `json:"code"`
	Name         string   `json:"name"`
	MonthlyPrice *string  `json:"monthly_price"`
	MonthlyCalls *int     `json:"monthly_calls"`
	Features     []string `json:"features"`
	Public       bool     `json:"public"`
	Status       string   `json:"status"`
}

func planSnapshot(p *plan.Plan) planAudit {
	return planAudit{Code: p.Code, Name: p.Name, MonthlyPrice: inr.Format2Ptr(p.MonthlyPrice), MonthlyCalls: p.MonthlyCalls,
		Features: p.Features, Public: p.Public, Status: string(p.Status)}
}
