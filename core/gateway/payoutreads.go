package gateway

import (
	"context"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

// What a payout's readers see: its status (the key owner), the panel's
// payouts, lists and exports, the fee and limits a payout would meet.

// PayoutStatus is the key owner's payout by payout_id or reference_id.
func (a *Gateway) PayoutStatus(ctx context.Context, c KeyCaller, payoutID, referenceID string) (*payout.Payout, error) {
	_, u, err := a.meter.AuthenticateGateway(ctx, c.Creds, c.IP)
	if err != nil {
		return nil, err
	}
	var p *payout.Payout
	if payoutID != "" {
		p, err = a.st.Payouts.ByPublicID(ctx, payoutID)
	} else {
		p, err = a.st.Payouts.ByReference(ctx, u.ID, referenceID)
	}
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, payout.ErrNotFound
		}
		return nil, err
	}
	if p.UserID != u.ID {
		return nil, payout.ErrNotFound
	}
	return p, nil
}

// Payout is one payout by its payout_id: the actor's own, any for an admin.
func (a *Gateway) Payout(ctx context.Context, actor *user.User, payoutID string) (*payout.Payout, error) {
	p, err := a.st.Payouts.ByPublicID(ctx, payoutID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, payout.ErrNotFound
		}
		return nil, err
	}
	if actor.Role != user.RoleAdmin && p.UserID != actor.ID {
		return nil, payout.ErrNotFound
	}
	return p, nil
}

// scopePayouts limits f to the actor's own payouts unless an admin.
func scopePayouts(actor *user.User, f payout.Filter) payout.Filter {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return f
}

// ListPayouts lists payouts: a user's own, an admin's all (or f.UserID's).
func (a *Gateway) ListPayouts(ctx context.Context, actor *user.User, f payout.Filter) ([]payout.Payout, int64, error) {
	return a.st.Payouts.List(ctx, scopePayouts(actor, f))
}

// ExportPayouts calls fn with each payout of the list f selects for actor,
// newest first.
func (a *Gateway) ExportPayouts(ctx context.Context, actor *user.User, f payout.Filter, fn func(payout.Payout) error) error {
	return a.st.Payouts.ForEach(ctx, scopePayouts(actor, f), fn)
}

// PayoutQuote is what a payout would cost its sender now.
type PayoutQuote struct {
	Amount, Total, Balance      decimal.Decimal
	Fee                         *decimal.Decimal // nil: the service has no price for the caller
	DailyLimit, UsedToday, Left decimal.Decimal
}

// QuotePayout is the fee of a payout of amount for actor (the
// payout-transfer service's charge at their role and per-user row), what
// it would debit, and what is left of today's limit. Nothing changes.
func (a *Gateway) QuotePayout(ctx context.Context, actor *user.User, amount decimal.Decimal) (*PayoutQuote, error) {
	u, err := a.st.Users.ByID(ctx, actor.ID)
	if err != nil {
		return nil, err
	}
	own, more, err := a.dayBounds(ctx, a.st.Payouts, u, func(id uint64) (*user.User, error) { return a.st.Users.ByID(ctx, id) })
	if err != nil {
		return nil, err
	}
	// The limit and what is left as checkDailyLimit checks them; used is
	// the caller's own (with its customers'), not its reseller's.
	b := payout.Tightest(own, more...)
	q := &PayoutQuote{Amount: amount, Total: amount, Balance: u.Available(), DailyLimit: b.Limit, UsedToday: own.Used, Left: b.Left()}
	svc, err := a.st.Services.BySlug(ctx, SlugPayoutTransfer)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return q, nil
		}
		return nil, err
	}
	fee, err := a.meter.ChargeOf(ctx, svc.ID, u)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return q, nil
		}
		return nil, err
	}
	q.Fee, q.Total = &fee, amount.Add(fee)
	return q, nil
}

// PayoutLimit is one account's daily payout limit and what it used today.
type PayoutLimit struct {
	User      user.User
	UsedToday decimal.Decimal
}

// ListPayoutLimits is a page of the accounts (in the user list's order)
// with their daily payout limits and what each has used today (admin only).
func (a *Gateway) ListPayoutLimits(ctx context.Context, actor *user.User, page, perPage int) ([]PayoutLimit, int64, error) {
	if actor.Role != user.RoleAdmin {
		return nil, 0, errs.ErrForbidden
	}
	used, err := a.st.Payouts.CountedSinceByUser(ctx, a.dayStart())
	if err != nil {
		return nil, 0, err
	}
	users, total, err := a.st.Users.List(ctx, user.Filter{Page: page, PerPage: perPage})
	if err != nil {
		return nil, 0, err
	}
	out := make([]PayoutLimit, 0, len(users))
	for _, u := range users {
		out = append(out, PayoutLimit{User: u, UsedToday: used[u.ID]})
	}
	return out, total, nil
}
