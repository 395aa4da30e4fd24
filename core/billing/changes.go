package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
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
	// GraceEndsAt is when a past-due subscription moves to the default
	// plan if still unpaid; nil when not past due.
	GraceEndsAt *time.Time
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
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
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
	if sub.PastDueSince != nil {
		end := sub.PastDueSince.Add(plan.Grace).UTC()
		v.GraceEndsAt = &end
	}
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
	cur, err := b.subscriptionOf(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	now := b.now()
	if err := b.catchUp(ctx, cur, now); err != nil {
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
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, c.UserID)
		if err != nil {
			return err
		}
		sub, err := s.Subscriptions.LockByUser(ctx, c.UserID)
		if err != nil {
			return err
		}
		if err := refusal(ctx, s.Plans, sub, target, c.Admin != nil); err != nil {
			return err
		}
		before := *sub
		switch {
		case appliesNow(sub, price, c.Admin != nil):
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
		if err := store.EmitMode(ctx, s.Webhooks, now, u, webhook.SubscriptionChanged, changeEvent(&before, sub), "", b.cfg.Livemode); err != nil {
			return err
		}
		if c.Admin != nil {
			if err := store.Record(ctx, s.Audit, now, c.Admin, audit.SubscriptionSet, audit.TargetUser, u.ID,
				subscriptionSnapshot(&before), subscriptionSnapshot(sub)); err != nil {
				return err
			}
		}
		view, err = b.view(ctx, sub, u)
		return err
	})
	return view, err
}

// refusal is why sub may not move to target now: a fee past due, or, for
// its owner, a plan (the target or the current one) that is not public.
// Change and Quote refuse alike.
func refusal(ctx context.Context, plans Plans, sub *plan.Subscription, target *plan.Plan, byAdmin bool) error {
	if sub.Status == plan.SubPastDue {
		return ErrPastDue
	}
	if byAdmin {
		return nil
	}
	cur, err := plans.ByCode(ctx, sub.PlanCode)
	if err != nil {
		return err
	}
	if !target.Public || !cur.Public {
		return ErrPlanNotPublic
	}
	return nil
}

// priceOf is the price c puts the account on for target: the admin's,
// else the plan's.
func (b *Billing) priceOf(target *plan.Plan, c Change) (decimal.Decimal, error) {
	if c.Price != nil {
		if c.Admin == nil {
			return decimal.Zero, errs.E(errs.Forbidden, "forbidden", "Only an admin sets a price")
		}
		if c.Price.IsNegative() || !inr.FitsColumn(*c.Price, 12, 2) || !c.Price.Equal(c.Price.Round(2)) {
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

// appliesNow reports whether a change of sub to price applies at once: an
// upgrade, or any admin's change. Others wait for the next period.
func appliesNow(sub *plan.Subscription, price decimal.Decimal, byAdmin bool) bool {
	return byAdmin || price.GreaterThan(sub.Price)
}

// catchUp renews sub into now's month when its period has ended and no
// renewal ran yet (the worker runs each minute), in the worker's own step,
// so a change made a moment after a month began acts on that month: the
// new month is charged at the price it renews at, then the change's
// difference for its days. Without it the difference would be booked to
// the month that ended and the new month charged in full after. A
// renewal the wallet cannot pay leaves sub past due, and the change is
// then refused (ErrPastDue).
func (b *Billing) catchUp(ctx context.Context, sub *plan.Subscription, now time.Time) error {
	if sub.Status != plan.SubActive || sub.Period >= plan.Month(now, b.cfg.Location) {
		return nil
	}
	_, err := b.renew(ctx, sub.UserID, now, &Result{})
	return err
}

// renewed is sub as catchUp would leave it at now, for a quote, which
// changes nothing: a period that ended is followed by now's month, on the
// plan and price waiting for it.
func (b *Billing) renewed(sub *plan.Subscription, now time.Time) *plan.Subscription {
	month := plan.Month(now, b.cfg.Location)
	if sub.Status != plan.SubActive || sub.Period >= month {
		return sub
	}
	start, end, err := plan.Bounds(month, b.cfg.Location)
	if err != nil {
		return sub
	}
	r := *sub
	if r.NextPlanCode != nil {
		r.PlanCode = *r.NextPlanCode
		if r.NextPrice != nil {
			r.Price = *r.NextPrice
		}
		r.NextPlanCode, r.NextPrice = nil, nil
	}
	r.Period, r.PeriodStart, r.PeriodEnd = month, start, end
	return &r
}

// upgradeCharge is what moving sub to price at once debits at now: the
// rise prorated over the days left of sub's period, the one it is booked
// to (plan.ProrateIn), or zero.
func (b *Billing) upgradeCharge(sub *plan.Subscription, price decimal.Decimal, now time.Time) decimal.Decimal {
	diff := price.Sub(sub.Price)
	if !diff.IsPositive() {
		return decimal.Zero
	}
	return plan.ProrateIn(diff, sub.Period, now, b.cfg.Location)
}

// Quote is what a change would do, shown before the owner confirms it.
type Quote struct {
	PlanCode     string
	Now          bool            // applies at once; else from the next period
	ChargeNow    decimal.Decimal // debited at once (0 for a change that waits)
	NextAmount   decimal.Decimal // the monthly price from the next period
	NextChargeAt time.Time
}

// Quote is what Change{UserID, PlanCode} by the owner would do at this
// instant, with the same refusals, changing nothing. The charge is the
// one Change takes if confirmed within the same local day.
func (b *Billing) Quote(ctx context.Context, userID uint64, planCode string) (*Quote, error) {
	cur, err := b.subscriptionOf(ctx, userID)
	if err != nil {
		return nil, err
	}
	now := b.now()
	sub := b.renewed(cur, now)
	target, err := b.s.Plans.ByCode(ctx, planCode)
	if err != nil {
		return nil, err
	}
	if target.Status != plan.StatusActive {
		return nil, ErrPlanRetired
	}
	if err := refusal(ctx, b.s.Plans, sub, target, false); err != nil {
		return nil, err
	}
	price, err := b.priceOf(target, Change{UserID: userID, PlanCode: planCode})
	if err != nil {
		return nil, err
	}
	q := &Quote{PlanCode: target.Code, Now: appliesNow(sub, price, false), NextAmount: price, NextChargeAt: sub.PeriodEnd}
	if q.Now {
		q.ChargeNow = b.upgradeCharge(sub, price, now)
	}
	return q, nil
}

// applyNow moves sub to code at price at once, charging the prorated
// difference when the price rises (to the period, reference plan_fee).
func (b *Billing) applyNow(ctx context.Context, s TxStores, u *user.User, sub *plan.Subscription, code string, price decimal.Decimal, now time.Time) error {
	if charge := b.upgradeCharge(sub, price, now); charge.IsPositive() {
		if u.Available().LessThan(charge) {
			return ledger.ErrInsufficientBalance
		}
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
		if _, err := store.Post(ctx, s.Books, now, b.cfg.Livemode, u, ledger.Debit, charge, ledger.RefPlanFee, &p.ID,
			fmt.Sprintf("Plan %s from %s, %s prorated", code, sub.PlanCode, p.Period)); err != nil {
			return err
		}
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return err
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
		"price": inr.Format2(after.Price), "period": after.Period}
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
	return subscriptionAudit{PlanCode: s.PlanCode, Price: inr.Format2(s.Price), Status: string(s.Status), Period: s.Period,
		NextPlanCode: s.NextPlanCode}
}
