package outbox

import (
	"context"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
)

// Stores are the repositories the outbox calls outside a transaction; a
// transaction (a claim, an attempt's record, a redelivery, a new secret)
// gets TxStores.
type Stores struct {
	Webhooks Webhooks // nil: the worker sends nothing and counts no backlog
	Users    Users
}

// Webhooks reads the deliveries, looks for due ones, releases a claim not
// used and counts the backlog (webhook.Repository's reads).
type Webhooks interface {
	HasDue(ctx context.Context, now time.Time, lane webhook.Lane) (bool, error)
	Release(ctx context.Context, ids []uint64, token string) error
	ByID(ctx context.Context, id uint64) (*webhook.Delivery, error)
	Event(ctx context.Context, id uint64) (*webhook.Event, error)
	Attempts(ctx context.Context, deliveryID uint64, limit int) ([]webhook.Attempt, error)
	List(ctx context.Context, f webhook.Filter) ([]webhook.Delivery, int64, error)
	Backlog(ctx context.Context) (int64, error)
}

// Users reads the account an event is sent for (its webhook_url and secret).
type Users interface {
	ByID(ctx context.Context, id uint64) (*user.User, error)
}
