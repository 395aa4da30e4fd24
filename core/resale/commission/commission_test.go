package commission_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/hold"
	"paygate/core/money/ledger"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
	"paygate/core/resale/commission"
	"paygate/core/resale/settlement"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var kolkata, _ = time.LoadLocation("Asia/Kolkata")

// world: reseller 1 (balance 100.00) with customers 2 and 3; reseller 5
// with customer 6; user 4 is nobody's customer. The settler runs with
// TIMEZONE Asia/Kolkata, whose hours begin at :30 UTC: its settlements
// are keyed by UTC hours all the same.
type world struct {
	db  *storetest.DB
	now time.Time
	n   int
}

func newWorld() *world {
	w := &world{db: storetest.New(), now: time.Date(2026, 11, 27, 12, 45, 0, 0, time.UTC)}
	one, five := uint64(1), uint64(5)
	w.db.Put(user.User{ID: 1, Role: user.RoleReseller, Status: user.StatusActive, Balance: dec("100.00"), TotalSpent: decimal.Zero},
		user.User{ID: 2, ParentID: &one, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("10"), TotalSpent: decimal.Zero},
		user.User{ID: 3, ParentID: &one, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("10"), TotalSpent: decimal.Zero},
		user.User{ID: 4, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("10"), TotalSpent: decimal.Zero},
		user.User{ID: 5, Role: user.RoleReseller, Status: user.StatusActive, Balance: dec("0"), TotalSpent: decimal.Zero},
		user.User{ID: 6, ParentID: &five, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("10"), TotalSpent: decimal.Zero})
	return w
}

func (w *world) hit(userID uint64, at time.Time, st hitlog.Status, commission string) uint64 {
	w.n++
	h := hitlog.Hit{UserID: userID, ServiceID: 1, APIKeyID: 1, RequestID: fmt.Sprintf("r%d", w.n), Status: st,
		Commission: dec(commission), CreatedAt: at, ChargeAmount: decimal.Zero, CostAmount: decimal.Zero, Reserved: decimal.Zero}
	if u := w.db.User(userID); u.ParentID != nil {
		h.ResellerID = u.ParentID
	}
	h.ID = uint64(w.n)
	w.db.Put(h)
	return h.ID
}

func (w *world) settler() *commission.Settler { return w.settlerIn(kolkata) }

func (w *world) settlerIn(loc *time.Location) *commission.Settler {
	return commission.New(commission.Deps{Tx: store.Narrow(w.db, commission.TxStoresOf), Reads: w.db.Stores().Commissions, Now: func() time.Time { return w.now },
		Config: commission.Config{Location: loc}})
}

// refund cancels hit id's commission as a refund of its charge does.
func (w *world) refund(t *testing.T, id uint64) settlement.Cancelled {
	t.Helper()
	var out settlement.Cancelled
	err := w.db.WithinTx(context.Background(), func(ctx context.Context, s store.Stores) (err error) {
		out, err = s.Commissions.CancelHit(ctx, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func (w *world) commissionCredits(userID uint64) []ledger.Entry {
	var out []ledger.Entry
	for _, e := range w.db.Entries() {
		if e.UserID == userID && e.ReferenceType == settlement.RefCommission {
			out = append(out, e)
		}
	}
	return out
}

func TestSettlesClosedUTCHoursOnce(t *testing.T) {
	w := newWorld()
	h := func(hh, mm int) time.Time { return time.Date(2026, 11, 27, hh, mm, 0, 0, time.UTC) }
	// The UTC hour 09:00–10:00 (14:30–15:30 IST: the TIMEZONE does not matter).
	w.hit(2, h(9, 0), hitlog.StatusSuccess, "0.25")
	w.hit(3, h(9, 59), hitlog.StatusSuccess, "0.50")
	w.hit(2, h(9, 30), hitlog.StatusFailed, "0")      // refunded: earns nothing
	w.hit(4, h(9, 30), hitlog.StatusSuccess, "0")     // nobody's customer
	w.hit(2, h(10, 0), hitlog.StatusSuccess, "1.00")  // 10:00–11:00
	w.hit(2, h(10, 30), hitlog.StatusPending, "0")    // ...whose hour waits on this
	w.hit(6, h(9, 45), hitlog.StatusSuccess, "0")     // reseller 5: zero-amount hour
	w.hit(2, h(12, 40), hitlog.StatusSuccess, "3.00") // 12:00–13:00: still open at 12:45 UTC

	res, err := w.settler().Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Settled != 1 || res.Waiting != 1 {
		t.Fatalf("run: %+v, want 1 settled, 1 waiting", res)
	}
	cr := w.commissionCredits(1)
	if len(cr) != 1 || cr[0].Type != ledger.Credit || !cr[0].Amount.Equal(dec("0.75")) || cr[0].ReferenceID == nil {
		t.Fatalf("credits %+v, want one of 0.75", cr)
	}
	if b := w.db.User(1).Balance; !b.Equal(dec("100.75")) {
		t.Fatalf("reseller's balance %s", b)
	}
	ss := w.db.Settlements()
	if len(ss) != 1 || ss[0].ID != *cr[0].ReferenceID || ss[0].Hits != 2 || !ss[0].HourStart.Equal(h(9, 0)) ||
		ss[0].TransactionID == nil || *ss[0].TransactionID != cr[0].ID {
		t.Fatalf("settlements %+v", ss)
	}
	if len(w.commissionCredits(5)) != 0 {
		t.Fatal("a zero-amount hour was credited")
	}

	// Again: nothing new. Then the pending hit is refunded: its hour settles.
	if res, err = w.settler().Run(context.Background()); err != nil || res.Settled != 0 {
		t.Fatalf("second run: %+v, %v", res, err)
	}
	for _, x := range w.db.Hits() {
		if x.Status == hitlog.StatusPending {
			x.Status = hitlog.StatusFailed
			w.db.Put(x)
		}
	}
	if res, err = w.settler().Run(context.Background()); err != nil || res.Settled != 1 {
		t.Fatalf("after the refund: %+v, %v", res, err)
	}
	if b := w.db.User(1).Balance; !b.Equal(dec("101.75")) {
		t.Fatalf("reseller's balance %s, want 101.75", b)
	}
	// The hour of 12:40 UTC closes at 13:00; settled 2 minutes later.
	w.now = h(13, 1)
	if res, _ = w.settler().Run(context.Background()); res.Settled != 0 {
		t.Fatalf("inside the grace: %+v", res)
	}
	w.now = h(13, 2)
	if res, _ = w.settler().Run(context.Background()); res.Settled != 1 {
		t.Fatalf("after the grace: %+v", res)
	}
}

func TestSettleBeforeSettlesAllHistoryOnce(t *testing.T) {
	w := newWorld()
	old := time.Date(2026, 1, 3, 4, 40, 0, 0, time.UTC) // far past the worker's lookback
	w.hit(2, old, hitlog.StatusSuccess, "0.40")
	w.hit(2, old.Add(72*time.Hour), hitlog.StatusSuccess, "0.60")
	if res, _ := w.settler().Run(context.Background()); res.Settled != 0 {
		t.Fatalf("the worker looked back too far: %+v", res)
	}
	res, err := w.settler().SettleBefore(context.Background(), old.Add(72*time.Hour))
	if err != nil || res.Settled != 1 {
		t.Fatalf("before the second hour's end: %+v, %v", res, err)
	}
	res, err = w.settler().SettleBefore(context.Background(), w.now)
	if err != nil || res.Settled != 1 {
		t.Fatalf("all: %+v, %v", res, err)
	}
	if b := w.db.User(1).Balance; !b.Equal(dec("101.00")) {
		t.Fatalf("reseller's balance %s, want 101.00", b)
	}
}

func TestRacingSettlersCreditEachHourOnce(t *testing.T) {
	w := newWorld()
	for i := range 30 {
		w.hit(uint64(2+i%2), w.now.Add(-time.Duration(i+1)*37*time.Minute), hitlog.StatusSuccess, "0.10")
	}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := w.settler()
			if i == 2 {
				_, _ = s.SettleBefore(context.Background(), w.now.Add(-commission.DefaultGrace))
			} else {
				_, _ = s.Run(context.Background())
			}
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	total := decimal.Zero
	for _, s := range w.db.Settlements() {
		if seen[s.HourStart.Unix()] {
			t.Fatalf("hour %s settled twice", s.HourStart)
		}
		seen[s.HourStart.Unix()] = true
		total = total.Add(s.Amount)
	}
	credited := decimal.Zero
	for _, e := range w.commissionCredits(1) {
		credited = credited.Add(e.Amount)
	}
	if !credited.Equal(total) || !w.db.User(1).Balance.Equal(dec("100").Add(total)) {
		t.Fatalf("credited %s, settled %s, balance %s", credited, total, w.db.User(1).Balance)
	}
}

// A customer's open hold taken before an hour closed holds that hour back:
// its calls write their hits after answering, dated when they started.
// Once it is released the hour settles, with the hits it wrote.
func TestOpenHoldHoldsItsHourBack(t *testing.T) {
	w := newWorld()
	h := func(hh, mm int) time.Time { return time.Date(2026, 11, 27, hh, mm, 0, 0, time.UTC) }
	w.hit(2, h(9, 40), hitlog.StatusSuccess, "0.25") // 09:00–10:00 UTC
	w.db.Put(hold.Hold{ID: 7, UserID: 3, KeyID: 1, Unit: dec("0.50"), Calls: 4, CreatedAt: h(9, 50), ExpiresAt: h(13, 0)})
	res, err := w.settler().Run(context.Background())
	if err != nil || res.Settled != 0 || res.Waiting != 1 {
		t.Fatalf("with the open hold: %+v, %v; want the hour waiting", res, err)
	}
	w.hit(3, h(9, 55), hitlog.StatusSuccess, "0.50") // the hold's call, written late
	if _, err := w.db.Stores().Holds.Delete(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	if res, err = w.settler().Run(context.Background()); err != nil || res.Settled != 1 {
		t.Fatalf("after the release: %+v, %v", res, err)
	}
	if cr := w.commissionCredits(1); len(cr) != 1 || !cr[0].Amount.Equal(dec("0.75")) {
		t.Fatalf("credits %+v, want one of 0.75", cr)
	}
}

// Issue 43 (8): settlers on instances with other TIMEZONEs (+05:30, UTC,
// -03:30) take turns over the same hits: every hour is keyed by its UTC
// start, every hit credited by exactly one settlement, in all once.
func TestSettlersInOtherTimezonesCreditEachHitOnce(t *testing.T) {
	w := newWorld()
	stJohns, err := time.LoadLocation("America/St_Johns")
	if err != nil {
		t.Fatal(err)
	}
	want := decimal.Zero
	for i := range 40 {
		w.hit(uint64(2+i%2), w.now.Add(-time.Duration(i+3)*23*time.Minute), hitlog.StatusSuccess, "0.10")
		want = want.Add(dec("0.10"))
	}
	for round := range 3 {
		for _, loc := range []*time.Location{kolkata, time.UTC, stJohns} {
			if _, err := w.settlerIn(loc).SettleBefore(context.Background(), w.now.Add(-commission.DefaultGrace)); err != nil {
				t.Fatal(err)
			}
		}
		w.now = w.now.Add(time.Duration(round+1) * 30 * time.Minute)
	}
	total := decimal.Zero
	for _, s := range w.db.Settlements() {
		if !s.HourStart.Equal(s.HourStart.Truncate(time.Hour)) || s.HourStart.Location() != time.UTC {
			t.Errorf("settlement %d keyed by %s, not a UTC hour", s.ID, s.HourStart)
		}
		total = total.Add(s.Amount)
	}
	for _, h := range w.db.Hits() {
		if h.CommissionSettlementID == nil {
			t.Errorf("hit %s of %s never credited", h.RequestID, h.CreatedAt)
		}
	}
	if !total.Equal(want) || !w.db.User(1).Balance.Equal(dec("100").Add(want)) {
		t.Fatalf("settled %s, balance %s; the hits earned %s", total, w.db.User(1).Balance, want)
	}
}

// Issue 43 (1): a refund before its hour is settled leaves the hit out;
// one after is debited back at the next run; one the reseller's balance
// cannot cover is taken as far as it goes and the rest carried forward,
// shown as due, until a later run can take it.
func TestRefundedCallsCommissionIsTakenBack(t *testing.T) {
	w := newWorld()
	h := func(hh, mm int) time.Time { return time.Date(2026, 11, 27, hh, mm, 0, 0, time.UTC) }
	early := w.hit(2, h(9, 10), hitlog.StatusSuccess, "0.40")
	w.hit(2, h(9, 20), hitlog.StatusSuccess, "0.60")
	big := w.hit(6, h(9, 30), hitlog.StatusSuccess, "2.0000") // reseller 5's customer
	if c := w.refund(t, early); !c.Amount.Equal(dec("0.40")) || c.SettlementID != nil {
		t.Fatalf("refund before settlement: %+v", c)
	}
	if _, err := w.settler().Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b := w.db.User(1).Balance; !b.Equal(dec("100.60")) {
		t.Fatalf("reseller 1's balance %s, want 100.60 (the refunded call left out)", b)
	}
	if b := w.db.User(5).Balance; !b.Equal(dec("2.00")) {
		t.Fatalf("reseller 5's balance %s", b)
	}
	// Reseller 5 spends all but 0.50, then its customer's call is refunded.
	r5 := w.db.User(5)
	r5.Balance = dec("0.50")
	w.db.Put(r5)
	if c := w.refund(t, big); !c.Amount.Equal(dec("2")) || c.SettlementID == nil {
		t.Fatalf("refund after settlement: %+v", c)
	}
	res, err := w.settler().Run(context.Background())
	if err != nil || !res.Reversed.Equal(dec("0.50")) {
		t.Fatalf("run: %+v, %v; want 0.50 reversed", res, err)
	}
	var s5 settlement.Settlement
	for _, s := range w.db.Settlements() {
		if s.ResellerID == 5 {
			s5 = s
		}
	}
	if !w.db.User(5).Balance.IsZero() || !s5.Reversed.Equal(dec("2")) || !s5.ReversalTaken.Equal(dec("0.50")) || !s5.Due().Equal(dec("1.50")) {
		t.Fatalf("after a reversal it could not cover: balance %s, settlement %+v", w.db.User(5).Balance, s5)
	}
	debits := 0
	for _, e := range w.commissionCredits(5) {
		if e.Type == ledger.Debit {
			debits++
			if *e.ReferenceID != s5.ID || !e.Amount.Equal(dec("0.50")) {
				t.Fatalf("reversal debit %+v", e)
			}
		}
	}
	if debits != 1 {
		t.Fatalf("%d reversal debits", debits)
	}
	// Nothing to take with a zero balance; then money arrives.
	if res, err = w.settler().Run(context.Background()); err != nil || !res.Reversed.IsZero() {
		t.Fatalf("run with nothing to take: %+v, %v", res, err)
	}
	r5 = w.db.User(5)
	r5.Balance = dec("10.00")
	w.db.Put(r5)
	if res, err = w.settler().Run(context.Background()); err != nil || !res.Reversed.Equal(dec("1.50")) {
		t.Fatalf("run: %+v, %v; want the 1.50 carried taken", res, err)
	}
	if b := w.db.User(5).Balance; !b.Equal(dec("8.50")) {
		t.Fatalf("reseller 5's balance %s, want 8.50", b)
	}
	if res, err = w.settler().Run(context.Background()); err != nil || !res.Reversed.IsZero() {
		t.Fatalf("a reversal taken twice: %+v, %v", res, err)
	}
}
