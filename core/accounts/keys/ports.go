package keys

import (
	"context"
	"time"

	"paygate/core/accounts/apikey"
)

// Stores are the repositories the key use cases call outside a
// transaction; a transaction gets TxStores.
type Stores struct {
	Keys     Repository
	Services Services
}

// Repository reads and changes one owner's keys.
type Repository interface {
	ByID(ctx context.Context, id uint64) (*apikey.Key, error)
	ListByUser(ctx context.Context, userID uint64) ([]apikey.Key, error)
	Change(ctx context.Context, id, userID uint64, c apikey.Change, at time.Time) (*apikey.Key, error)
	Revoke(ctx context.Context, id, userID uint64, at time.Time) (*apikey.Key, error)
}

// Services checks the ids of a key's allowed services.
type Services interface {
	ExistingIDs(ctx context.Context, ids []uint64) ([]uint64, error)
}
