package history_test

import (
	"context"
	"errors"
	"paygate/core/metering/history"
	"paygate/core/platform/store"
	"sync"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/platform/export"
	"paygate/core/platform/store/storetest"
)

// leases is an export.Repository of one free slot whose renewals answer
// held (or not, once the lease is taken over).
type leases struct {
	mu       sync.Mutex
	held     bool
	renewals int
	released bool
}

func (l *leases) Claim(context.Context, export.Lease, time.Time, time.Time) (bool, error) {
	return true, nil
}

func (l *leases) Renew(context.Context, export.Lease, time.Time) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.renewals++
	return l.held, nil
}

func (l *leases) Release(context.Context, export.Lease) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.released = true
	return nil
}

func exportingPanel(l *leases) *history.History {
	db := storetest.New()
	st := historyStores(db)
	st.Exports = l
	return history.New(history.Deps{Tx: store.Narrow(db, history.TxStoresOf), Stores: st, Config: history.Config{ExportLease: 60 * time.Millisecond}})
}

// An export whose writer sends nothing for four leases keeps renewing its
// lease all along, and frees the slot when it ends.
func TestExportRenewsItsLeaseWhileItsWriterWaits(t *testing.T) {
	l := &leases{held: true}
	err := exportingPanel(l).Exporting(context.Background(), &user.User{ID: 5}, func(ctx context.Context) error {
		time.Sleep(240 * time.Millisecond) // a writer blocked on its client
		return ctx.Err()
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil || l.renewals < 8 || !l.released {
		t.Fatalf("err %v, %d renewals in 4 leases of 60 ms (every 10 ms), released %v", err, l.renewals, l.released)
	}
}

// A renewal that finds the slot taken over (the lease lapsed while the
// database was out of reach) ends the export, so the cap holds.
func TestExportEndsWhenItsLeaseIsTakenOver(t *testing.T) {
	l := &leases{held: false}
	err := exportingPanel(l).Exporting(context.Background(), &user.User{ID: 5}, func(ctx context.Context) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Second):
			return errors.New("the export ran on without its slot")
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("export ended with %v, want its context canceled", err)
	}
}
