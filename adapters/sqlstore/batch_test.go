package sqlstore_test

import (
	"context"
	"fmt"
	"paygate/core/platform/store"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/apikey"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/internal/testdb"
)

// InsertMany sets every id (also across chunks cut by payload size), and
// FinishMany moves only pending hits, each exactly once.
func TestHitsInsertManyAndFinishMany(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		t.Run("consecutive ids", func(t *testing.T) { testInsertManyFinishMany(t, s) })
		s.ReadBackIDs()
		t.Run("ids read back", func(t *testing.T) { testInsertManyFinishMany(t, s) })
	})
}

func testInsertManyFinishMany(t *testing.T, s *sqlstore.Store) {
	{
		ctx := context.Background()
		u, svc, k := sqltest.NewCaller(t, s)
		big := `{"x":"` + strings.Repeat("a", 40_000) + `"}`
		var hits []*hitlog.Hit
		for i := 0; i < 250; i++ { // more than one chunk by rows, and by bytes
			p := `{}`
			if i%10 == 0 {
				p = big
			}
			hits = append(hits, sqltest.BatchHit(u.ID, svc.ID, k.ID, hitlog.StatusPending, p))
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error { return st.Hits.InsertMany(ctx, hits) }); err != nil {
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
		err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
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
		err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
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
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		var entries []*ledger.Entry
		bal := decimal.RequireFromString("100.00")
		for i := 0; i < 450; i++ {
			after := bal.Sub(decimal.RequireFromString("0.10"))
			entries = append(entries, &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(time.Now()), Type: ledger.Debit,
				Amount: decimal.RequireFromString("0.10"), BalanceBefore: bal, BalanceAfter: after, ReferenceType: ledger.RefAPIHit,
				Description: fmt.Sprintf("n%d", i), Status: "completed", CreatedAt: time.Now().UTC()})
			bal = after
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error { return st.Ledger.InsertMany(ctx, entries) }); err != nil {
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
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		k := sqltest.NewKey(t, s, u, func(k *apikey.Key) { k.DailyLimit = 100 })
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
				err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
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
		_ = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
			g, err = st.Keys.CountHits(ctx, k.ID, "2026-11-23", 3, time.Now())
			return err
		})
		if got, _ := s.Stores().Keys.ByID(ctx, k.ID); g != 3 || got.HitsToday != 3 || got.HitsDate != "2026-11-23" {
			t.Fatalf("new day: granted %d, key %+v", g, got)
		}
	})
}

// SucceedMany moves only pending hits, outside a transaction (each chunk
// its own commit) and inside one, reports each hit that recovery took as not
// moved, counts a hit an earlier attempt already moved as moved, and never
// lets a hit move twice when recovery races it.
func TestHitsSucceedMany(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u, svc, k := sqltest.NewCaller(t, s)
		insert := func(n int) []*hitlog.Hit {
			var hits []*hitlog.Hit
			for i := 0; i < n; i++ {
				hits = append(hits, sqltest.BatchHit(u.ID, svc.ID, k.ID, hitlog.StatusPending, `{}`))
			}
			if err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error { return st.Hits.InsertMany(ctx, hits) }); err != nil {
				t.Fatal(err)
			}
			for i, h := range hits {
				body := fmt.Sprintf(`{"n":%d}`, i)
				h.Status, h.ResponsePayload, h.ResponseTimeMs = hitlog.StatusSuccess, &body, i
				h.ChargeAmount, h.CostAmount = decimal.RequireFromString("0.5000"), decimal.RequireFromString("0.1000")
			}
			return hits
		}
		check := func(hits []*hitlog.Hit, moved []bool, taken map[int]bool) {
			t.Helper()
			for i, h := range hits {
				got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
				if err != nil {
					t.Fatal(err)
				}
				if taken[i] {
					if moved[i] || got.Status != hitlog.StatusFailed || got.ResponsePayload != nil && *got.ResponsePayload == *h.ResponsePayload {
						t.Fatalf("hit %d taken by recovery: moved %v, %+v", i, moved[i], got)
					}
					continue
				}
				if !moved[i] || got.Status != hitlog.StatusSuccess || *got.ResponsePayload != *h.ResponsePayload ||
					!got.ChargeAmount.Equal(h.ChargeAmount) || !got.CostAmount.Equal(h.CostAmount) || got.ResponseTimeMs != i {
					t.Fatalf("hit %d: moved %v, %+v", i, moved[i], got)
				}
			}
		}

		// Outside a transaction, over two chunks; two hits were taken by
		// recovery before.
		hits := insert(260)
		taken := map[int]bool{3: true, 210: true}
		for i := range taken {
			failed := *hits[i]
			failed.Status, failed.ResponsePayload, failed.ChargeAmount, failed.CostAmount = hitlog.StatusFailed, nil, decimal.Zero, decimal.Zero
			if err := s.Stores().Hits.Finish(ctx, &failed); err != nil {
				t.Fatal(err)
			}
		}
		moved, err := s.Stores().Hits.SucceedMany(ctx, hits)
		if err != nil {
			t.Fatal(err)
		}
		check(hits, moved, taken)
		// Retried (an attempt whose outcome was unknown): the hits it moved
		// read success and count as moved; recovery's stay not moved.
		moved, err = s.Stores().Hits.SucceedMany(ctx, hits)
		if err != nil {
			t.Fatal(err)
		}
		check(hits, moved, taken)

		// Inside a transaction, a hit listed twice moves once.
		hits = insert(3)
		err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
			moved, err = st.Hits.SucceedMany(ctx, append(hits, hits[1]))
			return err
		})
		if err != nil || !moved[0] || !moved[1] || !moved[2] || moved[3] {
			t.Fatalf("in a transaction: %v, %v", moved, err)
		}
		check(hits, moved, nil)

		// A failure outcome is refused (only a call's own success is
		// recognisable after the fact), and nothing moves.
		hits = insert(1)
		hits[0].Status = hitlog.StatusFailed
		if _, err := s.Stores().Hits.SucceedMany(ctx, hits); err == nil {
			t.Fatal("failed outcome accepted")
		}
		if got, _ := s.Stores().Hits.ByRequestID(ctx, hits[0].RequestID); got.Status != hitlog.StatusPending {
			t.Fatalf("status %s after a refused SucceedMany", got.Status)
		}

		// Settlement racing crash recovery: each hit ends exactly once,
		// success or failed, and moved says which.
		hits = insert(40)
		var wg sync.WaitGroup
		recovered := make([]bool, len(hits))
		failed := make([]hitlog.Hit, len(hits)) // recovery's own copies
		for i, h := range hits {
			failed[i] = *h
			failed[i].Status, failed[i].ResponsePayload, failed[i].ChargeAmount, failed[i].CostAmount = hitlog.StatusFailed, nil, decimal.Zero, decimal.Zero
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := len(hits) - 1; i >= 0; i-- {
				recovered[i] = s.Stores().Hits.Finish(ctx, &failed[i]) == nil
			}
		}()
		moved, err = s.Stores().Hits.SucceedMany(ctx, hits)
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hits {
			got, _ := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if moved[i] == recovered[i] || (got.Status == hitlog.StatusSuccess) != moved[i] {
				t.Fatalf("hit %d: settled %v, recovered %v, status %s", i, moved[i], recovered[i], got.Status)
			}
		}
	})
}

// SQLite syncs every commit (synchronous=FULL): a committed debit survives
// a power loss, not only a crash of the process.
func TestSQLiteCommitsAreDurable(t *testing.T) {
	t.Parallel()
	s := testdb.OpenSQLite(t)
	var mode string
	var level int
	if err := s.DB().Raw("PRAGMA journal_mode").Scan(&mode).Error; err != nil {
		t.Fatal(err)
	}
	if err := s.DB().Raw("PRAGMA synchronous").Scan(&level).Error; err != nil {
		t.Fatal(err)
	}
	if mode != "wal" || level != 2 {
		t.Fatalf("journal_mode %s, synchronous %d; want wal and 2 (FULL)", mode, level)
	}
}

// A metering batch's statements keep their sub-journals in memory
// (temp_store=MEMORY), never in temporary files created per batch; and
// every connection reads the file through a memory map (mmap_size).
func TestSQLiteStatementJournalsStayInMemory(t *testing.T) {
	t.Parallel()
	s := testdb.OpenSQLite(t)
	db, err := s.DB().DB()
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 { // each held open until the end: three connections, not one three times
		c, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var store int
		if err := c.QueryRowContext(context.Background(), "PRAGMA temp_store").Scan(&store); err != nil {
			t.Fatal(err)
		}
		if store != 2 {
			t.Fatalf("connection %d: temp_store %d, want 2 (MEMORY)", i, store)
		}
		var mapped int64
		if err := c.QueryRowContext(context.Background(), "PRAGMA mmap_size").Scan(&mapped); err != nil {
			t.Fatal(err)
		}
		if mapped != 1<<30 {
			t.Fatalf("connection %d: mmap_size %d, want 1 GiB", i, mapped)
		}
	}
}

// The settlements' per-hit values land on their own hits whichever way the
// statement writes them: ids with gaps (ELT by position), ids far apart
// (CASE), values that differ or are all the same; SucceedMany and
// FinishMany alike.
func TestSettlementsWriteEachHitsOwnValues(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u, svc, k := sqltest.NewCaller(t, s)
		hits := make([]*hitlog.Hit, 120)
		for i := range hits {
			hits[i] = sqltest.BatchHit(u.ID, svc.ID, k.ID, hitlog.StatusPending, `{}`)
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error { return st.Hits.InsertMany(ctx, hits) }); err != nil {
			t.Fatal(err)
		}
		outcome := func(i int, status hitlog.Status) *hitlog.Hit {
			h := *hits[i]
			body := fmt.Sprintf(`{"n":%d}`, i)
			h.Status, h.ResponsePayload, h.ResponseTimeMs = status, &body, i
			h.ChargeAmount = decimal.New(int64(i), -2)      // differs per hit
			h.CostAmount = decimal.RequireFromString("0.1") // the same for all
			if status == hitlog.StatusFailed {
				h.ChargeAmount, h.CostAmount = decimal.Zero, decimal.Zero
			}
			return &h
		}
		pick := func(from, to, step int, status hitlog.Status) []*hitlog.Hit {
			var out []*hitlog.Hit
			for i := from; i < to; i += step {
				out = append(out, outcome(i, status))
			}
			return out
		}
		groups := []struct {
			name    string
			hits    []*hitlog.Hit
			succeed bool
		}{
			{"success, every other id", pick(0, 40, 2, hitlog.StatusSuccess), true},
			{"success, ids far apart", pick(40, 120, 20, hitlog.StatusSuccess), true},
			{"failed, every other id", pick(1, 40, 2, hitlog.StatusFailed), false},
			{"failed, ids far apart", pick(41, 120, 20, hitlog.StatusFailed), false},
		}
		for _, g := range groups {
			var moved []bool
			var err error
			if g.succeed {
				moved, err = s.Stores().Hits.SucceedMany(ctx, g.hits)
			} else {
				err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) (err error) {
					moved, err = st.Hits.FinishMany(ctx, g.hits)
					return err
				})
			}
			if err != nil {
				t.Fatalf("%s: %v", g.name, err)
			}
			for i, h := range g.hits {
				got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
				if err != nil {
					t.Fatal(err)
				}
				if !moved[i] || got.Status != h.Status || *got.ResponsePayload != *h.ResponsePayload || got.ResponseTimeMs != h.ResponseTimeMs ||
					!got.ChargeAmount.Equal(h.ChargeAmount) || !got.CostAmount.Equal(h.CostAmount) {
					t.Fatalf("%s: hit %d: moved %v, stored %+v, want %+v", g.name, i, moved[i], got, h)
				}
			}
		}
		// The hits no group named are still pending.
		for i := 42; i < 120; i++ {
			if i%20 == 0 || i%20 == 1 {
				continue
			}
			got, err := s.Stores().Hits.ByRequestID(ctx, hits[i].RequestID)
			if err != nil || got.Status != hitlog.StatusPending {
				t.Fatalf("hit %d outside the groups: %v, %v", i, got.Status, err)
			}
		}
	})
}
