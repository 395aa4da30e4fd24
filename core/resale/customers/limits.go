package customers

import (
	"context"
	"fmt"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// LimitsPatch is what a reseller changes of a customer's limits and fees;
// nil leaves a field as it is.
type LimitsPatch struct {
	// DailyPayoutLimit: rupees, at most 2 decimals.
	DailyPayoutLimit *string
	// CollectionFeePercent: 0 to 100 with at most 2 decimals.
	CollectionFeePercent *string
}

// SetLimits sets one of the caller's customers' daily payout limit and
// collection fee, never looser than the reseller's own (422
// looser_than_reseller: a higher payout limit or a lower fee); stricter is
// the reseller's choice. Audited as customer.limits. Whatever an admin
// later changes on either account, the stricter of the two applies
// (user.EffectiveLimits).
func (p *Customers) SetLimits(ctx context.Context, actor *user.User, id uint64, patch LimitsPatch) (*user.User, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	var want user.Limits
	var ok bool
	if patch.DailyPayoutLimit != nil {
		if want.DailyPayoutLimit, ok = user.ParseDailyPayoutLimit(*patch.DailyPayoutLimit); !ok {
			fe.Add("daily_payout_limit", user.DailyPayoutLimitMessage)
		}
	}
	if patch.CollectionFeePercent != nil {
		if want.CollectionFeePercent, ok = user.ParseCollectionFee(*patch.CollectionFeePercent); !ok {
			fe.Add("collection_fee_percent", user.CollectionFeeMessage)
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	var out *user.User
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return ErrNotFound
			}
			return err
		}
		if !ownCustomer(actor, u) {
			return ErrNotFound
		}
		// The reseller's limits as stored now, not as its session read them.
		r, err := s.Users.ByID(ctx, actor.ID)
		if err != nil {
			return fmt.Errorf("read reseller %d: %w", actor.ID, err)
		}
		before := limitsSnapshot(u)
		next := u.OwnLimits()
		if patch.DailyPayoutLimit != nil {
			next.DailyPayoutLimit = want.DailyPayoutLimit
		}
		if patch.CollectionFeePercent != nil {
			next.CollectionFeePercent = want.CollectionFeePercent
		}
		// Only a value the reseller sets is checked: one an admin left
		// looser stays (the stricter still applies) until it is set.
		looser := next.LooserThan(r.OwnLimits())
		if patch.DailyPayoutLimit == nil {
			delete(looser, "daily_payout_limit")
		}
		if patch.CollectionFeePercent == nil {
			delete(looser, "collection_fee_percent")
		}
		if len(looser) > 0 {
			return user.ErrLooserThanReseller(looser)
		}
		u.DailyPayoutLimit, u.CollectionFeePercent, u.UpdatedAt = next.DailyPayoutLimit, next.CollectionFeePercent, p.now().UTC()
		if err := s.Users.Update(ctx, u); err != nil {
			return err
		}
		out = u
		return store.Record(ctx, s.Audit, p.now(), actor, audit.CustomerLimits, audit.TargetUser, u.ID, before, limitsSnapshot(u))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

type limitsAudit struct {
	DailyPayoutLimit     string `json:"daily_payout_limit"`
	CollectionFeePercent string `json:"collection_fee_percent"`
}

func limitsSnapshot(u *user.User) limitsAudit {
	return limitsAudit{DailyPayoutLimit: inr.Format2(u.DailyPayoutLimit), CollectionFeePercent: inr.Format2(u.CollectionFeePercent)}
}
