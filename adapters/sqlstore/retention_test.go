package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

// TestClearHitPayloads (SQLite): retention deletes the payloads of hits
// created before the cutoff, at most limit hits per call, oldest hit first;
// recent hits keep theirs, and the hit rows and the ledger stay whole.
func TestClearHitPayloads(t *testing.T) {
	t.Parallel()
	func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u := sqltest.NewUser(t, s)
		now := time.Now().UTC()
		cutoff := now.Add(-90 * 24 * time.Hour)
		resp := `{"ok":true}`
		var hits []*hitlog.Hit
		var entries []*ledger.Entry
		for i := range 7 {
			at := cutoff.Add(-time.Duration(10-i) * time.Hour) // five old hits, then two recent ones
			if i >= 5 {
				at = now.Add(-time.Duration(7-i) * time.Minute)
			}
			hits = append(hits, &hitlog.Hit{UserID: u.ID, ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("req_ret_%d", i),
				RequestPayload: `{"n":1}`, ResponsePayload: &resp, ChargeAmount: sqltest.Dec(t, "0.5"), Reserved: sqltest.Dec(t, "0.5"),
				IPAddress: "::1", Status: hitlog.StatusSuccess, CreatedAt: at})
			entries = append(entries, &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(at), Type: ledger.Debit,
				Amount: sqltest.Dec(t, "0.5"), BalanceBefore: decimal.NewFromInt(10), BalanceAfter: sqltest.Dec(t, "9.5"),
				ReferenceType: ledger.RefAPIHit, Description: "call", Status: "completed", CreatedAt: at})
		}
		if err := s.Stores().Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		if err := s.Stores().Ledger.InsertMany(ctx, entries); err != nil {
			t.Fatal(err)
		}

		// Bounded: a call looks at no more than limit hits.
		n, more, err := s.Stores().Hits.ClearPayloads(ctx, cutoff, 2)
		if err != nil || n != 2 || !more {
			t.Fatalf("first batch: %d cleared, more %v, %v; want 2, true", n, more, err)
		}
		assertPayloads(t, s, hits, []bool{true, true, false, false, false, false, false})

		// Several sweepers at once change each hit once.
		var wg sync.WaitGroup
		counts := make(chan int, 100)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					n, more, err := s.Stores().Hits.ClearPayloads(ctx, cutoff, 2)
					if err != nil {
						t.Error(err)
						return
					}
					counts <- n
					if !more {
						return
					}
				}
			}()
		}
		wg.Wait()
		close(counts)
		total := 0
		for n := range counts {
			total += n
		}
		if total != 3 {
			t.Fatalf("concurrent sweeps cleared %d hits, want the 3 old ones left", total)
		}
		assertPayloads(t, s, hits, []bool{true, true, true, true, true, false, false})

		// Done: nothing more until the recent hits age.
		if n, more, err := s.Stores().Hits.ClearPayloads(ctx, cutoff, 2); err != nil || n != 0 || more {
			t.Fatalf("after the old hits: %d cleared, more %v, %v; want 0, false", n, more, err)
		}
		if n, _, err := s.Stores().Hits.ClearPayloads(ctx, now.Add(-90*time.Second), 10); err != nil || n != 1 {
			t.Fatalf("a later cutoff: %d cleared, %v; want the hit aged past it", n, err)
		}
		assertPayloads(t, s, hits, []bool{true, true, true, true, true, true, false})

		// The rows and the ledger stay.
		for _, h := range hits {
			got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID)
			if err != nil || got.Status != hitlog.StatusSuccess || !got.ChargeAmount.Equal(h.ChargeAmount) || got.UserID != u.ID {
				t.Fatalf("hit %s after retention: %+v, %v", h.RequestID, got, err)
			}
		}
		var kept int
		if err := s.Stores().Ledger.ForEachByUser(ctx, u.ID, func(ledger.Entry) error { kept++; return nil }); err != nil || kept != len(entries) {
			t.Fatalf("ledger after retention: %d entries, %v; want %d", kept, err, len(entries))
		}
	}(t, testdb.OpenSQLite(t))
}

// TestClearHitPayloadMonths (MySQL): retention truncates the partitions of
// the months that ended before the cutoff, one per call, and nothing else:
// the month the cutoff falls in keeps its payloads until it has ended; the
// hit rows stay. Sweepers at once and metered writes beside them are
// harmless.
func TestClearHitPayloadMonths(t *testing.T) {
	t.Parallel()
	s := testdb.OpenMySQL(t)
	ctx := context.Background()
	u := sqltest.NewUser(t, s)
	now := time.Now().UTC()
	month := func(back int) time.Time { // the 3rd of the month `back` months ago, noon
		m := sqlstore.PayloadMonth(now) - back
		return time.Date(m/12, time.Month(m%12+1), 3, 12, 0, 0, 0, time.UTC)
	}
	resp := `{"ok":true}`
	var hits []*hitlog.Hit
	for i, back := range []int{5, 5, 4, 3, 2, 0} {
		hits = append(hits, &hitlog.Hit{UserID: u.ID, ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("req_month_%d", i),
			RequestPayload: `{"n":1}`, ResponsePayload: &resp, ChargeAmount: sqltest.Dec(t, "0.5"), Reserved: sqltest.Dec(t, "0.5"),
			IPAddress: "::1", Status: hitlog.StatusSuccess, CreatedAt: month(back)})
	}
	if err := s.Stores().Hits.InsertMany(ctx, hits); err != nil {
		t.Fatal(err)
	}
	// The cutoff lies inside the month 3 months ago, after its hit.
	cutoff := month(3).Add(5 * 24 * time.Hour)
	n, more, err := s.Stores().Hits.ClearPayloads(ctx, cutoff, 2)
	if err != nil || n < 1 || !more {
		t.Fatalf("first call: %d removed, more %v, %v; want a month removed and more", n, more, err)
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				_, more, err := s.Stores().Hits.ClearPayloads(ctx, cutoff, 2)
				if err != nil {
					t.Error(err)
					return
				}
				if !more {
					return
				}
			}
		}()
	}
	// Metered writes go on meanwhile, into the current month. On a Galera
	// cluster the partition's TRUNCATE, run in total order, aborts a write
	// to the table on the node (a deadlock, 503): written again, as the
	// metering batch reruns.
	for i := range 20 {
		h := &hitlog.Hit{UserID: u.ID, ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("req_month_live_%d", i),
			RequestPayload: `{"live":1}`, ChargeAmount: sqltest.Dec(t, "0.5"), Reserved: sqltest.Dec(t, "0.5"), IPAddress: "::1", Status: hitlog.StatusPending}
		err := s.Stores().Hits.InsertMany(ctx, []*hitlog.Hit{h})
		for try := 0; err != nil && s.Galera() && (errs.KindOf(err) == errs.Unavailable || sqlstore.Busy(err)) && try < 20; try++ {
			time.Sleep(time.Duration(try+1) * 10 * time.Millisecond) // the truncates run on meanwhile
			h.ID = 0
			err = s.Stores().Hits.InsertMany(ctx, []*hitlog.Hit{h})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	assertPayloads(t, s, hits, []bool{true, true, true, false, false, false})
	if n, more, err := s.Stores().Hits.ClearPayloads(ctx, cutoff, 2); err != nil || n != 0 || more {
		t.Fatalf("after the expired months: %d removed, more %v, %v; want nothing", n, more, err)
	}
	// Once the cutoff's month has ended, it goes too.
	if n, _, err := s.Stores().Hits.ClearPayloads(ctx, month(2).Add(-24*time.Hour), 2); err != nil || n < 1 {
		t.Fatalf("a cutoff past the month: %d removed, %v", n, err)
	}
	assertPayloads(t, s, hits, []bool{true, true, true, true, false, false})
	for _, h := range hits {
		if got, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID); err != nil || got.Status != hitlog.StatusSuccess || got.UserID != u.ID {
			t.Fatalf("hit %s after retention: %+v, %v", h.RequestID, got, err)
		}
	}
	live, err := s.Stores().Hits.ByRequestID(ctx, "req_month_live_0")
	if err != nil || live.RequestPayload != `{"live":1}` {
		t.Fatalf("a hit written during the sweeps: %+v, %v", live, err)
	}
}

// assertPayloads checks which hits lost their payloads.
func assertPayloads(t *testing.T, s *sqlstore.Store, hits []*hitlog.Hit, cleared []bool) {
	t.Helper()
	for i, h := range hits {
		got, err := s.Stores().Hits.ByRequestID(context.Background(), h.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		isCleared := got.RequestPayload == "" && got.ResponsePayload == nil
		kept := got.RequestPayload == h.RequestPayload && got.ResponsePayload != nil && *got.ResponsePayload == *h.ResponsePayload
		if cleared[i] != isCleared || (!cleared[i] && !kept) {
			t.Fatalf("hit %d: request %q response %v; want cleared %v", i, got.RequestPayload, got.ResponsePayload, cleared[i])
		}
	}
}
