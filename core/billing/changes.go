package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/audit"
	"paygate/core/errs"
	"paygate/core/ledger"
	"paygate/core/money"
	"paygate/core/plan"
	"paygate/core/store"
	"paygate/core/user"
	"paygate/core/webhook"
)

var (
	ErrPlanNotPublic = errs.E(errs.Forbidden, "forbidden", "Only public plans can be switched to and from; contact us")
	ErrPlanRetired   = errs.E(errs.Conflict, "plan_retired", "This plan is no longer offered")
	ErrPastDue       = errs.E(errs.Conflict, "subscription_past_due", "Pay the past-due plan fee first")
	ErrPriceRequired = errs.E(errs.Invalid, "price_required", "This plan's price is agreed per account: give a price")
)

// View is a subscription as its owner sees it.
type View struct {
	Subscription *plan.Subscription
	Plan         *plan.Plan
	CallsUsed    int  // billed calls this local month
	CallsAllowed *int // nil: unlimited
	// NextChargeAt and NextAmount are the next renewal: the period's end,
	// at the price of the plan it renews on.
	NextChargeAt time.Time
	NextPlanCode string
	NextAmount   decimal.Decimal
}

// Plans lists the plans actor may see: all for admins, the public active
// ones for others.
func (b *Billing) Plans(ctx context.Context, actor *user.User) ([]plan.Plan, error) {
	return b.s.Plans.List(ctx, actor.Role != user.RoleAdmin)
}

// subscriptionOf reads userID's subscription, opening subscriptions first
// when the user has none yet (a new account before the worker's round).
func (b *Billing) subscriptionOf(ctx context.Context, userID uint64) (*plan.Subscription, error) {
	sub, err := b.s.Subscriptions.ByUser(ctx, userID)
	if !errors.Is(err, plan.ErrNoSubscription) {
		return sub, err
	}
	if _, err := b.open(ctx, b.now()); err != nil {
		return nil, err
	}
	return b.s.Subscriptions.ByUser(ctx, userID)
}

func (b *Billing) open(ctx context.Context, at time.Time) (int, error) {
	month := plan.Month(at, b.cfg.Location)
	start, end, err := plan.Bounds(month, b.cfg.Location)
	if err != nil {
		return 0, err
	}
	n := 0
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		n, err = s.Subscriptions.Open(ctx, month, start, end, at)
		return err
	})
	return n, err
}

// Subscription is userID's subscription with its plan, this month's
// allowance used and the next charge.
func (b *Billing) Subscription(ctx context.Context, userID uint64) (*View, error) {
	sub, err := b.subscriptionOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	u, err := b.s.Users.ByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	return b.view(ctx, sub, u)
}

func (b *Billing) view(ctx context.Context, sub *plan.Subscription, u *user.User) (*View, error) {
	p, err := b.s.Plans.ByCode(ctx, sub.PlanCode)
	if err != nil {
		return nil, err
	}
	v := &View{Subscription: sub, Plan: p, CallsAllowed: u.MonthlyCalls, NextChargeAt: sub.PeriodEnd,
		NextPlanCode: sub.PlanCode, NextAmount: sub.Price}
	if u.PlanMonth == plan.Month(b.now(), b.cfg.Location) {
		v.CallsUsed = u.PlanCalls
	}
	if sub.NextPlanCode != nil {
		v.NextPlanCode = *sub.NextPlanCode
		if sub.NextPrice != nil {
			v.NextAmount = *sub.NextPrice
		}
	}
	return v, nil
}

// Change is a plan change. By the owner (Admin nil): between public plans,
// an upgrade (a higher price) at once with the difference for the days
// left charged, a downgrade or an equal price from the next period. By an
// admin: any active plan, at Price for a custom-price plan (or to agree
// another price), at once, the prorated difference charged only when the
// price rises; audited. A wallet short of the charge: 402, nothing changed.
type Change struct {
	UserID   uint64
	PlanCode string
	Price    *decimal.Decimal
	Admin    *user.User
}

func (b *Billing) Change(ctx context.Context, c Change) (*View, error) {
	if _, err := b.subscriptionOf(ctx, c.UserID); err != nil {
		return nil, err
	}
	target, err := b.s.Plans.ByCode(ctx, c.PlanCode)
	if err != nil {
		return nil, err
	}
	if target.Status != plan.StatusActive {
		return nil, ErrPlanRetired
	}
	if c.Admin == nil && !target.Public {
		return nil, ErrPlanNotPublic
	}
	price, err := b.priceOf(target, c)
	if err != nil {
		return nil, err
	}
	var view *View
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		u, err := s.Users.LockByID(ctx, c.UserID)
		if err != nil {
			return err
		}
		sub, err := s.Subscriptions.LockByUser(ctx, c.UserID)
		if err != nil {
			return err
		}
		if sub.Status == plan.SubPastDue {
			return ErrPastDue
		}
		if c.Admin == nil {
			cur, err := s.Plans.ByCode(ctx, sub.PlanCode)
			if err != nil {
				return err
			}
			if !target.Public || !cur.Public {
				return ErrPlanNotPublic
			}
		}
		before := *sub
		now := b.now()
		switch {
		case price.GreaterThan(sub.Price) || c.Admin != nil:
			err = b.applyNow(ctx, s, u, sub, target.Code, price, now)
		case target.Code == sub.PlanCode && price.Equal(sub.Price):
			sub.NextPlanCode, sub.NextPrice = nil, nil // staying: a waiting downgrade is dropped
			sub.UpdatedAt = now.UTC()
			err = s.Subscriptions.Save(ctx, sub)
		default:
			code := target.Code
			sub.NextPlanCode, sub.NextPrice, sub.UpdatedAt = &code, &price, now.UTC()
			err = s.Subscriptions.Save(ctx, sub)
		}
		if err != nil {
			return err
		}
		if err := store.EmitMode(ctx, s, now, u, webhook.SubscriptionChanged, changeEvent(&before, sub), "", b.cfg.Livemode); err != nil {
			return err
		}
		if c.Admin != nil {
			if err := store.Record(ctx, s, now, c.Admin, audit.SubscriptionSet, audit.TargetUser, u.ID,
				subscriptionSnapshot(&before), subscriptionSnapshot(sub)); err != nil {
				return err
			}
		}
		view, err = b.view(ctx, sub, u)
		return err
	})
	return view, err
}

// priceOf is the price c puts the account on for target: the admin's,
// else the plan's.
func (b *Billing) priceOf(target *plan.Plan, c Change) (decimal.Decimal, error) {
	if c.Price != nil {
		if c.Admin == nil {
			return decimal.Zero, errs.E(errs.Forbidden, "forbidden", "Only an admin sets a price")
		}
		if c.Price.IsNegative() || !money.FitsColumn(*c.Price, 12, 2) || !c.Price.Equal(c.Price.Round(2)) {
			fe := errs.FieldErrors{}
			fe.Add("price", "must be an amount of at least 0.00 with at most 2 decimals")
			return decimal.Zero, fe.Err()
		}
		return *c.Price, nil
	}
	if target.CustomPrice() {
		return decimal.Zero, ErrPriceRequired
	}
	return *target.MonthlyPrice, nil
}

// applyNow moves sub to code at price at once, charging the prorated
// difference when the price rises (to the period, reference plan_fee).
func (b *Billing) applyNow(ctx context.Context, s store.Stores, u *user.User, sub *plan.Subscription, code string, price decimal.Decimal, now time.Time) error {
	if diff := price.Sub(sub.Price); diff.IsPositive() {
		charge := plan.Prorate(diff, now, b.cfg.Location)
		if u.Available().LessThan(charge) {
			return ledger.ErrInsufficientBalance
		}
		if charge.IsPositive() {
			p, err := s.Subscriptions.PeriodOf(ctx, u.ID, sub.Period)
			if err != nil {
				return err
			}
			p.Amount, p.Status, p.PlanCode, p.UpdatedAt = p.Amount.Add(charge), plan.PeriodPaid, code, now.UTC()
			if p.PaidAt == nil {
				t := now.UTC()
				p.PaidAt = &t
			}
			if err := s.Subscriptions.SavePeriod(ctx, p); err != nil {
				return err
			}
			if _, err := store.Post(ctx, s, now, b.cfg.Livemode, u, ledger.Debit, charge, ledger.RefPlanFee, &p.ID,
				fmt.Sprintf("Plan %s from %s, %s prorated", code, sub.PlanCode, p.Period)); err != nil {
				return err
			}
			if err := s.Users.SaveBalance(ctx, u); err != nil {
				return err
			}
		}
	}
	sub.PlanCode, sub.Price, sub.NextPlanCode, sub.NextPrice, sub.UpdatedAt = code, price, nil, nil, now.UTC()
	if err := s.Subscriptions.Save(ctx, sub); err != nil {
		return err
	}
	if u.Plan == user.Plan(code) {
		return nil
	}
	return b.movePlan(ctx, s, u, code)
}

func changeEvent(before, after *plan.Subscription) map[string]any {
	e := map[string]any{"user_id": after.UserID, "previous_plan": before.PlanCode, "plan_code": after.PlanCode,
		"price": money.Format2(after.Price), "period": after.Period}
	if after.NextPlanCode != nil {
		e["next_plan_code"] = *after.NextPlanCode
	}
	return e
}

type subscriptionAudit struct {
	PlanCode     string  `json:"plan_code"`
	Price        string  `json:"price"`
	Status       string  `json:"status"`
	Period       string  `json:"period"`
	NextPlanCode *string `json:"next_plan_code,omitempty"`
}

func subscriptionSnapshot(s *plan.Subscription) subscriptionAudit {
	return subscriptionAudit{PlanCode: s.PlanCode, Price: money.Format2(s.Price), Status: string(s.Status), Period: s.Period,
		NextPlanCode: s.NextPlanCode}
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

// UpdatePlan edits plan code, audited. A new allowance applies to the
// plan's subscribers' next call; a new price to subscriptions that move
// onto the plan afterwards (those on it keep the price they agreed to).
func (b *Billing) UpdatePlan(ctx context.Context, admin *user.User, code string, patch PlanPatch) (*plan.Plan, error) {
	fe := errs.FieldErrors{}
	if patch.Name != nil && (len(*patch.Name) == 0 || len(*patch.Name) > 100) {
		fe.Add("name", "is required, at most 100 characters")
	}
	if patch.SetPrice && patch.MonthlyPrice != nil {
		if pr := *patch.MonthlyPrice; pr.IsNegative() || !money.FitsColumn(pr, 12, 2) || !pr.Equal(pr.Round(2)) {
			fe.Add("monthly_price", "must be an amount of at least 0.00 with at most 2 decimals, or null for a price agreed per account")
		}
	}
	if patch.SetCalls && patch.MonthlyCalls != nil && (*patch.MonthlyCalls < 0 || *patch.MonthlyCalls > 1_000_000_000) {
		fe.Add("monthly_calls", "must be 0 to 1000000000, or null for unlimited")
	}
	if patch.Features != nil && len(*patch.Features) > 20 {
		fe.Add("features", "at most 20")
	}
	if patch.Status != nil && *patch.Status != plan.StatusActive && *patch.Status != plan.StatusRetired {
		fe.Add("status", "must be active or retired")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	var out *plan.Plan
	err := b.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		p, err := s.Plans.ByCode(ctx, code)
		if err != nil {
			return err
		}
		before := *p
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
		if code == b.cfg.DefaultPlan && p.Status != plan.StatusActive {
			return errs.E(errs.Conflict, "default_plan", "The default plan cannot be retired")
		}
		p.UpdatedAt = b.now().UTC()
		if err := s.Plans.Update(ctx, p); err != nil {
			return err
		}
		out = p
		return store.Record(ctx, s, b.now(), admin, audit.PlanUpdate, audit.TargetPlan, p.ID, planSnapshot(&before), planSnapshot(p))
	})
	return out, err
}

type planAudit struct {
	Name         string   `json:"name"`
	MonthlyPrice *string  `json:"monthly_price"`
	MonthlyCalls *int     `json:"monthly_calls"`
	Features     []string `json:"features"`
	Public       bool     `json:"public"`
	Status       string   `json:"status"`
}

func planSnapshot(p *plan.Plan) planAudit {
	a := planAudit{Name: p.Name, MonthlyCalls: p.MonthlyCalls, Features: p.Features, Public: p.Public, Status: string(p.Status)}
	if p.MonthlyPrice != nil {
		s := money.Format2(*p.MonthlyPrice)
		a.MonthlyPrice = &s
	}
	return a
}
