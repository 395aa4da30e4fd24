package metering

import (
	"context"
	"errors"
	"fmt"
	"time"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
)

// Statements are the batch-only ports done statement by statement with
// the ordinary repositories of s: for a store without a path of its own
// for them (SQLite, the in-memory fake), and for the transactions of one
// write (writeAlone).
func Statements(s TxStores) BatchStores {
	return BatchStores{TxStores: s, Locks: stepLocks{s}, Inserts: stepInserts{s}}
}

type stepLocks struct{ s TxStores }

// LockAndCount locks each user, then counts each key's calls.
func (l stepLocks) LockAndCount(ctx context.Context, userIDs []uint64, counts []KeyCount, at time.Time) (map[uint64]*user.User, []int, error) {
	users := make(map[uint64]*user.User, len(userIDs))
	for _, id := range userIDs {
		u, err := l.s.Users.LockByID(ctx, id)
		if err != nil {
			return nil, nil, fmt.Errorf("lock user %d: %w", id, err)
		}
		users[id] = u
	}
	granted := make([]int, len(counts))
	for i, c := range counts {
		g, err := l.s.Keys.CountHits(ctx, c.KeyID, c.Day, c.N, at)
		if err != nil && !errors.Is(err, apikey.ErrNotFound) {
			return nil, nil, fmt.Errorf("count hits: %w", err)
		}
		granted[i] = g
	}
	return users, granted, nil
}

type stepInserts struct{ s TxStores }

// Insert writes the hits first, for their ids, then the entries.
func (w stepInserts) Insert(ctx context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error {
	if len(hits) > 0 {
		if err := w.s.Hits.InsertMany(ctx, hits); err != nil {
			return fmt.Errorf("insert hits: %w", err)
		}
	}
	for i, k := range hitOf {
		if k >= 0 {
			id := hits[k].ID
			entries[i].ReferenceID = &id
		}
	}
	if len(entries) > 0 {
		if err := w.s.Ledger.InsertMany(ctx, entries); err != nil {
			return fmt.Errorf("insert ledger entries: %w", err)
		}
	}
	return nil
}

// plainBatches runs the writer's transactions with WithinTx, for a store
// that is no BatchTransactor.
type plainBatches struct{ tx store.Transactor }

func (t plainBatches) WithinBatchTx(ctx context.Context, fn func(ctx context.Context, s BatchStores) error) error {
	return t.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error { return fn(ctx, Statements(TxStoresOf(s))) })
}
