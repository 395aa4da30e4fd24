package meteringstore_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/ledger/check"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

// hourly sums the user's final hits per service and local hour, read from
// the hit log: what the roll-up must hold.
func hourly(t *testing.T, s *sqlstore.Store, userID uint64, loc *time.Location) map[string]report.Usage {
	t.Helper()
	out := map[string]report.Usage{}
	err := s.Stores().Hits.ForEachByUser(context.Background(), userID, func(h hitlog.Hit) error {
		if h.Status == hitlog.StatusPending {
			return nil
		}
		k := fmt.Sprintf("%d@%s", h.ServiceID, report.HourOf(h.CreatedAt, loc).Format(time.RFC3339))
		u := out[k]
		u.AddHit(report.Hit{Status: h.Status, Charge: h.ChargeAmount, Cost: h.CostAmount})
		out[k] = u
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// rolledUp is the user's hourly roll-up as stored.
func rolledUp(t *testing.T, s *sqlstore.Store, userID uint64) map[string]report.Usage {
	t.Helper()
	rows, err := s.Stores().Reports.Hours(context.Background(), time.Time{}, time.Time{}, &userID, true)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]report.Usage{}
	for _, r := range rows {
		out[fmt.Sprintf("%d@%s", r.ServiceID, r.Hour.Format(time.RFC3339))] = r.Usage
	}
	return out
}

func sameRollup(t *testing.T, label string, s *sqlstore.Store, userID uint64, loc *time.Location) {
	t.Helper()
	want, got := hourly(t, s, userID, loc), rolledUp(t, s, userID)
	if len(want) != len(got) {
		t.Fatalf("%s: roll-up has %d rows, the hits %d:\nroll-up %v\nhits    %v", label, len(got), len(want), got, want)
	}
	for k, w := range want {
		g := got[k]
		if g.Calls != w.Calls || g.Success != w.Success || g.Failed != w.Failed || g.InsufficientBalance != w.InsufficientBalance ||
			!g.Revenue.Equal(w.Revenue) || !g.Cost.Equal(w.Cost) {
			t.Fatalf("%s: roll-up %s = %+v, its hits %+v", label, k, g, w)
		}
	}
}

// TestUsageRollupFollowsEveryHitWrite: each write that makes a hit final
// (an insert, a settlement, alone or in a transaction, a metering batch)
// adds it to its local hour's row once, and a pending hit is left out; a
// settlement repeated or beaten by crash recovery adds nothing more. The
// ledger check agrees, and finds a roll-up row changed behind its back.
func TestUsageRollupFollowsEveryHitWrite(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		loc, _ := time.LoadLocation("Asia/Kolkata")
		s.SetZone(loc)
		st := s.Stores()
		u := sqltest.NewUser(t, s)
		svc := sqltest.NewService(t, s)
		// 18:30Z is local midnight: the hits straddle a local hour and day.
		base := time.Date(2026, 11, 21, 18, 29, 59, 0, time.UTC)
		n := 0
		var all []string // request ids
		// A hit's response names the status it was written with: the
		// payloads must follow the settlement that moved it.
		response := func(status hitlog.Status) *string {
			if status == hitlog.StatusPending {
				return nil
			}
			r := fmt.Sprintf(`{"status":%q}`, status)
			return &r
		}
		hit := func(status hitlog.Status, charge string, at time.Time) *hitlog.Hit {
			n++
			cost := "0"
			if status == hitlog.StatusSuccess {
				cost = "0.25"
			}
			all = append(all, fmt.Sprintf("req_usage_%d", n))
			return &hitlog.Hit{UserID: u.ID, ServiceID: svc.ID, APIKeyID: 1, RequestID: fmt.Sprintf("req_usage_%d", n), Status: status,
				RequestPayload: fmt.Sprintf(`{"n":%d}`, n), ResponsePayload: response(status),
				ChargeAmount: sqltest.Dec(t, charge), CostAmount: sqltest.Dec(t, cost), Reserved: sqltest.Dec(t, "0"), CreatedAt: at}
		}
		settle := func(h *hitlog.Hit, status hitlog.Status, charge string) *hitlog.Hit {
			h.Status, h.ChargeAmount, h.ResponsePayload = status, sqltest.Dec(t, charge), response(status)
			if status == hitlog.StatusSuccess {
				h.CostAmount = sqltest.Dec(t, "0.25")
			}
			return h
		}

		// Inserts outside a transaction: final ones count, pending ones not.
		if err := st.Hits.Insert(ctx, hit(hitlog.StatusSuccess, "1.5", base)); err != nil {
			t.Fatal(err)
		}
		p1 := hit(hitlog.StatusPending, "0", base.Add(time.Second))
		if err := st.Hits.Insert(ctx, p1); err != nil {
			t.Fatal(err)
		}
		sameRollup(t, "inserts", s, u.ID, loc)

		// Finish alone, then in a transaction; a second Finish moves nothing.
		if err := st.Hits.Finish(ctx, settle(p1, hitlog.StatusFailed, "0")); err != nil {
			t.Fatal(err)
		}
		p2 := hit(hitlog.StatusPending, "0", base.Add(time.Hour))
		if err := st.Hits.Insert(ctx, p2); err != nil {
			t.Fatal(err)
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, tx store.Stores) error {
			return tx.Hits.Finish(ctx, settle(p2, hitlog.StatusSuccess, "2"))
		}); err != nil {
			t.Fatal(err)
		}
		if err := st.Hits.Finish(ctx, p2); err != hitlog.ErrNotPending {
			t.Fatalf("second Finish: %v", err)
		}
		sameRollup(t, "finish", s, u.ID, loc)

		// InsertMany and FinishMany in a transaction.
		many := []*hitlog.Hit{hit(hitlog.StatusSuccess, "0.5", base), hit(hitlog.StatusPending, "0", base), hit(hitlog.StatusInsufficientBalance, "0", base.Add(2*time.Hour))}
		if err := s.WithinTx(ctx, func(ctx context.Context, tx store.Stores) error { return tx.Hits.InsertMany(ctx, many) }); err != nil {
			t.Fatal(err)
		}
		sameRollup(t, "insert many", s, u.ID, loc)
		if err := s.WithinTx(ctx, func(ctx context.Context, tx store.Stores) error {
			moved, err := tx.Hits.FinishMany(ctx, []*hitlog.Hit{settle(many[1], hitlog.StatusFailed, "0"), many[0]})
			if err == nil && (!moved[0] || moved[1]) {
				err = fmt.Errorf("moved %v", moved)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		sameRollup(t, "finish many", s, u.ID, loc)

		// SucceedMany outside a transaction; again (an attempt whose answer
		// was lost): moved, counted once. Crash recovery failing one first:
		// only the other is added as a success.
		ok := []*hitlog.Hit{hit(hitlog.StatusPending, "0", base), hit(hitlog.StatusPending, "0", base.Add(3*time.Hour))}
		raced := []*hitlog.Hit{hit(hitlog.StatusPending, "0", base), hit(hitlog.StatusPending, "0", base)}
		for _, h := range append(append([]*hitlog.Hit{}, ok...), raced...) {
			if err := st.Hits.Insert(ctx, h); err != nil {
				t.Fatal(err)
			}
		}
		for range 2 {
			moved, err := st.Hits.SucceedMany(ctx, []*hitlog.Hit{settle(ok[0], hitlog.StatusSuccess, "1"), settle(ok[1], hitlog.StatusSuccess, "1")})
			if err != nil || !moved[0] || !moved[1] {
				t.Fatalf("SucceedMany = %v, %v", moved, err)
			}
			sameRollup(t, "succeed many", s, u.ID, loc)
		}
		recovered := *raced[0]
		if err := st.Hits.Finish(ctx, settle(&recovered, hitlog.StatusFailed, "0")); err != nil {
			t.Fatal(err)
		}
		moved, err := st.Hits.SucceedMany(ctx, []*hitlog.Hit{settle(raced[0], hitlog.StatusSuccess, "1"), settle(raced[1], hitlog.StatusSuccess, "1")})
		if err != nil || moved[0] || !moved[1] {
			t.Fatalf("SucceedMany after recovery = %v, %v", moved, err)
		}
		sameRollup(t, "succeed many after recovery", s, u.ID, loc)

		// A metering batch: its inserts and settlements, one transaction.
		pb := hit(hitlog.StatusPending, "0", base)
		if err := st.Hits.Insert(ctx, pb); err != nil {
			t.Fatal(err)
		}
		batch := []*hitlog.Hit{hit(hitlog.StatusSuccess, "3", base.Add(4*time.Hour)), hit(hitlog.StatusFailed, "0", base.Add(4*time.Hour))}
		err = s.WithinBatchTx(ctx, func(ctx context.Context, b metering.BatchStores) error {
			if _, err := b.Hits.FinishMany(ctx, []*hitlog.Hit{settle(pb, hitlog.StatusSuccess, "1")}); err != nil {
				return err
			}
			if b.Inserts != nil {
				return b.Inserts.Insert(ctx, batch, nil, nil)
			}
			return b.Hits.InsertMany(ctx, batch)
		})
		if err != nil {
			t.Fatal(err)
		}
		sameRollup(t, "metering batch", s, u.ID, loc)
		if got := rolledUp(t, s, u.ID); len(got) < 5 {
			t.Fatalf("roll-up rows %v: want the hits spread over five local hours", got)
		}
		for i, id := range all {
			got, err := st.Hits.ByRequestID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			want := response(got.Status)
			if got.RequestPayload != fmt.Sprintf(`{"n":%d}`, i+1) || got.ResponsePayload == nil || want == nil || *got.ResponsePayload != *want {
				t.Errorf("hit %s (%s): payloads %q, %v; want its request and the response of its settlement", id, got.Status, got.RequestPayload, got.ResponsePayload)
			}
		}

		// The ledger check reads the same; a row changed behind the writers' back is found.
		chk := check.New(check.Deps{Stores: check.StoresOf(st), Location: loc})
		if ds, err := chk.Check(ctx); err != nil {
			t.Fatal(err)
		} else {
			for _, d := range ds {
				if strings.Contains(d.What, "roll-up") {
					t.Fatalf("clean roll-up reported: %v", d)
				}
			}
		}
		if err := s.DB().Exec("UPDATE hit_usage_hours SET calls = calls + 1, revenue_units = revenue_units + 1 WHERE user_id = ? AND hour = ?", u.ID, report.HourOf(base, loc)).Error; err != nil {
			t.Fatal(err)
		}
		ds, err := chk.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range ds {
			found = found || strings.Contains(d.What, "usage roll-up of service")
		}
		if !found {
			t.Fatalf("tampered roll-up not reported: %v", ds)
		}
	})
}

// TestUsageRollupUnderConcurrentWriters: many writers adding to the same
// rows at once (the database's row locks, not this process) lose nothing.
func TestUsageRollupUnderConcurrentWriters(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		st := s.Stores()
		u := sqltest.NewUser(t, s)
		svc := sqltest.NewService(t, s)
		at := time.Now().UTC()
		const writers, each = 8, 15
		var wg sync.WaitGroup
		errc := make(chan error, writers)
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					h := &hitlog.Hit{UserID: u.ID, ServiceID: svc.ID, APIKeyID: 1, RequestID: fmt.Sprintf("req_conc_%d_%d", w, i),
						Status: hitlog.StatusPending, ChargeAmount: sqltest.Dec(t, "0"), CostAmount: sqltest.Dec(t, "0"), Reserved: sqltest.Dec(t, "0"), CreatedAt: at}
					if err := st.Hits.Insert(ctx, h); err != nil {
						errc <- err
						return
					}
					h.Status, h.ChargeAmount = hitlog.StatusSuccess, sqltest.Dec(t, "0.1")
					var err error
					for try := 0; try < 5; try++ { // a deadlock is tried again, as the metering writers do
						if _, err = st.Hits.SucceedMany(ctx, []*hitlog.Hit{h}); err == nil {
							break
						}
					}
					if err != nil {
						errc <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errc)
		for err := range errc {
			t.Fatal(err)
		}
		got := rolledUp(t, s, u.ID)
		var calls int64
		for _, r := range got {
			calls += r.Calls
			if !r.Revenue.Equal(sqltest.Dec(t, "0.1").Mul(sqltest.Dec(t, fmt.Sprint(r.Calls)))) {
				t.Fatalf("revenue %s for %d calls", r.Revenue, r.Calls)
			}
		}
		if calls != writers*each {
			t.Fatalf("roll-up counts %d calls, want %d", calls, writers*each)
		}
		sameRollup(t, "concurrent", s, u.ID, time.UTC)
	})
}
