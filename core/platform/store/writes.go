package store

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/platform/inr"
)

// The rows a change writes in its own transaction, so they commit or roll
// back with it: a ledger posting (with its low-balance event), an outbox
// event, an audit entry.

// Post moves u's balance by one ledger entry. u must have been read with
// LockByID in the same transaction; the caller saves u with SaveBalance.
// An entry that takes the balance below u's threshold writes balance.low,
// whose livemode is live: whether the instance's money is real (its payment
// provider is live; docs/decisions.md, "Webhooks").
func Post(ctx context.Context, s Books, now time.Time, live bool, u *user.User, t ledger.Type, amount decimal.Decimal,
	refType string, refID *uint64, description string) (*ledger.Entry, error) {
	e, err := ledger.NewEntry(u, t, amount, refType, refID, description, now)
	if err != nil {
		return nil, err
	}
	if err := s.Ledger.Insert(ctx, e); err != nil {
		return nil, fmt.Errorf("insert ledger entry: %w", err)
	}
	if ledger.CrossesLow(u, e) {
		if err := emitLowBalance(ctx, s, now, live, u, e); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// AlertLowBalance writes a balance.low event for each of entries, already
// written, that crossed its user's threshold (users: the rows locked in
// this transaction). It touches the database only when one crossed. live
// is the events' livemode, as for Post.
func AlertLowBalance(ctx context.Context, s Books, now time.Time, live bool, users map[uint64]*user.User, entries []*ledger.Entry) error {
	for _, e := range entries {
		if u := users[e.UserID]; u != nil && ledger.CrossesLow(u, e) {
			if err := emitLowBalance(ctx, s, now, live, u, e); err != nil {
				return err
			}
		}
	}
	return nil
}

func emitLowBalance(ctx context.Context, s Books, now time.Time, live bool, u *user.User, e *ledger.Entry) error {
	return EmitMode(ctx, s.Webhooks, now, u, webhook.BalanceLow, map[string]any{
		"user_id": u.ID, "balance": inr.Format2(e.BalanceAfter), "threshold": inr.Format2(*u.LowBalanceAlert),
		"txn_id": e.TxnID,
	}, "", live)
}

// EmitMode writes event t of u, with data, to the outbox: one delivery to
// u's webhook_url when set, one to callbackURL when not empty. With no
// destination nothing is written (nobody to tell). livemode says whether
// the money it reports is real: the provider's mode for a provider's
// operation, the instance's (its payment provider's) for the platform's
// own books (docs/decisions.md, "Webhooks").
func EmitMode(ctx context.Context, outbox webhook.Repository, now time.Time, u *user.User, t webhook.EventType, data any, callbackURL string, livemode bool) error {
	if (u.WebhookURL == nil || *u.WebhookURL == "") && callbackURL == "" {
		return nil
	}
	e, err := webhook.NewEventMode(u.ID, t, data, livemode, now)
	if err != nil {
		return err
	}
	var ds []*webhook.Delivery
	if u.WebhookURL != nil && *u.WebhookURL != "" {
		ds = append(ds, webhook.NewDelivery(e, webhook.ToWebhook, *u.WebhookURL))
	}
	if callbackURL != "" {
		ds = append(ds, webhook.NewDelivery(e, webhook.ToCallback, callbackURL))
	}
	if err := outbox.Insert(ctx, e, ds); err != nil {
		return fmt.Errorf("outbox %s: %w", t, err)
	}
	return nil
}

// Record writes an audit entry for actor's action.
func Record(ctx context.Context, log audit.Repository, now time.Time, actor *user.User, action, targetType string, targetID uint64, before, after any) error {
	return RecordBy(ctx, log, now, actor.ID, action, targetType, targetID, before, after)
}

// RecordBy writes an audit entry for the action of actor id actorID
// (audit.Operator for an operator's command).
func RecordBy(ctx context.Context, log audit.Repository, now time.Time, actorID uint64, action, targetType string, targetID uint64, before, after any) error {
	e, err := audit.New(ctx, actorID, action, targetType, targetID, before, after, now)
	if err != nil {
		return err
	}
	if err := log.Add(ctx, e); err != nil {
		return fmt.Errorf("audit %s: %w", action, err)
	}
	return nil
}
