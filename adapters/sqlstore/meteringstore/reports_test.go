package meteringstore_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/app"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

// bulkHit is one row for insertHits.
type bulkHit struct {
	user, service, key uint64
	status             hitlog.Status
	charge, cost       string
	at                 time.Time
	payload            string
}

// insertHits writes hits and their payloads with multi-row INSERTs (the
// repositories insert one at a time, too slow for thousands of rows).
func insertHits(t testing.TB, s *sqlstore.Store, hits []bulkHit) {
	t.Helper()
	const batch = 500
	for i := 0; i < len(hits); i += batch {
		part := hits[i:min(i+batch, len(hits))]
		var sb strings.Builder
		sb.WriteString("INSERT INTO api_hit_logs (user_id, api_service_id, api_key_id, request_id, " +
			"charge_amount, cost_amount, reserved_amount, ip_address, status, outcome, response_time_ms, created_at, updated_at) VALUES ")
		args := make([]any, 0, len(part)*11)
		ids := make([]string, len(part))
		for j, h := range part {
			if j > 0 {
				sb.WriteString(",")
			}
			sb.WriteString("(?, ?, ?, ?, ?, ?, ?, '203.0.113.7', ?, ?, 5, ?, ?)")
			at := h.at.UTC()
			ids[j] = fmt.Sprintf("req_bulk_%d_%d", sqltest.Next(), i+j)
			args = append(args, h.user, h.service, h.key, ids[j], h.charge, h.cost, h.charge, string(h.status), meteringstore.Outcome(h.status), at, at)
		}
		if err := s.DB().Exec(sb.String(), args...).Error; err != nil {
			t.Fatalf("insert hits: %v", err)
		}
		var stored []struct {
			ID        uint64 `gorm:"column:id"`
			RequestID string `gorm:"column:request_id"`
		}
		if err := s.DB().Raw("SELECT id, request_id FROM api_hit_logs WHERE request_id IN ?", ids).Scan(&stored).Error; err != nil {
			t.Fatalf("read hit ids: %v", err)
		}
		idOf := make(map[string]uint64, len(stored))
		for _, r := range stored {
			idOf[r.RequestID] = r.ID
		}
		sb.Reset()
		sb.WriteString("INSERT INTO hit_payloads (hit_id, month, request_payload, response_payload) VALUES ")
		args = args[:0]
		for j, h := range part {
			if j > 0 {
				sb.WriteString(",")
			}
			sb.WriteString("(?, ?, ?, ?)")
			payload := h.payload
			if payload == "" {
				payload = "{}"
			}
			args = append(args, idOf[ids[j]], meteringstore.PayloadMonth(h.at), payload, payload)
		}
		if err := s.DB().Exec(sb.String(), args...).Error; err != nil {
			t.Fatalf("insert hit payloads: %v", err)
		}
	}
}

func TestHitListFiltersOrderAndCappedTotal(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		hits := s.Stores().Hits
		base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		var rows []bulkHit
		for i := range 40 {
			rows = append(rows, bulkHit{user: uint64(1 + i%2), service: uint64(10 + i%4), key: uint64(100 + i%2),
				status: []hitlog.Status{hitlog.StatusSuccess, hitlog.StatusFailed}[i%3/2], charge: "0.5000", cost: "0.2000",
				at: base.Add(time.Duration(i/2) * time.Hour)}) // pairs share created_at: id breaks the tie
		}
		insertHits(t, s, rows)
		check := func(name string, f hitlog.Filter, want int, ok func(hitlog.Hit) bool) {
			t.Helper()
			f.PerPage = 100
			got, total, err := hits.List(ctx, f)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(got) != want || total != int64(want) {
				t.Fatalf("%s: %d rows, total %d, want %d", name, len(got), total, want)
			}
			for i, h := range got {
				if !ok(h) {
					t.Fatalf("%s: row %+v does not match", name, h)
				}
				if i > 0 {
					prev := got[i-1]
					if h.CreatedAt.After(prev.CreatedAt) || (h.CreatedAt.Equal(prev.CreatedAt) && h.ID > prev.ID) {
						t.Fatalf("%s: not newest first (created_at, then id): %d after %d", name, h.ID, prev.ID)
					}
				}
			}
		}
		one, svc, key := uint64(1), uint64(11), uint64(101)
		from, to := base.Add(5*time.Hour), base.Add(9*time.Hour) // inclusive: hours 5..9, 2 rows each
		check("all", hitlog.Filter{}, 40, func(hitlog.Hit) bool { return true })
		check("user", hitlog.Filter{UserID: &one}, 20, func(h hitlog.Hit) bool { return h.UserID == 1 })
		check("service", hitlog.Filter{ServiceID: &svc}, 10, func(h hitlog.Hit) bool { return h.ServiceID == 11 })
		check("key", hitlog.Filter{APIKeyID: &key}, 20, func(h hitlog.Hit) bool { return h.APIKeyID == 101 })
		check("status", hitlog.Filter{Status: hitlog.StatusFailed}, 13, func(h hitlog.Hit) bool { return h.Status == hitlog.StatusFailed })
		check("range", hitlog.Filter{From: &from, To: &to}, 10, func(h hitlog.Hit) bool { return !h.CreatedAt.Before(from) && !h.CreatedAt.After(to) })
		check("user+range", hitlog.Filter{UserID: &one, From: &from, To: &to}, 5, func(h hitlog.Hit) bool { return h.UserID == 1 })
		got, _, _ := hits.List(ctx, hitlog.Filter{Page: 1, PerPage: 1})
		if len(got) != 1 || !got[0].CostAmount.Equal(sqltest.Dec(t, "0.2")) {
			t.Fatalf("cost_amount does not round-trip: %+v", got)
		}

		// More than ListWindow matches: the count stops at ListWindow+1.
		many := make([]bulkHit, hitlog.ListWindow+1-len(rows)+5)
		for i := range many {
			many[i] = bulkHit{user: 3, service: 10, key: 103, status: hitlog.StatusSuccess, charge: "0.0000", cost: "0.0000", at: base}
		}
		insertHits(t, s, many)
		if _, total, err := hits.List(ctx, hitlog.Filter{}); err != nil || total != hitlog.ListWindow+1 {
			t.Fatalf("capped total = %d, %v; want %d", total, err, hitlog.ListWindow+1)
		}
		if _, total, _ := hits.List(ctx, hitlog.Filter{UserID: &one}); total != 20 {
			t.Fatalf("a filtered total under the window is exact: %d", total)
		}
	})
}

func TestHitExportStreamsEveryMatchWithCutPayloads(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		long := `{"msg":"` + strings.Repeat("é", 300) + `"}`
		var rows []bulkHit
		for i := range 30 {
			rows = append(rows, bulkHit{user: uint64(1 + i%2), service: 10, key: 100, status: hitlog.StatusSuccess,
				charge: "0.5000", cost: "0.0000", at: base.Add(time.Duration(i) * time.Minute), payload: long})
		}
		insertHits(t, s, rows)
		two := uint64(2)
		var got []hitlog.Hit
		err := s.Stores().Hits.ForEach(ctx, hitlog.Filter{UserID: &two, Page: 3, PerPage: 1}, func(h hitlog.Hit) error {
			got = append(got, h)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 15 {
			t.Fatalf("exported %d rows of user 2, want 15 (page fields ignored)", len(got))
		}
		for i, h := range got {
			if h.UserID != 2 || (i > 0 && !h.CreatedAt.Before(got[i-1].CreatedAt)) {
				t.Fatalf("row %d: user %d, not newest first", i, h.UserID)
			}
			want := []rune(long)[:hitlog.ExportPayloadChars]
			if h.RequestPayload != string(want)+"…" || *h.ResponsePayload != string(want)+"…" {
				t.Fatalf("payload not cut to %d characters + …: %q", hitlog.ExportPayloadChars, h.RequestPayload)
			}
		}
		stop := errors.New("stop")
		n := 0
		err = s.Stores().Hits.ForEach(ctx, hitlog.Filter{}, func(hitlog.Hit) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("the callback's error does not stop the export: %v after %d rows", err, n)
		}
	})
}

// TestHitExportKeepsTheListOrderAcrossEqualTimes: pages of 3 rows over
// hits of which many share one created_at (groups longer than a page,
// groups cut by a page's end, ids out of time order): the export visits
// every row once, in the list's order (created_at, then id, descending).
func TestHitExportKeepsTheListOrderAcrossEqualTimes(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		s.SetExportPageRows(3)
		base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		// Offsets in seconds: a group of 7 equal times, pairs, singles, and
		// later ids carrying earlier times.
		offsets := []int{5, 5, 5, 5, 5, 5, 5, 9, 1, 9, 3, 3, 0, 7, 7, 2, 8, 8, 8, 4}
		var rows []bulkHit
		for _, o := range offsets {
			rows = append(rows, bulkHit{user: 1, service: 10, key: 100, status: hitlog.StatusSuccess, charge: "0.5000",
				cost: "0.0000", at: base.Add(time.Duration(o) * time.Second), payload: "{}"})
		}
		insertHits(t, s, rows)
		list, _, err := s.Stores().Hits.List(ctx, hitlog.Filter{PerPage: 100})
		if err != nil || len(list) != len(offsets) {
			t.Fatalf("list: %d rows, %v", len(list), err)
		}
		var got []uint64
		if err := s.Stores().Hits.ForEach(ctx, hitlog.Filter{}, func(h hitlog.Hit) error {
			got = append(got, h.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		want := make([]uint64, len(list))
		for i, h := range list {
			want[i] = h.ID
		}
		if !slices.Equal(got, want) {
			t.Fatalf("export order %v, list order %v", got, want)
		}
	})
}

// TestHitExportDoesNotLoadEverything exports 50,000 hits while measuring the
// live heap: loaded at once they would hold ~35 MB (each row carries a
// 201-character payload twice plus its fields); streamed, the heap stays
// flat. The test fails if ForEach collects the rows before visiting them.
func TestHitExportDoesNotLoadEverything(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("seeds 50,000 rows: too slow under -short or the race detector (the plain run covers it)")
	}
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		const n = 50_000
		base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		payload := `{"p":"` + strings.Repeat("x", 400) + `"}`
		rows := make([]bulkHit, n)
		for i := range rows {
			rows[i] = bulkHit{user: 1, service: 10, key: 100, status: hitlog.StatusSuccess, charge: "0.5000", cost: "0.2000",
				at: base.Add(time.Duration(i) * time.Second), payload: payload}
		}
		insertHits(t, s, rows)
		rows = nil
		heap := func() uint64 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		before := heap()
		var peak uint64
		seen := 0
		err := s.Stores().Hits.ForEach(context.Background(), hitlog.Filter{}, func(h hitlog.Hit) error {
			seen++
			if seen%20_000 == 0 {
				peak = max(peak, heap())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if seen != n {
			t.Fatalf("visited %d rows, want %d", seen, n)
		}
		growth := int64(peak) - int64(before)
		t.Logf("%s: live heap grew by %d kB while exporting %d rows", s.Dialect(), growth/1024, n)
		if growth > 10<<20 {
			t.Fatalf("live heap grew by %d MB during the export: the rows are not streamed", growth>>20)
		}
	})
}

func TestLedgerFiltersAndExport(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u, other := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		balance := decimal.Zero
		for i := range 12 {
			typ, ref, amount := ledger.Credit, ledger.RefBalanceRequest, sqltest.Dec(t, "2.00")
			if i%3 != 0 {
				typ, ref, amount = ledger.Debit, ledger.RefAPIHit, sqltest.Dec(t, "1.00")
			}
			after, err := ledger.Apply(balance, typ, amount)
			if err != nil {
				t.Fatal(err)
			}
			e := &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(base), Type: typ, Amount: amount, BalanceBefore: balance, BalanceAfter: after,
				ReferenceType: ref, Description: "=cmd|' /C calc'!A0", CreatedAt: base.Add(time.Duration(i) * time.Hour)}
			if err := s.Stores().Ledger.Insert(ctx, e); err != nil {
				t.Fatal(err)
			}
			balance = after
		}
		if err := s.Stores().Ledger.Insert(ctx, &ledger.Entry{UserID: other.ID, TxnID: ledger.NewTxnID(base), Type: ledger.Credit,
			Amount: sqltest.Dec(t, "5"), BalanceBefore: decimal.Zero, BalanceAfter: sqltest.Dec(t, "5"), ReferenceType: ledger.RefAdjustment, Description: "x"}); err != nil {
			t.Fatal(err)
		}
		count := func(f ledger.Filter) int {
			t.Helper()
			n := 0
			err := s.Stores().Ledger.ForEach(ctx, f, func(e ledger.Entry) error {
				if f.UserID != nil && e.UserID != *f.UserID || f.ReferenceType != "" && e.ReferenceType != f.ReferenceType || f.Type != "" && e.Type != f.Type {
					t.Fatalf("entry %+v escapes filter %+v", e, f)
				}
				n++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			list, total, err := s.Stores().Ledger.List(ctx, f)
			if err != nil || int(total) != n || len(list) != min(n, 20) {
				t.Fatalf("List(%+v) = %d rows, total %d, %v; ForEach saw %d", f, len(list), total, err, n)
			}
			for i := 1; i < len(list); i++ {
				if list[i].ID > list[i-1].ID {
					t.Fatal("ledger list is not id descending")
				}
			}
			return n
		}
		from, to := base.Add(3*time.Hour), base.Add(5*time.Hour)
		if n := count(ledger.Filter{UserID: &u.ID}); n != 12 {
			t.Fatalf("user: %d", n)
		}
		if n := count(ledger.Filter{ReferenceType: ledger.RefAPIHit}); n == 0 || n >= 12 {
			t.Fatalf("reference_type api_hit: %d", n)
		}
		if n := count(ledger.Filter{UserID: &u.ID, Type: ledger.Credit}); n == 0 {
			t.Fatal("no credits")
		}
		if n := count(ledger.Filter{UserID: &u.ID, From: &from, To: &to}); n != 3 {
			t.Fatalf("inclusive range: %d rows, want 3", n)
		}
		if n := count(ledger.Filter{}); n != 13 {
			t.Fatalf("everyone: %d", n)
		}
		// Oldest: the same entries in id order (a statement).
		var ids []uint64
		if err := s.Stores().Ledger.ForEach(ctx, ledger.Filter{UserID: &u.ID, Oldest: true}, func(e ledger.Entry) error {
			ids = append(ids, e.ID)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(ids) != 12 || !slices.IsSorted(ids) || slices.Compact(slices.Clone(ids))[11] != ids[11] {
			t.Fatalf("oldest first: %v", ids)
		}
	})
}

func TestReportStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		rep := s.Stores().Reports
		base := time.Date(2026, 11, 1, 18, 30, 0, 0, time.UTC)
		insertHits(t, s, []bulkHit{
			{user: 1, service: 10, key: 1, status: hitlog.StatusSuccess, charge: "0.0001", cost: "0.0003", at: base.Add(-time.Microsecond)},
			{user: 1, service: 10, key: 1, status: hitlog.StatusSuccess, charge: "0.0001", cost: "0.0003", at: base},
			{user: 2, service: 10, key: 2, status: hitlog.StatusFailed, charge: "0.0000", cost: "0.0000", at: base.Add(time.Hour)},
			{user: 1, service: 11, key: 1, status: hitlog.StatusPending, charge: "0.0000", cost: "0.0000", at: base.Add(24*time.Hour - time.Microsecond)},
			{user: 1, service: 11, key: 1, status: hitlog.StatusSuccess, charge: "1.0000", cost: "0.5000", at: base.Add(24 * time.Hour)},
		})
		one := uint64(1)
		got, err := rep.PendingHits(ctx, &one, base, base.Add(24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].ServiceID != 11 || got[0].Status != hitlog.StatusPending { // [from, to), pending only
			t.Fatalf("PendingHits = %+v, want user 1's one pending hit", got)
		}
		if got, err := rep.PendingHits(ctx, nil, base, base.Add(24*time.Hour-time.Microsecond)); err != nil || len(got) != 0 {
			t.Fatalf("PendingHits before the pending hit = %+v, %v", got, err)
		}

		// Closing: the mark is unique per zone and day, in the transaction of its rows.
		rows := []report.Row{
			{Day: "2026-11-02", UserID: 1, ServiceID: 10, Usage: report.Usage{Calls: 3, Success: 3, Revenue: sqltest.Dec(t, "0.0003"), Cost: sqltest.Dec(t, "0.0009")}},
			{Day: "2026-11-02", UserID: 2, ServiceID: 10, Usage: report.Usage{Calls: 2, Success: 1, Failed: 1, Revenue: sqltest.Dec(t, "99999999.9999"), Cost: sqltest.Dec(t, "0")}},
			{Day: "2026-11-03", UserID: 2, ServiceID: 11, Usage: report.Usage{Calls: 1, InsufficientBalance: 1}},
		}
		err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			if err := st.Reports.MarkDayClosed(ctx, "Asia/Kolkata", "2026-11-02", base); err != nil {
				return err
			}
			if err := st.Reports.MarkDayClosed(ctx, "Asia/Kolkata", "2026-11-03", base); err != nil {
				return err
			}
			return st.Reports.InsertRollups(ctx, "Asia/Kolkata", rows)
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.MarkDayClosed(ctx, "Asia/Kolkata", "2026-11-02", base); !errors.Is(err, report.ErrDayClosed) {
			t.Fatalf("second close of a day: %v, want ErrDayClosed", err)
		}
		if err := rep.MarkDayClosed(ctx, "UTC", "2026-11-02", base); err != nil {
			t.Fatalf("another zone's day is another day: %v", err)
		}
		if err := rep.InsertRollups(ctx, "UTC", []report.Row{{Day: "2026-11-04", Usage: report.Usage{Calls: 1, Pending: 1}}}); err == nil {
			t.Fatal("a roll-up row with a pending hit was stored")
		}
		closed, err := rep.ClosedDays(ctx, "Asia/Kolkata", "2026-11-01", "2026-11-02")
		if err != nil || len(closed) != 1 || !closed["2026-11-02"] {
			t.Fatalf("ClosedDays = %v, %v", closed, err)
		}

		all, err := rep.Rollups(ctx, "Asia/Kolkata", "2026-11-01", "2026-11-30", nil)
		if err != nil || len(all) != 2 {
			t.Fatalf("everyone's roll-up: %+v, %v", all, err)
		}
		if r := all[0]; r.Day != "2026-11-02" || r.ServiceID != 10 || r.Calls != 5 || r.Success != 4 || r.Failed != 1 ||
			r.Revenue.String() != "100000000.0002" || r.Cost.String() != "0.0009" {
			t.Fatalf("summed row: %+v (revenue %s cost %s): sums must be exact", r, r.Revenue, r.Cost)
		}
		two := uint64(2)
		mine, err := rep.Rollups(ctx, "Asia/Kolkata", "2026-11-03", "2026-11-03", &two)
		if err != nil || len(mine) != 1 || mine[0].UserID != 2 || mine[0].InsufficientBalance != 1 {
			t.Fatalf("one user's day: %+v, %v", mine, err)
		}

		// Counts for admins.
		sqltest.NewUser(t, s)
		sqltest.NewUser(t, s, func(u *user.User) { u.Status = user.StatusBlocked })
		gone := sqltest.NewUser(t, s, func(u *user.User) { u.Status = user.StatusPending })
		now := time.Now()
		gone.DeletedAt = &now
		if err := s.Stores().Users.Update(ctx, gone); err != nil {
			t.Fatal(err)
		}
		sqltest.NewUser(t, s, func(u *user.User) { u.Status = user.StatusPending })
		byStatus, err := rep.UsersByStatus(ctx)
		if err != nil || byStatus[user.StatusActive] != 1 || byStatus[user.StatusBlocked] != 1 || byStatus[user.StatusPending] != 1 {
			t.Fatalf("UsersByStatus = %v, %v (deleted users left out)", byStatus, err)
		}
		owner := sqltest.NewUser(t, s)
		for i, status := range []string{"pending", "pending", "approved", "rejected"} {
			err := s.DB().Exec("INSERT INTO balance_requests (user_id, amount, utr_number, status, created_at) VALUES (?, '10.00', ?, ?, ?)",
				owner.ID, fmt.Sprintf("UTR%d-%d", sqltest.Next(), i), status, now.UTC()).Error
			if err != nil {
				t.Fatal(err)
			}
		}
		if n, err := rep.PendingBalanceRequests(ctx); err != nil || n != 2 {
			t.Fatalf("PendingBalanceRequests = %d, %v", n, err)
		}
	})
}

// TestDashboardRollsUpAClosedDayOnce runs the dashboard use case on the real
// store across a day's closing: hits written before the hourly roll-up are
// counted by the backfill (once), the closed day is read from the daily
// roll-up afterwards (a hit written into it later no longer counts), today
// is read from the hourly roll-up plus its pending hit, and both databases
// give the same figures.
func TestDashboardRollsUpAClosedDayOnce(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		loc, _ := time.LoadLocation("Asia/Kolkata")
		now := time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC) // 00:30 on the 22nd local
		a := app.New(app.Deps{Tx: s, Stores: s.Stores(), Names: s.Names(), Exports: s.Exports(), Now: func() time.Time { return now }, Config: app.Config{Location: loc}})
		admin := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleAdmin })
		cust := sqltest.NewUser(t, s)
		svc := sqltest.NewService(t, s)
		insertHits(t, s, []bulkHit{
			// The 21st local: 23:59:59 local is 18:29:59Z.
			{user: cust.ID, service: svc.ID, key: 1, status: hitlog.StatusSuccess, charge: "0.5000", cost: "0.2000", at: time.Date(2026, 11, 21, 18, 29, 59, 0, time.UTC)},
			{user: cust.ID, service: svc.ID, key: 1, status: hitlog.StatusFailed, charge: "0.0000", cost: "0.0000", at: time.Date(2026, 11, 20, 18, 30, 0, 0, time.UTC)},
			// The 22nd local (today): 18:30Z is local midnight.
			{user: cust.ID, service: svc.ID, key: 1, status: hitlog.StatusSuccess, charge: "1.2500", cost: "0.2000", at: time.Date(2026, 11, 21, 18, 30, 0, 0, time.UTC)},
			{user: cust.ID, service: svc.ID, key: 1, status: hitlog.StatusPending, charge: "0.0000", cost: "0.0000", at: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC)},
			// Before the window (31 days ago): never counted.
			{user: cust.ID, service: svc.ID, key: 1, status: hitlog.StatusSuccess, charge: "9.0000", cost: "0.0000", at: time.Date(2026, 10, 21, 12, 0, 0, 0, time.UTC)},
		})
		for _, want := range []int64{4, 0} { // the final hits, then nothing: done once
			if n, err := s.BackfillUsage(ctx, loc); err != nil || n != want {
				t.Fatalf("backfill counted %d hits, %v; want %d", n, err, want)
			}
		}
		check := func(label string) {
			t.Helper()
			d, err := a.History.Dashboard(ctx, admin)
			if err != nil {
				t.Fatal(err)
			}
			p := d.Platform
			yesterday, today := p.Days[28], p.Days[29]
			if yesterday.Day != "2026-11-21" || yesterday.Calls != 2 || yesterday.Success != 1 || yesterday.Revenue.StringFixed(4) != "0.5000" || yesterday.Cost.StringFixed(4) != "0.2000" {
				t.Fatalf("%s: yesterday %+v", label, yesterday)
			}
			if today.Day != "2026-11-22" || today.Calls != 2 || today.Pending != 1 || today.Revenue.StringFixed(4) != "1.2500" {
				t.Fatalf("%s: today %+v", label, today)
			}
			if p.Usage.Calls != 4 || p.Usage.Margin().StringFixed(4) != "1.3500" {
				t.Fatalf("%s: totals %+v margin %s", label, p.Usage, p.Usage.Margin())
			}
			if d.Usage.Calls != 0 || len(p.TopServices) != 1 || p.TopServices[0].Name != svc.Name {
				t.Fatalf("%s: admin's own %+v, top %+v", label, d.Usage, p.TopServices)
			}
		}
		check("first read (closes 29 days)")
		closed, err := s.Stores().Reports.ClosedDays(ctx, "Asia/Kolkata", "2026-10-24", "2026-11-21")
		if err != nil || len(closed) != 29 {
			t.Fatalf("%d days closed, want the 29 past days of the window: %v", len(closed), err)
		}
		// A closed day is final: a hit written into it now is not read again.
		late := &hitlog.Hit{UserID: cust.ID, ServiceID: svc.ID, APIKeyID: 1, RequestID: "req_late", Status: hitlog.StatusSuccess,
			ChargeAmount: sqltest.Dec(t, "7"), CostAmount: sqltest.Dec(t, "0"), Reserved: sqltest.Dec(t, "0"), CreatedAt: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
		if err := s.Stores().Hits.Insert(ctx, late); err != nil {
			t.Fatal(err)
		}
		check("second read (from the roll-up)")

		// The customer sees only their own figures, and no platform.
		d, err := a.History.Dashboard(ctx, cust)
		if err != nil || d.Platform != nil || d.Usage.Calls != 4 || d.Days[28].Calls != 2 || d.Days[29].Calls != 2 {
			t.Fatalf("customer dashboard: %+v, %v", d, err)
		}
	})
}
