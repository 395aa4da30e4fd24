package accounts

import (
	"context"
	"fmt"
	"time"

	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
)

// GuardPassword claims one password attempt on u's account from the client
// address ip (signin's rule, shared by every instance through the
// database): while the address backs off on that account, or on every
// account, it returns a *signin.BlockedError (429). Call release when the
// password was right, to give the attempt back; a wrong one stays counted.
func (p *Accounts) GuardPassword(ctx context.Context, u *user.User, ip string) (release func(context.Context), err error) {
	return p.guard(ctx, signin.UserAccount(u.ID), ip)
}

func (p *Accounts) guard(ctx context.Context, account, ip string) (func(context.Context), error) {
	keys := signin.KeysFor(account, ip)
	now := p.now()
	if err := p.st.Logins.Ensure(ctx, keys[:], now); err != nil {
		return nil, fmt.Errorf("create sign-in counters: %w", err)
	}
	var before, claimed []signin.Counter
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		cs, err := s.Logins.Lock(ctx, keys[:])
		if err != nil {
			return fmt.Errorf("lock sign-in counters: %w", err)
		}
		var wait time.Duration
		if claimed, wait = p.cfg.SignIn.Admit(cs, now); wait > 0 {
			return &signin.BlockedError{RetryAfter: wait}
		}
		before = cs
		return s.Logins.Save(ctx, claimed)
	})
	if err != nil {
		return nil, err
	}
	// Counters idle past Forget read as zero; a few go with every attempt,
	// so the table holds about one window's worth.
	if _, err := p.st.Logins.Purge(ctx, now.Add(-p.cfg.SignIn.Forget), now, 100); err != nil {
		p.log.Warn("purge sign-in counters", "err", err)
	}
	return func(ctx context.Context) {
		err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
			cs, err := s.Logins.Lock(ctx, keys[:])
			if err != nil {
				return err
			}
			return s.Logins.Save(ctx, p.cfg.SignIn.Release(cs, before, claimed, p.now()))
		})
		if err != nil { // the sign-in stands; the address keeps one failure too many
			p.log.Warn("release sign-in attempt", "err", err)
		}
	}, nil
}
