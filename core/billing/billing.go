package billing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// Notify mails the owner of an account (nil drops the mail). It is called
// after the transaction that caused it committed.
type Notify func(ctx context.Context, to, subject, text string)

// Config is what billing needs of the service's configuration.
type Config struct {
	Location    *time.Location // TIMEZONE: the months' boundaries
	DefaultPlan string         // the plan of new accounts and of those whose grace ended
	// Livemode is the livemode of plan fees' events: whether this
	// instance's money is real (decisions: "Webhooks", livemode).
	Livemode bool
}

// Deps are the ports billing runs on.
type Deps struct {
	Tx      store.TransactorOf[TxStores]
	Stores  Stores
	Notify  Notify
	Now     func() time.Time
	Log     *slog.Logger
	Metrics Metrics // may be nil
	Config  Config
}

// Metrics receives billing's measurements (adapters/metrics).
type Metrics interface {
	// SubscriptionsBilled counts n subscription fees by outcome, once their
	// transaction committed: renewed (charged when due), past_due (the
	// wallet was short), paid (a past-due fee paid later), downgraded (the
	// grace ended unpaid).
	SubscriptionsBilled(outcome string, n int)
}

type nopMetrics struct{}

func (nopMetrics) SubscriptionsBilled(string, int) {}

// Billing is the subscriptions' use cases.
type Billing struct {
	tx      store.TransactorOf[TxStores]
	s       Stores
	notify  Notify
	now     func() time.Time
	log     *slog.Logger
	metrics Metrics
	cfg     Config
}

func New(d Deps) *Billing {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Config.Location == nil {
		d.Config.Location = time.UTC
	}
	if d.Config.DefaultPlan == "" {
		d.Config.DefaultPlan = string(user.PlanStarter)
	}
	if d.Metrics == nil {
		d.Metrics = nopMetrics{}
	}
	return &Billing{tx: d.Tx, s: d.Stores, notify: d.Notify, now: d.Now, log: d.Log, metrics: d.Metrics, cfg: d.Config}
}

// batch is how many subscriptions one query of a round picks.
const batch = 100

// Result counts what a round did.
type Result struct {
	Opened, Renewed, PastDue, Paid, Downgraded int
}

// Changed is how many subscriptions the round changed.
func (r Result) Changed() int { return r.Opened + r.Renewed + r.PastDue + r.Paid + r.Downgraded }

// Run is one billing step at instant at: subscriptions opened for users
// without one, past-due fees retried (and the grace's end applied), then
// every renewal due at at that was not done, each in its own transaction.
// The worker runs it with the clock; `server billing run --at` with any
// instant. Run twice, or on two instances at once, it charges once.
func (b *Billing) Run(ctx context.Context, at time.Time) (Result, error) {
	var res Result
	month := plan.Month(at, b.cfg.Location)
	start, end, err := plan.Bounds(month, b.cfg.Location)
	if err != nil {
		return res, err
	}
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		res.Opened, err = s.Subscriptions.Open(ctx, month, start, end, at)
		return err
	})
	if err != nil {
		return res, err
	}
	errDue := b.each(ctx, func(ctx context.Context, after uint64) ([]uint64, error) {
		return b.s.Subscriptions.PastDue(ctx, after, batch)
	},
		func(ctx context.Context, id uint64) (bool, error) { return b.settle(ctx, id, at, &res) })
	errRenew := b.each(ctx, func(ctx context.Context, after uint64) ([]uint64, error) {
		return b.s.Subscriptions.Behind(ctx, month, after, batch)
	},
		func(ctx context.Context, id uint64) (bool, error) { return b.renew(ctx, id, at, &res) })
	return res, errors.Join(errDue, errRenew)
}

// each runs step for every user list names, page after page in user id
// order. A user whose step fails is logged and left to the next round, so
// one broken account does not stop the others' renewals; the round then
// reports the first failure.
func (b *Billing) each(ctx context.Context, list func(ctx context.Context, after uint64) ([]uint64, error), step func(context.Context, uint64) (bool, error)) error {
	var first error
	after := uint64(0)
	for {
		ids, err := list(ctx, after)
		if err != nil {
			return errors.Join(first, err)
		}
		for _, id := range ids {
			if _, err := step(ctx, id); err != nil {
				if ctx.Err() != nil {
					return err
				}
				b.log.Warn("billing of a user failed", "user_id", id, "err", err)
				if first == nil {
					first = fmt.Errorf("billing of user %d: %w", id, err)
				}
			}
			after = id
		}
		if len(ids) < batch {
			return first
		}
	}
}

// mail is a message for after the commit.
type mail struct{ to, subject, text string }

func (b *Billing) send(ctx context.Context, ms []mail) {
	if b.notify == nil {
		return
	}
	for _, m := range ms {
		b.notify(ctx, m.to, m.subject, m.text)
	}
}

// outcome is what one user's step did: its counts, and the mails to send
// once its transaction committed.
type outcome struct {
	counts Result
	mails  []mail
}

// step runs fn in one transaction on userID's locked user row and
// subscription (in that order, as every billing write takes them); after
// the commit, fn's counts join res and its mails go out. It reports
// whether fn changed anything.
func (b *Billing) step(ctx context.Context, userID uint64, res *Result,
	fn func(ctx context.Context, s TxStores, u *user.User, sub *plan.Subscription, out *outcome) error) (bool, error) {
	var out outcome
	err := b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		out = outcome{} // a retried transaction starts over
		u, err := s.Users.LockByID(ctx, userID)
		if err != nil {
			return err
		}
		sub, err := s.Subscriptions.LockByUser(ctx, userID)
		if err != nil {
			return err
		}
		return fn(ctx, s, u, sub, &out)
	})
	if err != nil {
		return false, err
	}
	res.Opened += out.counts.Opened
	res.Renewed += out.counts.Renewed
	res.PastDue += out.counts.PastDue
	res.Paid += out.counts.Paid
	res.Downgraded += out.counts.Downgraded
	for _, c := range []struct {
		outcome string
		n       int
	}{{"renewed", out.counts.Renewed}, {"past_due", out.counts.PastDue}, {"paid", out.counts.Paid}, {"downgraded", out.counts.Downgraded}} {
		if c.n > 0 {
			b.metrics.SubscriptionsBilled(c.outcome, c.n)
		}
	}
	b.send(ctx, out.mails)
	return out.counts.Changed() > 0, nil
}

// renew charges every period of userID's subscription due at at, in
// order, stopping at one the wallet cannot pay (past due).
func (b *Billing) renew(ctx context.Context, userID uint64, at time.Time, res *Result) (bool, error) {
	month := plan.Month(at, b.cfg.Location)
	return b.step(ctx, userID, res, func(ctx context.Context, s TxStores, u *user.User, sub *plan.Subscription, out *outcome) error {
		for sub.Status == plan.SubActive && sub.Period < month {
			m, err := b.renewOnce(ctx, s, u, sub, at)
			if err != nil {
				return err
			}
			if sub.Status == plan.SubPastDue {
				out.counts.PastDue++
				out.mails = append(out.mails, m...)
			} else {
				out.counts.Renewed++
			}
		}
		return nil
	})
}

// renewOnce moves sub into the month after its period and charges it: a
// downgrade waiting for the period applies first; a price of 0.00 writes
// no ledger row; a wallet short of the price makes sub past due.
func (b *Billing) renewOnce(ctx context.Context, s TxStores, u *user.User, sub *plan.Subscription, at time.Time) ([]mail, error) {
	next := plan.NextMonth(sub.Period)
	start, end, err := plan.Bounds(next, b.cfg.Location)
	if err != nil {
		return nil, err
	}
	now := b.now().UTC()
	if sub.NextPlanCode != nil {
		sub.PlanCode = *sub.NextPlanCode
		if sub.NextPrice != nil {
			sub.Price = *sub.NextPrice
		}
		sub.NextPlanCode, sub.NextPrice = nil, nil
		if err := b.movePlan(ctx, s, u, sub.PlanCode); err != nil {
			return nil, err
		}
	}
	sub.Period, sub.PeriodStart, sub.PeriodEnd, sub.UpdatedAt = next, start, end, now
	p := &plan.Period{SubscriptionID: sub.ID, UserID: u.ID, Period: next, PlanCode: sub.PlanCode, Amount: sub.Price,
		Status: plan.PeriodPaid, PaidAt: &now, CreatedAt: now, UpdatedAt: now}
	short := sub.Price.IsPositive() && u.Available().LessThan(sub.Price)
	if short {
		p.Status, p.PaidAt = plan.PeriodDue, nil
		sub.Status, sub.PastDueSince = plan.SubPastDue, &at
	}
	ok, err := s.Subscriptions.InsertPeriod(ctx, p)
	if err != nil {
		return nil, err
	}
	if !ok { // under the user's lock only a broken invariant gets here: change nothing
		return nil, fmt.Errorf("period %s of user %d already charged", next, u.ID)
	}
	if err := s.Subscriptions.Save(ctx, sub); err != nil {
		return nil, err
	}
	if short {
		if err := store.EmitMode(ctx, s.Webhooks, now, u, webhook.SubscriptionPastDue, subscriptionEvent(sub, p), "", b.cfg.Livemode); err != nil {
			return nil, err
		}
		return []mail{{u.Email, "Your plan fee is past due",
			fmt.Sprintf("Your balance could not pay the %s plan's fee of INR %s for %s. Add money within 7 days to keep your plan; it is retried on every credit.",
				sub.PlanCode, inr.Format2(sub.Price), next)}}, nil
	}
	return nil, b.charge(ctx, s, u, sub, p, now)
}

// charge debits period p's fee (none for 0.00) and reports the renewal.
func (b *Billing) charge(ctx context.Context, s TxStores, u *user.User, sub *plan.Subscription, p *plan.Period, now time.Time) error {
	if !p.Amount.IsPositive() {
		return nil
	}
	if _, err := store.Post(ctx, s.Books, now, b.cfg.Livemode, u, ledger.Debit, p.Amount, ledger.RefPlanFee, &p.ID,
		fmt.Sprintf("Plan %s, %s", p.PlanCode, p.Period)); err != nil {
		return err
	}
	if err := s.Users.SaveBalance(ctx, u); err != nil {
		return err
	}
	return store.EmitMode(ctx, s.Webhooks, now, u, webhook.SubscriptionRenewed, subscriptionEvent(sub, p), "", b.cfg.Livemode)
}

// movePlan puts u on plan code (users.plan, and the allowance the store
// writes with it), in the transaction that changes the subscription.
func (b *Billing) movePlan(ctx context.Context, s TxStores, u *user.User, code string) error {
	if _, err := s.Plans.ByCode(ctx, code); err != nil {
		return err
	}
	u.Plan = user.Plan(code)
	u.UpdatedAt = b.now().UTC()
	return s.Users.Update(ctx, u)
}

// settle retries a past-due fee: paid, the subscription is active again;
// still short after the grace, it moves to the default plan, whose
// allowance applies to the very next call.
func (b *Billing) settle(ctx context.Context, userID uint64, at time.Time, res *Result) (bool, error) {
	return b.step(ctx, userID, res, func(ctx context.Context, s TxStores, u *user.User, sub *plan.Subscription, out *outcome) error {
		if sub.Status != plan.SubPastDue {
			return nil
		}
		p, err := s.Subscriptions.PeriodOf(ctx, userID, sub.Period)
		if err != nil {
			return err
		}
		now := b.now().UTC()
		switch {
		case !u.Available().LessThan(p.Amount):
			p.Status, p.PaidAt, p.UpdatedAt = plan.PeriodPaid, &now, now
			sub.Status, sub.PastDueSince, sub.UpdatedAt = plan.SubActive, nil, now
			if err := s.Subscriptions.SavePeriod(ctx, p); err != nil {
				return err
			}
			if err := s.Subscriptions.Save(ctx, sub); err != nil {
				return err
			}
			out.counts.Paid++
			return b.charge(ctx, s, u, sub, p, now)
		case sub.PastDueSince != nil && !at.Before(sub.PastDueSince.Add(plan.Grace)):
			def, err := s.Plans.ByCode(ctx, b.cfg.DefaultPlan)
			if err != nil {
				return err
			}
			p.Status, p.UpdatedAt = plan.PeriodVoid, now
			from := sub.PlanCode
			sub.PlanCode, sub.Status, sub.PastDueSince, sub.UpdatedAt = def.Code, plan.SubActive, nil, now
			sub.NextPlanCode, sub.NextPrice = nil, nil
			sub.Price = decimal.Zero
			if def.MonthlyPrice != nil {
				sub.Price = *def.MonthlyPrice
			}
			if err := s.Subscriptions.SavePeriod(ctx, p); err != nil {
				return err
			}
			if err := s.Subscriptions.Save(ctx, sub); err != nil {
				return err
			}
			if err := b.movePlan(ctx, s, u, def.Code); err != nil {
				return err
			}
			out.counts.Downgraded++
			out.mails = append(out.mails, mail{u.Email, "Your plan was changed",
				fmt.Sprintf("The %s plan's fee for %s stayed unpaid for 7 days: your account is now on the %s plan.", from, p.Period, def.Code)})
			data := subscriptionEvent(sub, p)
			data["previous_plan"] = from
			return store.EmitMode(ctx, s.Webhooks, now, u, webhook.SubscriptionDowngraded, data, "", b.cfg.Livemode)
		}
		return nil
	})
}

// RetryPastDue is the past-due part of Run at the clock's instant: its
// worker runs every few seconds, so money credited by any path (a top-up
// approval, a checkout, an adjustment) pays a past-due fee within seconds
// without each credit path calling billing.
func (b *Billing) RetryPastDue(ctx context.Context) (Result, error) {
	var res Result
	at := b.now()
	err := b.each(ctx, func(ctx context.Context, after uint64) ([]uint64, error) {
		return b.s.Subscriptions.PastDue(ctx, after, batch)
	},
		func(ctx context.Context, id uint64) (bool, error) { return b.settle(ctx, id, at, &res) })
	return res, err
}

func subscriptionEvent(sub *plan.Subscription, p *plan.Period) map[string]any {
	return map[string]any{"user_id": sub.UserID, "plan_code": sub.PlanCode, "status": string(sub.Status),
		"period": p.Period, "amount": inr.Format2(p.Amount), "period_status": string(p.Status)}
}
