package history_test

import (
	"context"
	"errors"
	"paygate/core/metering/history"
	"paygate/core/platform/store"
	"slices"
	"sync"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
	"paygate/core/money/ledger"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"

	"github.com/shopspring/decimal"
)

const zone = "Asia/Kolkata"

// dash is the dashboard's world over the in-memory store, in Kolkata
// (UTC+5:30), where the local day and the UTC day differ. Services 7 and 9
// exist; 8 was deleted.
type dash struct {
	db    *storetest.DB
	panel *history.History
	now   time.Time
}

func newDash(t *testing.T, now time.Time) *dash {
	d := &dash{db: storetest.New(), now: now}
	loc, _ := time.LoadLocation(zone)
	d.panel = history.New(history.Deps{Tx: store.Narrow(d.db, history.TxStoresOf), Stores: historyStores(d.db), Now: func() time.Time { return d.now }, Config: history.Config{Location: loc}})
	d.db.Put(catalog.Service{ID: 7, Name: "Service", Slug: "svc"}, catalog.Service{ID: 9, Name: "Service", Slug: "svc9"})
	return d
}

// historyStores are the in-memory store's repositories history reads.
func historyStores(db *storetest.DB) history.Stores {
	st := db.Stores()
	return history.Stores{Ledger: st.Ledger, Hits: st.Hits, Reports: st.Reports, Services: st.Services, Users: st.Users,
		Names: db.Names()}
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func (d *dash) user(id uint64, role user.Role) *user.User {
	u := user.User{ID: id, Role: role, Status: user.StatusActive, Balance: dec("9.50"), TotalSpent: dec("0.50")}
	d.db.Put(u)
	return &u
}

// hits stores hits in the hit log.
func (d *dash) hits(hits ...hitlog.Hit) {
	for _, h := range hits {
		d.db.Put(h)
	}
}

// closedExcept marks every day of the window before today (2026-10-24 to
// 2026-11-21) rolled up but the given ones.
func (d *dash) closedExcept(open ...string) {
	for _, day := range report.Days("2026-11-21", 29) {
		if !slices.Contains(open, day) {
			d.db.Put(storetest.ClosedDay{Zone: zone, Day: day, At: d.now.Add(-time.Hour)})
		}
	}
}

// closed reports whether day is marked rolled up.
func (d *dash) closed(day string) bool {
	for _, c := range d.db.ClosedDays() {
		if c.Zone == zone && c.Day == day {
			return true
		}
	}
	return false
}

// rollups are the stored roll-up rows of day.
func (d *dash) rollups(day string) []report.Row {
	var out []report.Row
	for _, r := range d.db.Rollups() {
		if r.Zone == zone && r.Day == day {
			out = append(out, r.Row)
		}
	}
	return out
}

func hit(userID, serviceID uint64, status hitlog.Status, charge, cost, at string) hitlog.Hit {
	return hitlog.Hit{UserID: userID, ServiceID: serviceID, Status: status, ChargeAmount: dec(charge), CostAmount: dec(cost), CreatedAt: utc(at)}
}

func dayOf(t *testing.T, days []history.DayUsage, day string) report.Usage {
	t.Helper()
	for _, d := range days {
		if d.Day == day {
			return d.Usage
		}
	}
	t.Fatalf("day %s missing", day)
	return report.Usage{}
}

func ptrTo(n uint64) *uint64 { return &n }

func TestDashboardUserClosesYesterdayAndBucketsTodayByLocalDay(t *testing.T) {
	// 00:20 on the 22nd in Kolkata: the 21st ended 20 minutes ago, past the 15-minute grace.
	d := newDash(t, utc("2026-11-21T18:50:00Z"))
	me := d.user(11, user.RoleReseller)
	d.closedExcept("2026-11-21")
	d.db.Put(storetest.Rollup{Zone: zone, Row: report.Row{Day: "2026-11-01", UserID: 11, ServiceID: 8,
		Usage: report.Usage{Calls: 4, Success: 3, InsufficientBalance: 1, Revenue: dec("1.5")}}})
	// The 21st (local) is [18:30Z on the 20th, 18:30Z on the 21st), of every user.
	d.hits(
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-21T18:29:59Z"), // 23:59:59 local, the 21st
		hit(12, 7, hitlog.StatusFailed, "0", "0", "2026-11-20T18:30:00Z"),          // 00:00 local, the 21st
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-21T10:00:00Z"),
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-20T18:29:59Z"), // the 20th, already rolled up
		// Today: 18:30Z is local midnight of the 22nd.
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-21T18:30:00Z"),
		hit(11, 7, hitlog.StatusPending, "0", "0", "2026-11-21T18:49:00Z"),
		hit(12, 7, hitlog.StatusSuccess, "9.00", "0", "2026-11-21T18:45:00Z"), // another user's
	)

	got, err := d.panel.Dashboard(context.Background(), me)
	if err != nil {
		t.Fatal(err)
	}
	// The 21st is closed now, with one row per user and service.
	rows := d.rollups("2026-11-21")
	if !d.closed("2026-11-21") || len(rows) != 2 ||
		rows[0].UserID != 11 || rows[0].ServiceID != 7 || rows[0].Calls != 2 || rows[0].Success != 2 ||
		!rows[0].Revenue.Equal(dec("1.00")) || !rows[0].Cost.Equal(dec("0.4")) ||
		rows[1].UserID != 12 || rows[1].Calls != 1 || rows[1].Failed != 1 || !rows[1].Revenue.IsZero() {
		t.Fatalf("roll-up of the 21st: closed %v, rows %+v", d.closed("2026-11-21"), rows)
	}
	if got.Zone != zone || got.From != "2026-10-24" || got.To != "2026-11-22" || len(got.Days) != 30 {
		t.Fatalf("window %s %s..%s with %d days", got.Zone, got.From, got.To, len(got.Days))
	}
	for i, day := range report.Days("2026-11-22", 30) {
		if got.Days[i].Day != day {
			t.Fatalf("day %d is %s, want %s (every day, oldest first)", i, got.Days[i].Day, day)
		}
	}
	if u := dayOf(t, got.Days, "2026-11-22"); u.Calls != 2 || u.Success != 1 || u.Pending != 1 || !u.Revenue.Equal(dec("0.5")) {
		t.Errorf("today: %+v", u)
	}
	if u := dayOf(t, got.Days, "2026-11-21"); u.Calls != 2 || !u.Revenue.Equal(dec("1")) {
		t.Errorf("yesterday (rolled up): %+v", u)
	}
	if u := dayOf(t, got.Days, "2026-11-02"); u.Calls != 0 || !u.Revenue.IsZero() {
		t.Errorf("a day without calls is not zero: %+v", u)
	}
	if got.Usage.Calls != 8 || got.Usage.Success != 6 || got.Usage.Pending != 1 || got.Usage.InsufficientBalance != 1 || !got.Usage.Revenue.Equal(dec("3")) {
		t.Errorf("totals: %+v", got.Usage)
	}
	if len(got.TopServices) != 2 || got.TopServices[0].ServiceID != 7 || got.TopServices[0].Calls != 4 || got.TopServices[0].Name != "Service" ||
		got.TopServices[1].ServiceID != 8 || got.TopServices[1].Name != "" {
		t.Errorf("top services: %+v", got.TopServices)
	}
	if got.Platform != nil || !got.User.Balance.Equal(dec("9.50")) {
		t.Errorf("a reseller got platform figures or a wrong balance: %+v", got)
	}
}

func TestDashboardKeepsADayOpenWhileAHitIsPendingOrWithinGrace(t *testing.T) {
	t.Run("pending hit", func(t *testing.T) {
		d := newDash(t, utc("2026-11-21T19:30:00Z"))
		me := d.user(11, user.RoleUser)
		d.closedExcept("2026-11-21")
		d.hits(
			hit(12, 7, hitlog.StatusSuccess, "1.00", "0.1000", "2026-11-21T09:00:00Z"),
			hit(11, 7, hitlog.StatusPending, "0", "0", "2026-11-21T18:29:00Z"),
			hit(11, 7, hitlog.StatusSuccess, "1.00", "0.1000", "2026-11-21T19:00:00Z"))
		got, err := d.panel.Dashboard(context.Background(), me)
		if err != nil {
			t.Fatal(err)
		}
		// Not closed: the 21st is read live with today.
		if d.closed("2026-11-21") || len(d.db.Rollups()) != 0 {
			t.Fatalf("closed a day with a pending hit: %+v", d.db.Rollups())
		}
		if y, td := dayOf(t, got.Days, "2026-11-21"), dayOf(t, got.Days, "2026-11-22"); y.Pending != 1 || y.Calls != 1 || td.Success != 1 {
			t.Errorf("yesterday %+v, today %+v", y, td)
		}
	})
	t.Run("within grace", func(t *testing.T) {
		d := newDash(t, utc("2026-11-21T18:40:00Z")) // 00:10 local: the 21st ended 10 minutes ago
		me := d.user(11, user.RoleUser)
		d.closedExcept("2026-11-21")
		got, err := d.panel.Dashboard(context.Background(), me)
		if err != nil || got.Usage.Calls != 0 || len(got.Days) != 30 || len(got.TopServices) != 0 {
			t.Fatalf("%+v, %v", got, err)
		}
		if d.closed("2026-11-21") || d.db.Calls("Reports.MarkDayClosed") != 0 {
			t.Fatal("closed a day within its grace")
		}
	})
	t.Run("closed by another instance meanwhile", func(t *testing.T) {
		d := newDash(t, utc("2026-11-21T19:30:00Z"))
		me := d.user(11, user.RoleUser)
		d.closedExcept("2026-11-21")
		d.hits(hit(11, 7, hitlog.StatusSuccess, "1.00", "0", "2026-11-21T09:00:00Z"))
		var once sync.Once
		d.db.OnCall("Reports.MarkDayClosed", func() error { // the other instance commits its roll-up first
			once.Do(func() {
				d.db.Put(storetest.ClosedDay{Zone: zone, Day: "2026-11-21", At: d.now},
					storetest.Rollup{Zone: zone, Row: report.Row{Day: "2026-11-21", UserID: 11, ServiceID: 7,
						Usage: report.Usage{Calls: 1, Success: 1, Revenue: dec("1")}}})
			})
			return nil
		})
		got, err := d.panel.Dashboard(context.Background(), me)
		if err != nil || got.Usage.Calls != 1 {
			t.Fatalf("%+v, %v", got, err)
		}
		// No second roll-up; the day counts as closed, so only today is live.
		if rows := d.rollups("2026-11-21"); len(rows) != 1 {
			t.Fatalf("the 21st rolled up twice: %+v", rows)
		}
	})
}

func TestDashboardAdminAddsThePlatform(t *testing.T) {
	d := newDash(t, utc("2026-11-21T12:00:00Z")) // 17:30 on the 21st local
	me := d.user(1, user.RoleAdmin)
	deleted := utc("2026-11-01T00:00:00Z")
	d.db.Put(user.User{ID: 12, Status: user.StatusActive}, user.User{ID: 13, Status: user.StatusActive},
		user.User{ID: 14, Status: user.StatusActive}, user.User{ID: 15, Status: user.StatusBlocked},
		user.User{ID: 16, Status: user.StatusActive, DeletedAt: &deleted})
	for i := range 4 {
		st := topup.StatusPending
		if i == 3 {
			st = topup.StatusApproved
		}
		d.db.Put(topup.Request{UserID: 12, Amount: dec("10"), UTRNumber: "41234567890" + string(rune('0'+i)), Status: st})
	}
	// One past day is rolled up already; the other 28 are closed now (here
	// without hits).
	d.db.Put(storetest.ClosedDay{Zone: zone, Day: "2026-11-02", At: d.now.Add(-24 * time.Hour)},
		storetest.Rollup{Zone: zone, Row: report.Row{Day: "2026-11-02", UserID: 12, ServiceID: 9,
			Usage: report.Usage{Calls: 5, Success: 5, Revenue: dec("2.5"), Cost: dec("1.25")}}})
	// Today live, everyone's hits: the admin's own count for "mine" too.
	d.hits(
		hit(1, 7, hitlog.StatusSuccess, "0.20", "0.2000", "2026-11-21T10:00:00Z"),
		hit(12, 7, hitlog.StatusSuccess, "1.00", "0.2000", "2026-11-21T11:00:00Z"),
		hit(12, 9, hitlog.StatusSuccess, "0.10", "0.2500", "2026-11-21T11:30:00Z"),
		hit(13, 9, hitlog.StatusFailed, "0", "0", "2026-11-21T11:45:00Z"),
	)

	got, err := d.panel.Dashboard(context.Background(), me)
	if err != nil {
		t.Fatal(err)
	}
	for _, day := range report.Days("2026-11-20", 29) {
		if !d.closed(day) {
			t.Errorf("%s not closed", day)
		}
	}
	if n := d.db.Calls("Reports.MarkDayClosed"); n != 28 || len(d.db.Rollups()) != 1 {
		t.Errorf("%d days marked, roll-up rows %+v", n, d.db.Rollups())
	}
	if got.Usage.Calls != 1 || !got.Usage.Revenue.Equal(dec("0.2")) {
		t.Errorf("the admin's own usage: %+v", got.Usage)
	}
	p := got.Platform
	if p == nil {
		t.Fatal("no platform figures for an admin")
	}
	if p.Usage.Calls != 9 || p.Usage.Success != 8 || p.Usage.Failed != 1 ||
		!p.Usage.Revenue.Equal(dec("3.80")) || !p.Usage.Cost.Equal(dec("1.90")) || !p.Usage.Margin().Equal(dec("1.90")) {
		t.Errorf("platform totals: %+v margin %s", p.Usage, p.Usage.Margin())
	}
	if td := dayOf(t, p.Days, "2026-11-21"); td.Calls != 4 || !td.Revenue.Equal(dec("1.3")) || !td.Margin().Equal(dec("0.65")) {
		t.Errorf("platform today: %+v", td)
	}
	if len(p.Days) != 30 || p.PendingBalanceRequests != 3 || p.UsersByStatus[user.StatusActive] != 4 || p.UsersByStatus[user.StatusBlocked] != 1 {
		t.Errorf("platform: %+v", p)
	}
	if len(p.TopServices) != 2 || p.TopServices[0].ServiceID != 9 || p.TopServices[0].Calls != 7 {
		t.Errorf("platform top services: %+v", p.TopServices)
	}
}

func TestHistoryIsScopedToTheCallerUnlessAdmin(t *testing.T) {
	db := storetest.New()
	a := history.New(history.Deps{Stores: historyStores(db)})
	at := utc("2026-11-21T10:00:00Z")
	for _, uid := range []uint64{11, 99, 11} {
		db.Put(hitlog.Hit{UserID: uid, ServiceID: 7, Status: hitlog.StatusSuccess, CreatedAt: at})
		db.Put(ledger.Entry{UserID: uid, Type: ledger.Credit, Amount: dec("1"), CreatedAt: at})
	}
	someoneElse := ptrTo(99)
	u := &user.User{ID: 11, Role: user.RoleUser}
	admin := &user.User{ID: 1, Role: user.RoleAdmin}
	ctx := context.Background()

	hitUsers := func(hits []hitlog.Hit) []uint64 {
		var out []uint64
		for _, h := range hits {
			out = append(out, h.UserID)
		}
		return out
	}
	var exported []uint64
	collectHit := func(h hitlog.Hit) error { exported = append(exported, h.UserID); return nil }
	collectEntry := func(e ledger.Entry) error { exported = append(exported, e.UserID); return nil }
	only := func(what string, got []uint64, want ...uint64) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: users %v, want %v", what, got, want)
		}
	}

	// A user's history is their own, whatever user the filter names.
	hits, _, err := a.ListHits(ctx, u, hitlog.Filter{UserID: someoneElse})
	only("user's hits for another", hitUsers(hits), 11, 11)
	hits, total, err2 := a.ListHits(ctx, u, hitlog.Filter{})
	only("user's hits", hitUsers(hits), 11, 11)
	exported = nil
	err3 := a.ExportHits(ctx, u, hitlog.Filter{UserID: someoneElse}, collectHit)
	only("user's hit export", exported, 11, 11)
	entries, _, err4 := a.ListTransactions(ctx, u, ledger.Filter{UserID: someoneElse})
	var entryUsers []uint64
	for _, e := range entries {
		entryUsers = append(entryUsers, e.UserID)
	}
	only("user's transactions", entryUsers, 11, 11)
	exported = nil
	err5 := a.ExportTransactions(ctx, u, ledger.Filter{UserID: someoneElse}, collectEntry)
	only("user's transaction export", exported, 11, 11)
	if err := errors.Join(err, err2, err3, err4, err5); err != nil || total != 2 {
		t.Fatalf("total %d, %v", total, err)
	}

	// An admin's choice stands: one user, or everyone.
	hits, _, err = a.ListHits(ctx, admin, hitlog.Filter{UserID: someoneElse})
	only("admin's hits of one user", hitUsers(hits), 99)
	exported = nil
	err2 = a.ExportTransactions(ctx, admin, ledger.Filter{}, collectEntry)
	only("admin's transaction export", exported, 11, 99, 11)
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
}

func TestServiceRef(t *testing.T) {
	db := storetest.New()
	db.Put(catalog.Service{ID: 7, Slug: "sms"})
	a := history.New(history.Deps{Stores: historyStores(db)})
	ctx := context.Background()
	if id, err := a.ServiceRef(ctx, "service", "42"); err != nil || id != 42 || db.Calls("Services.BySlug") != 0 {
		t.Fatalf("numeric ref: %d, %v (looked up: %d)", id, err, db.Calls("Services.BySlug"))
	}
	if id, err := a.ServiceRef(ctx, "service", "sms"); err != nil || id != 7 {
		t.Fatalf("slug: %d, %v", id, err)
	}
	_, err := a.ServiceRef(ctx, "service", "nope")
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || len(e.Fields["service"]) == 0 {
		t.Fatalf("unknown slug: %v", err)
	}
}

// TestCloseDaysCountsTheDaysItCloses: the worker's round closes the days
// that are over and free of pending hits, reports how many, and leaves a
// day with a pending hit open; a second round closes nothing.
func TestCloseDaysCountsTheDaysItCloses(t *testing.T) {
	d := newDash(t, utc("2026-11-21T19:30:00Z"))
	d.closedExcept("2026-11-19", "2026-11-20", "2026-11-21")
	d.hits(
		hit(11, 7, hitlog.StatusSuccess, "1.00", "0.1000", "2026-11-19T09:00:00Z"),
		hit(11, 7, hitlog.StatusPending, "0", "0", "2026-11-20T09:00:00Z"))
	for round, want := range []int{2, 0} {
		n, err := d.panel.CloseDays(context.Background())
		if err != nil || n != want {
			t.Fatalf("round %d closed %d days, %v; want %d", round, n, err, want)
		}
	}
	if !d.closed("2026-11-19") || d.closed("2026-11-20") || !d.closed("2026-11-21") {
		t.Fatal("want the 19th and 21st closed, the 20th (a pending hit) open")
	}
	if rows := d.rollups("2026-11-19"); len(rows) != 1 || rows[0].Calls != 1 {
		t.Fatalf("roll-up of the 19th: %+v", rows)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
