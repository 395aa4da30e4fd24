package panel_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/catalog"
	catalogmocks "paygate/core/catalog/mocks"
	"paygate/core/errs"
	"paygate/core/hitlog"
	hitmocks "paygate/core/hitlog/mocks"
	"paygate/core/ledger"
	ledgermocks "paygate/core/ledger/mocks"
	"paygate/core/panel"
	"paygate/core/report"
	reportmocks "paygate/core/report/mocks"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
)

const zone = "Asia/Kolkata"

// dash is the dashboard's world made of mocks. The clock stands just after
// local midnight in Kolkata (UTC+5:30), where the local day and the UTC day
// differ.
type dash struct {
	users    *usermocks.MockRepository
	services *catalogmocks.MockRepository
	reports  *reportmocks.MockRepository
	panel    *panel.Panel
	now      time.Time
}

func newDash(t *testing.T, now time.Time) *dash {
	d := &dash{users: usermocks.NewMockRepository(t), services: catalogmocks.NewMockRepository(t), reports: reportmocks.NewMockRepository(t), now: now}
	tx := storemocks.NewMockTransactor(t)
	stores := store.Stores{Users: d.users, Services: d.services, Reports: d.reports}
	loc, _ := time.LoadLocation(zone)
	d.panel = panel.New(panel.Deps{Tx: tx, Stores: stores, Now: func() time.Time { return d.now }, Config: panel.Config{Location: loc}})
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	d.services.EXPECT().ByID(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, id uint64) (*catalog.Service, error) {
		if id == 8 {
			return nil, catalog.ErrServiceNotFound // deleted
		}
		return &catalog.Service{ID: id, Name: "Service", Slug: "svc"}, nil
	}).Maybe()
	return d
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func (d *dash) user(id uint64, role user.Role) *user.User {
	u := &user.User{ID: id, Role: role, Status: user.StatusActive, Balance: dec("9.50"), TotalSpent: dec("0.50")}
	d.users.EXPECT().ByID(mock.Anything, id).Return(u, nil).Once()
	return u
}

// expectHits answers ForEachHit(userID, from, to) with hits, once.
func (d *dash) expectHits(userID *uint64, from, to string, hits ...report.Hit) {
	d.reports.EXPECT().ForEachHit(mock.Anything, userID, instant(from), instant(to), mock.Anything).RunAndReturn(
		func(_ context.Context, _ *uint64, _, _ time.Time, fn func(report.Hit) error) error {
			for _, h := range hits {
				if err := fn(h); err != nil {
					return err
				}
			}
			return nil
		}).Once()
}

// closedExcept answers ClosedDays with every day of the window closed but the given ones.
func (d *dash) closedExcept(open ...string) {
	days := report.Days("2026-11-21", 29)
	closed := map[string]bool{}
	for _, day := range days {
		closed[day] = true
	}
	for _, day := range open {
		delete(closed, day)
	}
	d.reports.EXPECT().ClosedDays(mock.Anything, zone, "2026-10-24", "2026-11-21").Return(closed, nil).Once()
}

// instant matches a time.Time that is the same instant as s, in any zone.
func instant(s string) any {
	want := utc(s)
	return mock.MatchedBy(func(t time.Time) bool { return t.Equal(want) })
}

func hit(userID, serviceID uint64, status hitlog.Status, charge, cost, at string) report.Hit {
	return report.Hit{UserID: userID, ServiceID: serviceID, Status: status, Charge: dec(charge), Cost: dec(cost), CreatedAt: utc(at)}
}

func dayOf(t *testing.T, days []panel.DayUsage, day string) report.Usage {
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

	// Closing the 21st (local): every user's hits of [18:30Z on the 20th, 18:30Z on the 21st).
	d.expectHits(nil, "2026-11-20T18:30:00Z", "2026-11-21T18:30:00Z",
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-21T18:29:59Z"), // 23:59:59 local, the 21st
		hit(12, 7, hitlog.StatusFailed, "0", "0", "2026-11-20T18:30:00Z"),          // 00:00 local, the 21st
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-21T10:00:00Z"),
	)
	d.reports.EXPECT().MarkDayClosed(mock.Anything, zone, "2026-11-21", d.now.UTC()).Return(nil).Once()
	d.reports.EXPECT().InsertRollups(mock.Anything, zone, mock.MatchedBy(func(rows []report.Row) bool {
		return len(rows) == 2 &&
			rows[0].Day == "2026-11-21" && rows[0].UserID == 11 && rows[0].ServiceID == 7 && rows[0].Calls == 2 && rows[0].Success == 2 &&
			rows[0].Revenue.Equal(dec("1.00")) && rows[0].Cost.Equal(dec("0.4")) &&
			rows[1].UserID == 12 && rows[1].Calls == 1 && rows[1].Failed == 1 && rows[1].Revenue.IsZero()
	})).Return(nil).Once()

	// Today, live and only the caller's: 18:30Z is local midnight of the 22nd.
	d.expectHits(ptrTo(11), "2026-11-21T18:30:00Z", "2026-11-22T18:30:00Z",
		hit(11, 7, hitlog.StatusSuccess, "0.50", "0.2000", "2026-11-21T18:30:00Z"),
		hit(11, 7, hitlog.StatusPending, "0", "0", "2026-11-21T18:49:00Z"),
	)
	d.reports.EXPECT().Rollups(mock.Anything, zone, "2026-10-24", "2026-11-22", ptrTo(11)).Return([]report.Row{
		{Day: "2026-11-21", UserID: 11, ServiceID: 7, Usage: report.Usage{Calls: 2, Success: 2, Revenue: dec("1.00"), Cost: dec("0.4")}},
		{Day: "2026-11-01", UserID: 11, ServiceID: 8, Usage: report.Usage{Calls: 4, Success: 3, InsufficientBalance: 1, Revenue: dec("1.5")}},
	}, nil).Once()

	got, err := d.panel.Dashboard(context.Background(), me)
	if err != nil {
		t.Fatal(err)
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
		d.expectHits(nil, "2026-11-20T18:30:00Z", "2026-11-21T18:30:00Z",
			hit(12, 7, hitlog.StatusSuccess, "1.00", "0.1000", "2026-11-21T09:00:00Z"),
			hit(11, 7, hitlog.StatusPending, "0", "0", "2026-11-21T18:29:00Z"))
		// No MarkDayClosed: the 21st is read live with today.
		d.expectHits(ptrTo(11), "2026-11-20T18:30:00Z", "2026-11-22T18:30:00Z",
			hit(11, 7, hitlog.StatusPending, "0", "0", "2026-11-21T18:29:00Z"),
			hit(11, 7, hitlog.StatusSuccess, "1.00", "0.1000", "2026-11-21T19:00:00Z"))
		d.reports.EXPECT().Rollups(mock.Anything, zone, "2026-10-24", "2026-11-22", ptrTo(11)).Return(nil, nil).Once()
		got, err := d.panel.Dashboard(context.Background(), me)
		if err != nil {
			t.Fatal(err)
		}
		if y, td := dayOf(t, got.Days, "2026-11-21"), dayOf(t, got.Days, "2026-11-22"); y.Pending != 1 || y.Calls != 1 || td.Success != 1 {
			t.Errorf("yesterday %+v, today %+v", y, td)
		}
	})
	t.Run("within grace", func(t *testing.T) {
		d := newDash(t, utc("2026-11-21T18:40:00Z")) // 00:10 local: the 21st ended 10 minutes ago
		me := d.user(11, user.RoleUser)
		d.closedExcept("2026-11-21")
		d.expectHits(ptrTo(11), "2026-11-20T18:30:00Z", "2026-11-22T18:30:00Z")
		d.reports.EXPECT().Rollups(mock.Anything, zone, "2026-10-24", "2026-11-22", ptrTo(11)).Return(nil, nil).Once()
		got, err := d.panel.Dashboard(context.Background(), me)
		if err != nil || got.Usage.Calls != 0 || len(got.Days) != 30 || len(got.TopServices) != 0 {
			t.Fatalf("%+v, %v", got, err)
		}
	})
	t.Run("closed by another instance meanwhile", func(t *testing.T) {
		d := newDash(t, utc("2026-11-21T19:30:00Z"))
		me := d.user(11, user.RoleUser)
		d.closedExcept("2026-11-21")
		d.expectHits(nil, "2026-11-20T18:30:00Z", "2026-11-21T18:30:00Z", hit(11, 7, hitlog.StatusSuccess, "1.00", "0", "2026-11-21T09:00:00Z"))
		d.reports.EXPECT().MarkDayClosed(mock.Anything, zone, "2026-11-21", mock.Anything).Return(report.ErrDayClosed).Once()
		// No InsertRollups; the day counts as closed, so only today is live.
		d.expectHits(ptrTo(11), "2026-11-21T18:30:00Z", "2026-11-22T18:30:00Z")
		d.reports.EXPECT().Rollups(mock.Anything, zone, "2026-10-24", "2026-11-22", ptrTo(11)).Return([]report.Row{
			{Day: "2026-11-21", UserID: 11, ServiceID: 7, Usage: report.Usage{Calls: 1, Success: 1, Revenue: dec("1")}}}, nil).Once()
		got, err := d.panel.Dashboard(context.Background(), me)
		if err != nil || got.Usage.Calls != 1 {
			t.Fatalf("%+v, %v", got, err)
		}
	})
}

func TestDashboardAdminAddsThePlatform(t *testing.T) {
	d := newDash(t, utc("2026-11-21T12:00:00Z")) // 17:30 on the 21st local
	me := d.user(1, user.RoleAdmin)
	d.reports.EXPECT().ClosedDays(mock.Anything, zone, "2026-10-23", "2026-11-20").Return(map[string]bool{}, nil).Once()
	// Nothing is closed yet: each of the 29 past days is rolled up (here without hits).
	for _, day := range report.Days("2026-11-20", 29) {
		start, _ := report.DayStart(day, d.panel.Location())
		end, _ := report.DayStart(report.NextDay(day), d.panel.Location())
		d.expectHits(nil, start.UTC().Format(time.RFC3339), end.UTC().Format(time.RFC3339))
		d.reports.EXPECT().MarkDayClosed(mock.Anything, zone, day, mock.Anything).Return(nil).Once()
	}
	d.reports.EXPECT().InsertRollups(mock.Anything, zone, []report.Row{}).Return(nil).Times(29)
	// Today live, everyone's hits: the admin's own count for "mine" too.
	d.expectHits(nil, "2026-11-20T18:30:00Z", "2026-11-21T18:30:00Z",
		hit(1, 7, hitlog.StatusSuccess, "0.20", "0.2000", "2026-11-21T10:00:00Z"),
		hit(12, 7, hitlog.StatusSuccess, "1.00", "0.2000", "2026-11-21T11:00:00Z"),
		hit(12, 9, hitlog.StatusSuccess, "0.10", "0.2500", "2026-11-21T11:30:00Z"),
		hit(13, 9, hitlog.StatusFailed, "0", "0", "2026-11-21T11:45:00Z"),
	)
	d.reports.EXPECT().Rollups(mock.Anything, zone, "2026-10-23", "2026-11-21", ptrTo(1)).Return(nil, nil).Once()
	d.reports.EXPECT().Rollups(mock.Anything, zone, "2026-10-23", "2026-11-21", (*uint64)(nil)).Return([]report.Row{
		{Day: "2026-11-02", ServiceID: 9, Usage: report.Usage{Calls: 5, Success: 5, Revenue: dec("2.5"), Cost: dec("1.25")}},
	}, nil).Once()
	d.reports.EXPECT().PendingBalanceRequests(mock.Anything).Return(3, nil).Once()
	d.reports.EXPECT().UsersByStatus(mock.Anything).Return(map[user.Status]int64{user.StatusActive: 4, user.StatusBlocked: 1}, nil).Once()

	got, err := d.panel.Dashboard(context.Background(), me)
	if err != nil {
		t.Fatal(err)
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
	if len(p.Days) != 30 || p.PendingBalanceRequests != 3 || p.UsersByStatus[user.StatusActive] != 4 {
		t.Errorf("platform: %+v", p)
	}
	if len(p.TopServices) != 2 || p.TopServices[0].ServiceID != 9 || p.TopServices[0].Calls != 7 {
		t.Errorf("platform top services: %+v", p.TopServices)
	}
}

func TestHistoryIsScopedToTheCallerUnlessAdmin(t *testing.T) {
	hits, entries := hitmocks.NewMockRepository(t), ledgermocks.NewMockRepository(t)
	a := panel.New(panel.Deps{Stores: store.Stores{Hits: hits, Ledger: entries}})
	someoneElse := ptrTo(99)
	u := &user.User{ID: 11, Role: user.RoleUser}
	admin := &user.User{ID: 1, Role: user.RoleAdmin}
	isUser := func(want *uint64) func(*uint64) bool {
		return func(got *uint64) bool { return (got == nil) == (want == nil) && (got == nil || *got == *want) }
	}

	hits.EXPECT().List(mock.Anything, mock.MatchedBy(func(f hitlog.Filter) bool { return isUser(ptrTo(11))(f.UserID) })).Return(nil, 0, nil).Twice()
	hits.EXPECT().ForEach(mock.Anything, mock.MatchedBy(func(f hitlog.Filter) bool { return isUser(ptrTo(11))(f.UserID) }), mock.Anything).Return(nil).Once()
	entries.EXPECT().List(mock.Anything, mock.MatchedBy(func(f ledger.Filter) bool { return isUser(ptrTo(11))(f.UserID) })).Return(nil, 0, nil).Once()
	entries.EXPECT().ForEach(mock.Anything, mock.MatchedBy(func(f ledger.Filter) bool { return isUser(ptrTo(11))(f.UserID) }), mock.Anything).Return(nil).Once()
	ctx := context.Background()
	_, _, _ = a.ListHits(ctx, u, hitlog.Filter{UserID: someoneElse})
	_, _, _ = a.ListHits(ctx, u, hitlog.Filter{})
	_ = a.ExportHits(ctx, u, hitlog.Filter{UserID: someoneElse}, func(hitlog.Hit) error { return nil })
	_, _, _ = a.ListTransactions(ctx, u, ledger.Filter{UserID: someoneElse})
	_ = a.ExportTransactions(ctx, u, ledger.Filter{UserID: someoneElse}, func(ledger.Entry) error { return nil })

	// An admin's choice stands: one user, or everyone.
	hits.EXPECT().List(mock.Anything, mock.MatchedBy(func(f hitlog.Filter) bool { return isUser(someoneElse)(f.UserID) })).Return(nil, 0, nil).Once()
	entries.EXPECT().ForEach(mock.Anything, mock.MatchedBy(func(f ledger.Filter) bool { return f.UserID == nil }), mock.Anything).Return(nil).Once()
	_, _, _ = a.ListHits(ctx, admin, hitlog.Filter{UserID: someoneElse})
	_ = a.ExportTransactions(ctx, admin, ledger.Filter{}, func(ledger.Entry) error { return nil })
}

func TestServiceRef(t *testing.T) {
	services := catalogmocks.NewMockRepository(t)
	a := panel.New(panel.Deps{Stores: store.Stores{Services: services}})
	ctx := context.Background()
	if id, err := a.ServiceRef(ctx, "service", "42"); err != nil || id != 42 {
		t.Fatalf("numeric ref: %d, %v", id, err)
	}
	services.EXPECT().BySlug(mock.Anything, "sms").Return(&catalog.Service{ID: 7}, nil).Once()
	if id, err := a.ServiceRef(ctx, "service", "sms"); err != nil || id != 7 {
		t.Fatalf("slug: %d, %v", id, err)
	}
	services.EXPECT().BySlug(mock.Anything, "nope").Return(nil, catalog.ErrServiceNotFound).Once()
	_, err := a.ServiceRef(ctx, "service", "nope")
	if e, ok := errs.As(err); !ok || e.Kind != errs.Invalid || len(e.Fields["service"]) == 0 {
		t.Fatalf("unknown slug: %v", err)
	}
}
