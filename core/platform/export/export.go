package export

import (
	"context"
	"time"

	"paygate/core/platform/errs"
)

// MaxPerUser is how many exports one user may run at a time.
const MaxPerUser = 2

// LeaseTTL is how long a lease lasts without renewal; RenewEvery is how
// often a running export renews it, whether rows flow or its writer waits
// for a slow client (the HTTP edge's stall timeout ends that wait), so a
// lease lapses only when its instance stops.
const (
	LeaseTTL   = 2 * time.Minute
	RenewEvery = LeaseTTL / 6
)

// RetryAfter is what a refused export is told to wait before it tries again.
const RetryAfter = 10 * time.Second

// ErrBusy refuses an export while the user's slots are all taken.
var ErrBusy = errs.E(errs.LimitExceeded, "too_many_exports",
	"At most 2 exports may run at a time; try again when one of them has finished")

// Lease is one export's hold on one of its user's slots. Holder is a random
// name of that export, so only it can renew or release the lease.
type Lease struct {
	UserID uint64
	Slot   int
	Holder string
}

// Repository keeps the leases, one row per user and slot, shared by every
// instance.
type Repository interface {
	// Claim takes l's slot for l.Holder until `until` when it is free (no
	// lease, or one that lapsed before now) and reports whether it did. Two
	// claims of one free slot never both succeed.
	Claim(ctx context.Context, l Lease, now, until time.Time) (bool, error)
	// Renew moves the end of l's lease to until; false when l.Holder no
	// longer holds the slot (its lease lapsed and another export took it).
	Renew(ctx context.Context, l Lease, until time.Time) (bool, error)
	// Release frees l's slot if l.Holder still holds it.
	Release(ctx context.Context, l Lease) error
}
