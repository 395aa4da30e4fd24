package mysqlstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/mysqlstore"
	"paygate/core/apikey"
	"paygate/core/app"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/internal/testdb"
)

func batchHit(u, svc, key uint64, status hitlog.Status, payload string) *hitlog.Hit {
	return &hitlog.Hit{UserID: u, ServiceID: svc, APIKeyID: key, RequestID: fmt.Sprintf("req_batch_%d", next()),
		RequestPayload: payload, IPAddress: "127.0.0.1", Status: status,
		ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.RequireFromString("0.50"), CreatedAt: time.Now().UTC()}
}

// InsertMany sets every id (also across chunks cut by payload size), and
// FinishMany moves only pending hits, each exactly once.
func TestHitsInsertManyAndFinishMany(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		t.Run("consecutive ids", func(t *testing.T) { testInsertManyFinishMany(t, s) })
		s.ReadBackIDs()
		t.Run("ids read back", func(t *testing.T) { testInsertManyFinishMany(t, s) })
	})
}

func testInsertManyFinishMany(t *testing.T, s *mysqlstore.Store) {
	{
		ctx := context.Background()
		u := newUser(t, s)
		svc := newService(t, s)
		k := newKey(t, s, u)
		big := `{"x":"` + strings.Repeat("a", 40_000) + `"}`
		var hits []*hitlog.Hit
		for i := 0; i < 250; i++ { // more than one chunk by rows, and by bytes
			p := `{}`
			if i%10 == 0 {
				p = big
			}
			hits = append(hits, batchHit(u.ID, svc.ID, k.ID, hitlog.StatusPending, p))
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, st app.Stores) error { return st.Hits.InsertMany(ctx, hits) }); err != nil {
			t.Fatal(err)
		}
		for _, h := range hits {
			got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if err != nil || got.ID != h.ID || got.RequestPayload != h.RequestPayload || got.Status != hitlog.StatusPending {
				t.Fatalf("hit %s: %+v, %v (id %d)", h.RequestID, got, err, h.ID)
			}
		}
		// One hit was settled elsewhere (crash recovery): FinishMany leaves it.
		other := *hits[3]
		other.Status = hitlog.StatusFailed
		if err := s.Stores().Hits.Finish(ctx, &other); err != nil {
			t.Fatal(err)
		}
		for i, h := range hits {
			body := fmt.Sprintf(`{"n":%d}`, i)
			h.ResponsePayload = &body
			h.Status = hitlog.StatusSuccess
			h.ChargeAmount = decimal.RequireFromString("0.5000")
			h.CostAmount = decimal.RequireFromString("0.1000")
			h.ResponseTimeMs = i
		}
		var moved []bool
		err := s.WithinTx(ctx, func(ctx context.Context, st app.Stores) (err error) {
			moved, err = st.Hits.FinishMany(ctx, hits)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hits {
			got, _ := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if i == 3 {
				if moved[i] || got.Status != hitlog.StatusFailed {
					t.Fatalf("hit settled elsewhere: moved %v, status %s", moved[i], got.Status)
				}
				continue
			}
			if !moved[i] || got.Status != hitlog.StatusSuccess || *got.ResponsePayload != *h.ResponsePayload ||
				!got.ChargeAmount.Equal(h.ChargeAmount) || !got.CostAmount.Equal(h.CostAmount) || got.ResponseTimeMs != i {
				t.Fatalf("hit %d: moved %v, %+v", i, moved[i], got)
			}
		}
		// A second settlement moves nothing.
		err = s.WithinTx(ctx, func(ctx context.Context, st app.Stores) (err error) {
			moved, err = st.Hits.FinishMany(ctx, hits[:5])
			return err
		})
		if err != nil || moved[0] || moved[4] {
			t.Fatalf("second FinishMany: %v, %v", moved, err)
		}
	}
}

func TestLedgerInsertManyKeepsOrder(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		ctx := context.Background()
		u := newUser(t, s)
		var entries []*ledger.Entry
		bal := decimal.RequireFromString("100.00")
		for i := 0; i < 450; i++ {
			after := bal.Sub(decimal.RequireFromString("0.10"))
			entries = append(entries, &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(time.Now()), Type: ledger.Debit,
				Amount: decimal.RequireFromString("0.10"), BalanceBefore: bal, BalanceAfter: after, ReferenceType: ledger.RefAPIHit,
				Description: fmt.Sprintf("n%d", i), Status: "completed", CreatedAt: time.Now().UTC()})
			bal = after
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, st app.Stores) error { return st.Ledger.InsertMany(ctx, entries) }); err != nil {
			t.Fatal(err)
		}
		var i int
		err := s.Stores().Ledger.ForEachByUser(ctx, u.ID, func(e ledger.Entry) error {
			if e.Description != fmt.Sprintf("n%d", i) || !e.BalanceAfter.Equal(entries[i].BalanceAfter) {
				return fmt.Errorf("entry %d: %+v", i, e)
			}
			i++
			return nil
		})
		if err != nil || i != 450 {
			t.Fatalf("%d entries, %v", i, err)
		}
	})
}

// CountHits grants exactly the daily limit across concurrent transactions,
// resets on a new day, and grants nothing to a zero limit.
func TestCountHitsIsExactUnderConcurrency(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		ctx := context.Background()
		u := newUser(t, s)
		k := newKey(t, s, u, func(k *apikey.Key) { k.DailyLimit = 100 })
		var (
			mu    sync.Mutex
			total int
			wg    sync.WaitGroup
		)
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var g int
				err := s.WithinTx(ctx, func(ctx context.Context, st app.Stores) (err error) {
					g, err = st.Keys.CountHits(ctx, k.ID, "2026-11-22", 7, time.Now())
					return err
				})
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				total += g
				mu.Unlock()
			}()
		}
		wg.Wait()
		if total != 100 {
			t.Fatalf("granted %d, want exactly the limit 100", total)
		}
		got, _ := s.Stores().Keys.ByID(ctx, k.ID)
		if got.HitsToday != 100 || got.HitsDate != "2026-11-22" || got.LastUsedAt == nil {
			t.Fatalf("key %+v", got)
		}
		var g int
		_ = s.WithinTx(ctx, func(ctx context.Context, st app.Stores) (err error) {
			g, err = st.Keys.CountHits(ctx, k.ID, "2026-11-23", 3, time.Now())
			return err
		})
		if got, _ := s.Stores().Keys.ByID(ctx, k.ID); g != 3 || got.HitsToday != 3 || got.HitsDate != "2026-11-23" {
			t.Fatalf("new day: granted %d, key %+v", g, got)
		}
	})
}
