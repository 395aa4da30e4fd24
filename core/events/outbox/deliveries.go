package outbox

import (
	"context"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/platform/errs"
)

// attemptsShown is how many attempts GetDelivery returns, newest first.
const attemptsShown = 50

// ListDeliveries lists event deliveries: a user's own, an admin's all (or
// f.UserID's).
func (o *Outbox) ListDeliveries(ctx context.Context, actor *user.User, f webhook.Filter) ([]webhook.Delivery, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return o.st.Webhooks.List(ctx, f)
}

// DeliveryDetail is one delivery with its event and its latest attempts.
type DeliveryDetail struct {
	Delivery webhook.Delivery
	Event    webhook.Event
	Attempts []webhook.Attempt // newest first, at most 50
}

// delivery reads a delivery the actor may see: another user's is not found.
func (o *Outbox) delivery(ctx context.Context, webhooks Webhooks, actor *user.User, id uint64) (*webhook.Delivery, error) {
	d, err := webhooks.ByID(ctx, id)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, webhook.ErrNotFound
		}
		return nil, err
	}
	if actor.Role != user.RoleAdmin && d.UserID != actor.ID {
		return nil, webhook.ErrNotFound
	}
	return d, nil
}

// GetDelivery is one delivery with its event and attempts.
func (o *Outbox) GetDelivery(ctx context.Context, actor *user.User, id uint64) (*DeliveryDetail, error) {
	d, err := o.delivery(ctx, o.st.Webhooks, actor, id)
	if err != nil {
		return nil, err
	}
	e, err := o.st.Webhooks.Event(ctx, d.EventID)
	if err != nil {
		return nil, err
	}
	att, err := o.st.Webhooks.Attempts(ctx, d.ID, attemptsShown)
	if err != nil {
		return nil, err
	}
	return &DeliveryDetail{Delivery: *d, Event: *e, Attempts: att}, nil
}

// Manual redeliveries of one delivery: at most RedeliveryLimit in any
// RedeliveryWindow (a sliding window over the recorded redeliveries).
const (
	RedeliveryLimit  = 10
	RedeliveryWindow = time.Hour
)

// ErrRedeliveryLimit refuses a redelivery over RedeliveryLimit (429).
var ErrRedeliveryLimit = errs.E(errs.LimitExceeded, "redelivery_limit_reached",
	"This delivery was redelivered 10 times in the last hour; try again later")

// RedeliveryLimitError is ErrRedeliveryLimit with the wait until the oldest
// counted redelivery leaves the window (the answer's Retry-After).
type RedeliveryLimitError struct{ RetryAfter time.Duration }

func (e *RedeliveryLimitError) Error() string { return ErrRedeliveryLimit.Error() }
func (e *RedeliveryLimitError) Unwrap() error { return ErrRedeliveryLimit }

// Redeliver asks for a new attempt at once with a fresh retry schedule,
// whatever the delivery's state. An attempt running now finishes first
// (its lease holds), but its outcome no longer ends the delivery. Each
// redelivery is recorded in the same transaction, after the delivery's row
// is written (and so locked): the limit holds across instances.
func (o *Outbox) Redeliver(ctx context.Context, actor *user.User, id uint64) (*webhook.Delivery, error) {
	var out *webhook.Delivery
	err := o.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		d, err := o.delivery(ctx, s.Webhooks, actor, id)
		if err != nil {
			return err
		}
		now := o.now().UTC()
		d.Redeliver(now)
		if err := s.Webhooks.Redeliver(ctx, d); err != nil {
			return err
		}
		n, oldest, err := s.Webhooks.Redeliveries(ctx, d.ID, now.Add(-RedeliveryWindow))
		if err != nil {
			return err
		}
		if n >= RedeliveryLimit {
			// now was read before the row lock was granted: clamp to the window.
			wait := min(max(oldest.Add(RedeliveryWindow).Sub(now), time.Second), RedeliveryWindow)
			return &RedeliveryLimitError{RetryAfter: wait}
		}
		if err := s.Webhooks.RecordRedelivery(ctx, d.ID, actor.ID, now); err != nil {
			return err
		}
		out = d
		return nil
	})
	return out, err
}

// RotateWebhookSecret gives the caller a new signing secret and returns it:
// the only time it is shown. Events not yet delivered are signed with the
// new one from now on.
func (o *Outbox) RotateWebhookSecret(ctx context.Context, caller *user.User) (string, error) {
	secret := webhook.NewSecret()
	err := o.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, caller.ID)
		if err != nil {
			return err
		}
		if u.CanAct() != nil {
			return errs.ErrUnauthorized
		}
		u.WebhookSecret = &secret
		u.UpdatedAt = o.now().UTC()
		return s.Users.Update(ctx, u)
	})
	if err != nil {
		return "", err
	}
	return secret, nil
}
