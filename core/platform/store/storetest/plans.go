package storetest

import (
	"context"
	"maps"
	"slices"

	"github.com/shopspring/decimal"

	"paygate/core/billing/plan"
)

// seededPlans is the catalog as the migration seeds it: Starter (0.00,
// 100 calls, public) with id 1 and Enterprise (custom price, unlimited)
// with id 2.
func seededPlans() map[uint64]plan.Plan {
	zero, calls := decimal.Zero, 100
	return map[uint64]plan.Plan{
		1: {ID: 1, Code: "starter", Name: "Starter", MonthlyPrice: &zero, MonthlyCalls: &calls,
			Features: []string{"Up to 100 transactions per month"}, Public: true, Status: plan.StatusActive},
		2: {ID: 2, Code: "enterprise", Name: "Enterprise", Features: []string{"Unlimited transactions"}, Status: plan.StatusActive},
	}
}

// plansRepo: the plan catalog, unique by code; an update writes the
// allowance onto its users' rows, as the store's does.
type plansRepo struct{ d *DB }

var _ plan.Catalog = plansRepo{}

func (r plansRepo) List(_ context.Context, publicOnly bool) ([]plan.Plan, error) {
	var out []plan.Plan
	err := r.d.do("Plans.List", func(t *tables) error {
		for _, id := range slices.Sorted(maps.Keys(t.plans)) {
			p := t.plans[id]
			if !publicOnly || (p.Public && p.Status == plan.StatusActive) {
				out = append(out, copyPlan(p))
			}
		}
		return nil
	})
	return out, err
}

func (r plansRepo) ByCode(_ context.Context, code string) (*plan.Plan, error) {
	var out *plan.Plan
	err := r.d.do("Plans.ByCode", func(t *tables) error {
		for _, p := range t.plans {
			if p.Code == code {
				c := copyPlan(p)
				out = &c
				return nil
			}
		}
		return plan.ErrPlanNotFound
	})
	return out, err
}

func (r plansRepo) Create(_ context.Context, p *plan.Plan) error {
	return r.d.do("Plans.Create", func(t *tables) error {
		for _, have := range t.plans {
			if have.Code == p.Code {
				return plan.ErrCodeTaken
			}
		}
		t.next["plans"] = max(t.next["plans"], uint64(len(seededPlans()))) // past the seeded ids
		p.ID = t.id("plans", 0)
		t.plans[p.ID] = copyPlan(*p)
		return nil
	})
}

func (r plansRepo) Update(_ context.Context, p *plan.Plan) error {
	return r.d.do("Plans.Update", func(t *tables) error {
		for id, have := range t.plans {
			if have.Code == p.Code {
				c := copyPlan(*p)
				c.ID = id
				t.plans[id] = c
				for uid, u := range t.users {
					if string(u.Plan) == p.Code {
						u.MonthlyCalls = copyPtr(p.MonthlyCalls)
						t.users[uid] = u
					}
				}
				return nil
			}
		}
		return plan.ErrPlanNotFound
	})
}

func copyPlan(p plan.Plan) plan.Plan {
	p.Features = slices.Clone(p.Features)
	p.MonthlyCalls = copyPtr(p.MonthlyCalls)
	p.MonthlyPrice = copyPtr(p.MonthlyPrice)
	return p
}

func copyPtr[T any](v *T) *T {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}
