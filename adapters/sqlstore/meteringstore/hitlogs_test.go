package meteringstore_test

import (
	"context"
	"errors"
	"fmt"
	"paygate/core/platform/store"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/metering/hitlog"
	"paygate/internal/testdb"
)

// TestHitFinishIsSettledOnce: several settlements of one pending hit race
// (the call itself and crash recovery on several instances), each in its
// own transaction; exactly one moves the hit, the others get
// hitlog.ErrNotPending and their transaction's other writes roll back.
func TestHitFinishIsSettledOnce(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		h := &hitlog.Hit{UserID: u.ID, ServiceID: 1, APIKeyID: 1, RequestID: "req_race", RequestPayload: "{}",
			ChargeAmount: decimal.Zero, Reserved: sqltest.Dec(t, "1"), IPAddress: "::1", Status: hitlog.StatusPending,
			CreatedAt: time.Now().UTC()}
		if err := s.Stores().Hits.Insert(ctx, h); err != nil {
			t.Fatal(err)
		}
		const racers = 8
		var wg sync.WaitGroup
		errc := make(chan error, racers)
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errc <- s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
					if _, err := st.Users.LockByID(ctx, u.ID); err != nil {
						return err
					}
					body := fmt.Sprintf(`{"racer":%d}`, i)
					mine := *h
					mine.Status, mine.ResponsePayload = hitlog.StatusFailed, &body
					return st.Hits.Finish(ctx, &mine)
				})
			}()
		}
		wg.Wait()
		close(errc)
		won := 0
		for err := range errc {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, hitlog.ErrNotPending):
				t.Fatalf("a losing settlement: %v, want hitlog.ErrNotPending", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d settlements won, want exactly 1", won)
		}
		got, err := s.Stores().Hits.ByRequestID(ctx, "req_race")
		if err != nil || got.Status != hitlog.StatusFailed || got.ResponsePayload == nil {
			t.Fatalf("hit after the race: %+v, %v", got, err)
		}
	})
}
