package metering_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	meteringmocks "paygate/core/metering/mocks"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/store/storetest"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fixture is a metered call's world: an in-memory store holding one
// service, one key, one user with a balance and one price, and a mocked
// upstream.
type fixture struct {
	db     *storetest.DB
	up     *meteringmocks.MockUpstream
	app    *metering.Metering
	svc    *catalog.Service
	key    *apikey.Key
	secret string
	user   *user.User
	now    time.Time
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{
		db: storetest.New(), up: meteringmocks.NewMockUpstream(t),
		now: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC), // 00:15 on the 22nd in Kolkata
	}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app = metering.New(metering.Deps{Tx: f.db, Stores: f.db.Stores(), Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})

	var k string
	k, f.secret = apikey.NewCredentials()
	f.svc = &catalog.Service{ID: 7, Slug: "sms", Method: "POST", ProviderURL: "https://up.example/sms", Status: catalog.StatusActive,
		Headers: map[string]string{"Authorization": "Bearer {provider_key}"}, ProviderKey: ptr("pk-123")}
	f.key = &apikey.Key{ID: 3, UserID: 11, Key: k, SecretHash: apikey.HashSecret(f.secret), Status: apikey.StatusActive, DailyLimit: 1000}
	f.user = &user.User{ID: 11, Role: user.RoleReseller, Status: user.StatusActive, Plan: user.PlanStarter, MonthlyCalls: user.Allowance(user.StarterMonthlyCalls), Balance: dec("10.00"), TotalSpent: dec("1.00")}
	f.db.Put(pricing.Price{ServiceID: 7, AdminCost: dec("0.4000"), UserPrice: dec("2.0000"), ResellerPrice: dec("1.2345"),
		MinimumHitCharge: dec("0.50"), Status: pricing.StatusActive})
	f.save()
	// Successful calls settle after their answer: before the mocks check
	// their expectations (cleanups run last in, first out), let them.
	t.Cleanup(func() { f.app.Wait() })
	return f
}

// save writes the fixture's service, key and user to the store, as a
// test changed them.
func (f *fixture) save() { f.db.Put(*f.svc, *f.key, *f.user) }

func ptr[T any](v T) *T { return &v }

func (f *fixture) input(body string) metering.CallInput {
	return metering.CallInput{RequestID: "req_TEST", Slug: "sms", Method: "POST", Key: f.key.Key, Secret: f.secret, IP: "203.0.113.9", Body: []byte(body)}
}

// stored is the user's row now.
func (f *fixture) stored() user.User { return f.db.User(11) }

// oneHit fails unless the store holds exactly one hit, and returns it.
func oneHit(t *testing.T, db *storetest.DB) hitlog.Hit {
	t.Helper()
	hs := db.Hits()
	if len(hs) != 1 {
		t.Fatalf("%d hits stored, want 1: %+v", len(hs), hs)
	}
	return hs[0]
}

// checkEntry fails unless e is a ledger row of type typ and amount for
// hit, moving the balance from before to after.
func checkEntry(t *testing.T, e ledger.Entry, typ ledger.Type, amount, before, after string, hit uint64) {
	t.Helper()
	if e.Type != typ || !e.Amount.Equal(dec(amount)) || !e.BalanceBefore.Equal(dec(before)) || !e.BalanceAfter.Equal(dec(after)) ||
		e.ReferenceType != ledger.RefAPIHit || e.ReferenceID == nil || *e.ReferenceID != hit {
		t.Fatalf("ledger row %+v, want %s %s (%s → %s) of hit %d", e, typ, amount, before, after, hit)
	}
}

// checkReserved checks what a reservation of charge left: the day counted
// on the key (local day in Asia/Kolkata, not UTC: 2026-11-22) and the
// monthly plan.
func (f *fixture) checkReserved(t *testing.T, calls int) {
	t.Helper()
	if k := f.db.Key(3); k.HitsToday != calls || k.HitsDate != "2026-11-22" {
		t.Fatalf("key counted %d on %q, want %d on 2026-11-22", k.HitsToday, k.HitsDate, calls)
	}
}

func TestCallServiceSuccessReservesThenSettles(t *testing.T) {
	f := newFixture(t)
	f.up.EXPECT().Do(mock.Anything, mock.MatchedBy(func(r metering.UpstreamRequest) bool {
		return r.Method == "POST" && r.URL == "https://up.example/sms" && r.Header.Get("Authorization") == "Bearer pk-123" && string(r.Body) == `{"phone":"9876543210"}`
	})).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"id":"x"}`)}, nil).Once()

	res, _, err := f.app.CallService(context.Background(), f.input(`{"phone":"9876543210"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Charged.Equal(dec("1.23")) || !res.BalanceLeft.Equal(dec("8.77")) || string(res.Data) != `{"id":"x"}` {
		t.Fatalf("%+v", res)
	}
	f.app.Wait()
	h := oneHit(t, f.db)
	if h.Status != hitlog.StatusSuccess || !h.ChargeAmount.Equal(dec("1.23")) || !h.Reserved.Equal(dec("1.23")) || h.RequestID != "req_TEST" ||
		h.ResponsePayload == nil || *h.ResponsePayload != `{"id":"x"}` ||
		!h.CostAmount.Equal(dec("0.4")) { // the price row's admin_cost, for the platform's margin
		t.Fatalf("hit %+v", h)
	}
	es := f.db.Entries()
	if len(es) != 1 {
		t.Fatalf("ledger %+v, want one debit", es)
	}
	checkEntry(t, es[0], ledger.Debit, "1.23", "10.00", "8.77", h.ID)
	if u := f.stored(); !u.Balance.Equal(dec("8.77")) || u.PlanCalls != 1 || u.PlanMonth != "2026-11" {
		t.Fatalf("user %+v", u)
	}
	f.checkReserved(t, 1)
}

// A successful call answers before its settlement is written; a settlement
// that then finds its hit no longer pending (crash recovery of another
// instance refunded it) changes nothing more: no second outcome, no refund.
func TestCallServiceSettledElsewhereChangesNothing(t *testing.T) {
	f := newFixture(t)
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	f.db.OnCall("Hits.FinishMany", func() error { // recovery got there first
		for _, h := range f.db.Hits() {
			h.Status = hitlog.StatusFailed
			f.db.Put(h)
		}
		return nil
	})
	if res, _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil || !res.Charged.Equal(dec("1.23")) {
		t.Fatalf("%+v, %v", res, err)
	}
	f.app.Wait()
	if h := oneHit(t, f.db); h.Status != hitlog.StatusFailed || !h.ChargeAmount.IsZero() {
		t.Fatalf("hit %+v, want recovery's outcome left as it was", h)
	}
	if es := f.db.Entries(); len(es) != 1 || es[0].Type != ledger.Debit {
		t.Fatalf("ledger %+v, want the reservation's debit alone", es)
	}
	if u := f.stored(); !u.Balance.Equal(dec("8.77")) {
		t.Fatalf("balance %s, want 8.77", u.Balance)
	}
}

func TestCallServiceUpstreamFailureRefunds(t *testing.T) {
	for name, up := range map[string]func(*meteringmocks.MockUpstream_Do_Call){
		"5xx": func(c *meteringmocks.MockUpstream_Do_Call) {
			c.Return(metering.UpstreamResponse{Status: 502, Body: []byte(`{"message":"down"}`)}, nil)
		},
		"timeout": func(c *meteringmocks.MockUpstream_Do_Call) {
			c.Return(metering.UpstreamResponse{}, errors.New("upstream timed out"))
		},
		"not json": func(c *meteringmocks.MockUpstream_Do_Call) {
			c.Return(metering.UpstreamResponse{Status: 200, Body: []byte(`<html>`)}, nil)
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			call := f.up.EXPECT().Do(mock.Anything, mock.Anything)
			call.Once()
			up(call)

			_, _, err := f.app.CallService(context.Background(), f.input(`{}`))
			if errs.KindOf(err) != errs.Upstream {
				t.Fatalf("error %v", err)
			}
			// The settlement: hit failed with charge 0, a refund row, the balance back.
			h := oneHit(t, f.db)
			if h.Status != hitlog.StatusFailed || !h.ChargeAmount.IsZero() || !h.CostAmount.IsZero() || h.ResponsePayload == nil {
				t.Fatalf("hit %+v", h)
			}
			es := f.db.Entries()
			if len(es) != 2 {
				t.Fatalf("ledger %+v, want debit and refund", es)
			}
			checkEntry(t, es[0], ledger.Debit, "1.23", "10.00", "8.77", h.ID)
			checkEntry(t, es[1], ledger.Refund, "1.23", "8.77", "10.00", h.ID)
			if u := f.stored(); !u.Balance.Equal(dec("10.00")) || u.PlanCalls != 0 || !u.TotalSpent.Equal(dec("1.00")) {
				t.Fatalf("user %+v", u)
			}
		})
	}
}

func TestCallServiceRejections(t *testing.T) {
	cases := []struct {
		name    string
		setup   func(f *fixture, in *metering.CallInput)
		want    error
		logged  hitlog.Status // "" = no hit log row
		batched bool          // decided by the reservation batch (after the daily counter)
		counted int           // the key's count for the day afterwards
	}{
		{"unknown slug", func(f *fixture, in *metering.CallInput) { in.Slug = "nope" }, catalog.ErrServiceNotFound, "", false, 0},
		{"inactive service", func(f *fixture, in *metering.CallInput) { f.svc.Status = catalog.StatusInactive }, catalog.ErrServiceNotFound, "", false, 0},
		{"wrong method", func(f *fixture, in *metering.CallInput) { in.Method = http.MethodGet }, metering.ErrMethodNotAllowed, "", false, 0},
		{"wrong secret", func(f *fixture, in *metering.CallInput) { in.Secret = "rs_nope" }, apikey.ErrInvalidCredentials, "", false, 0},
		{"revoked key", func(f *fixture, in *metering.CallInput) { f.key.Status = apikey.StatusRevoked }, apikey.ErrInvalidCredentials, "", false, 0},
		{"blocked owner", func(f *fixture, in *metering.CallInput) { f.user.Status = user.StatusBlocked }, user.ErrNotActive, "", false, 0},
		{"deleted owner", func(f *fixture, in *metering.CallInput) { f.user.DeletedAt = &f.now }, apikey.ErrInvalidCredentials, "", false, 0},
		{"ip", func(f *fixture, in *metering.CallInput) { f.key.AllowedIPs = "10.0.0.0/8" }, apikey.ErrIPNotAllowed, hitlog.StatusFailed, false, 0},
		{"service", func(f *fixture, in *metering.CallInput) { f.key.AllowedServices = []uint64{8} }, apikey.ErrServiceNotAllowed, hitlog.StatusFailed, false, 0},
		{"daily limit", func(f *fixture, in *metering.CallInput) {
			f.key.HitsToday, f.key.HitsDate = f.key.DailyLimit, "2026-11-22"
		}, apikey.ErrDailyLimit, hitlog.StatusFailed, true, 1000},
		{"daily limit before params", func(f *fixture, in *metering.CallInput) {
			f.svc.Parameters = map[string]string{"phone": "integer"}
			in.Body = []byte(`{"phone":"abc"}`)
			f.key.HitsToday, f.key.HitsDate = f.key.DailyLimit, "2026-11-22"
		}, apikey.ErrDailyLimit, hitlog.StatusFailed, true, 1000},
		{"params", func(f *fixture, in *metering.CallInput) {
			f.svc.Parameters = map[string]string{"phone": "integer"}
			in.Body = []byte(`{"phone":"abc"}`)
		}, errs.Validation(nil), hitlog.StatusFailed, true, 1},
		{"plan", func(f *fixture, in *metering.CallInput) {
			f.user.PlanMonth, f.user.PlanCalls = "2026-11", user.StarterMonthlyCalls
		}, metering.ErrPlanLimit, hitlog.StatusFailed, true, 1},
		{"balance", func(f *fixture, in *metering.CallInput) {
			f.user.Balance = dec("1.22")
		}, ledger.ErrInsufficientBalance, hitlog.StatusInsufficientBalance, true, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			in := f.input(`{}`)
			c.setup(f, &in)
			f.save()
			before := f.stored()
			// No upstream call in any of these: the strict mock fails the
			// test on one.
			_, _, err := f.app.CallService(context.Background(), in)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			hs := f.db.Hits()
			if c.logged == "" && len(hs) != 0 {
				t.Fatalf("hits %+v, want none", hs)
			}
			if c.logged != "" {
				h := oneHit(t, f.db)
				if h.Status != c.logged || !h.ChargeAmount.IsZero() || !h.Reserved.IsZero() || h.ResponsePayload == nil || h.UserID != 11 || h.APIKeyID != 3 {
					t.Fatalf("hit %+v", h)
				}
			}
			// No debit, no balance change; only the batch counts the call.
			if es := f.db.Entries(); len(es) != 0 {
				t.Fatalf("ledger %+v, want none", es)
			}
			if u := f.stored(); !u.Balance.Equal(before.Balance) || u.PlanCalls != before.PlanCalls {
				t.Fatalf("user %+v, was %+v", u, before)
			}
			if k := f.db.Key(3); k.HitsToday != c.counted || (c.batched && k.HitsDate != "2026-11-22") {
				t.Fatalf("key counted %d on %q, want %d (batched %v)", k.HitsToday, k.HitsDate, c.counted, c.batched)
			}
		})
	}
}
