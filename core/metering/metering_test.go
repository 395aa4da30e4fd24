package metering_test

import (
	"context"
	"errors"
	"net/http"
	"paygate/core/metering"
	meteringmocks "paygate/core/metering/mocks"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/stretchr/testify/mock"

	"paygate/core/apikey"
	apikeymocks "paygate/core/apikey/mocks"
	"paygate/core/catalog"
	catalogmocks "paygate/core/catalog/mocks"
	"paygate/core/errs"
	"paygate/core/hitlog"
	hitmocks "paygate/core/hitlog/mocks"
	holdmocks "paygate/core/hold/mocks"
	"paygate/core/ledger"
	ledgermocks "paygate/core/ledger/mocks"
	"paygate/core/pricing"
	pricingmocks "paygate/core/pricing/mocks"
	"paygate/core/user"
	usermocks "paygate/core/user/mocks"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// fixture is a metered call's world made of mocks: one service, one key,
// one user with a balance, one price.
type fixture struct {
	tx       *storemocks.MockTransactor
	up       *meteringmocks.MockUpstream
	users    *usermocks.MockRepository
	keys     *apikeymocks.MockRepository
	services *catalogmocks.MockRepository
	prices   *pricingmocks.MockRepository
	ledger   *ledgermocks.MockRepository
	hits     *hitmocks.MockRepository
	holds    *holdmocks.MockRepository
	app      *metering.Metering
	svc      *catalog.Service
	key      *apikey.Key
	secret   string
	user     *user.User
	now      time.Time
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{
		tx: storemocks.NewMockTransactor(t), up: meteringmocks.NewMockUpstream(t),
		users: usermocks.NewMockRepository(t), keys: apikeymocks.NewMockRepository(t),
		services: catalogmocks.NewMockRepository(t), prices: pricingmocks.NewMockRepository(t),
		ledger: ledgermocks.NewMockRepository(t), hits: hitmocks.NewMockRepository(t), holds: holdmocks.NewMockRepository(t),
		now: time.Date(2026, 11, 21, 18, 45, 0, 0, time.UTC), // 00:15 on the 22nd in Kolkata
	}
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits, Holds: f.holds}
	f.holds.EXPECT().Expired(mock.Anything, mock.Anything, mock.Anything).Return(nil, nil).Maybe() // no hold left open
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app = metering.New(metering.Deps{Tx: f.tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
	var txMu sync.Mutex // one transaction at a time, as the row locks of a real database would order them
	f.tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error {
			txMu.Lock()
			defer txMu.Unlock()
			return fn(ctx, stores)
		}).Maybe()

	var k string
	k, f.secret = apikey.NewCredentials()
	f.svc = &catalog.Service{ID: 7, Slug: "sms", Method: "POST", ProviderURL: "https://up.example/sms", Status: catalog.StatusActive,
		Headers: map[string]string{"Authorization": "Bearer {provider_key}"}, ProviderKey: ptr("pk-123")}
	f.key = &apikey.Key{ID: 3, UserID: 11, Key: k, SecretHash: apikey.HashSecret(f.secret), Status: apikey.StatusActive, DailyLimit: 1000}
	f.user = &user.User{ID: 11, Role: user.RoleReseller, Status: user.StatusActive, Plan: user.PlanStarter, Balance: dec("10.00"), TotalSpent: dec("1.00")}
	f.services.EXPECT().BySlug(mock.Anything, "sms").Return(f.svc, nil).Maybe()
	f.keys.EXPECT().ByKey(mock.Anything, k).Return(f.key, nil).Maybe()
	f.users.EXPECT().ByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Maybe()
	f.prices.EXPECT().Applicable(mock.Anything, uint64(7), uint64(11)).Return(&pricing.Price{
		AdminCost: dec("0.4000"), UserPrice: dec("2.0000"), ResellerPrice: dec("1.2345"), MinimumHitCharge: dec("0.50"), Status: pricing.StatusActive}, nil).Maybe()
	f.services.EXPECT().Doc(mock.Anything, uint64(7)).Return(nil, catalog.ErrDocNotFound).Maybe()
	// Successful calls settle after their answer: before the mocks check
	// their expectations (cleanups run last in, first out), let them.
	t.Cleanup(func() { f.app.Wait() })
	return f
}

func ptr[T any](v T) *T { return &v }

func (f *fixture) input(body string) metering.CallInput {
	return metering.CallInput{RequestID: "req_TEST", Slug: "sms", Method: "POST", Key: f.key.Key, Secret: f.secret, IP: "203.0.113.9", Body: []byte(body)}
}

// expectReserve expects the reservation batch of one call: lock, daily
// counter, pending hit, debit, save.
func (f *fixture) expectReserve(t *testing.T, charge string) {
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
		u := *f.user
		return &u, nil
	}).Once()
	// Local day in Asia/Kolkata, not UTC: 2026-11-22.
	f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 1, mock.Anything).Return(1, nil).Once()
	f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		return len(hs) == 1 && hs[0].Status == hitlog.StatusPending && hs[0].Reserved.Equal(dec(charge)) && hs[0].RequestID == "req_TEST"
	})).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID = 99; return nil }).Once()
	f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
		e := es[0]
		return len(es) == 1 && e.Type == ledger.Debit && e.Amount.Equal(dec(charge)) && e.BalanceBefore.Equal(dec("10.00")) &&
			e.BalanceAfter.Equal(dec("10.00").Sub(dec(charge))) && e.ReferenceType == "api_hit" && *e.ReferenceID == 99
	})).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
		return u.Balance.Equal(dec("10.00").Sub(dec(charge))) && u.PlanCalls == 1 && u.PlanMonth == "2026-11"
	})).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
}

func TestCallServiceSuccessReservesThenSettles(t *testing.T) {
	f := newFixture(t)
	f.expectReserve(t, "1.23")
	f.up.EXPECT().Do(mock.Anything, mock.MatchedBy(func(r metering.UpstreamRequest) bool {
		return r.Method == "POST" && r.URL == "https://up.example/sms" && r.Header.Get("Authorization") == "Bearer pk-123" && string(r.Body) == `{"phone":"9876543210"}`
	})).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{"id":"x"}`)}, nil).Once()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
		h := hs[0]
		return len(hs) == 1 && h.ID == 99 && h.Status == hitlog.StatusSuccess && h.ChargeAmount.Equal(dec("1.23")) && *h.ResponsePayload == `{"id":"x"}` &&
			h.CostAmount.Equal(dec("0.4")) // the price row's admin_cost, for the platform's margin
	})).Return([]bool{true}, nil).Once()

	res, err := f.app.CallService(context.Background(), f.input(`{"phone":"9876543210"}`))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Charged.Equal(dec("1.23")) || !res.BalanceLeft.Equal(dec("8.77")) || string(res.Data) != `{"id":"x"}` {
		t.Fatalf("%+v", res)
	}
}

// A successful call answers before its settlement is written; a settlement
// that then finds its hit no longer pending (crash recovery of another
// instance refunded it) changes nothing more: no second outcome, no refund
// (the strict mocks would fail on any other write).
func TestCallServiceSettledElsewhereChangesNothing(t *testing.T) {
	f := newFixture(t)
	f.expectReserve(t, "1.23")
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil).Once()
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{false}, nil).Once()
	if res, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil || !res.Charged.Equal(dec("1.23")) {
		t.Fatalf("%+v, %v", res, err)
	}
	f.app.Wait()
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
			f.expectReserve(t, "1.23")
			call := f.up.EXPECT().Do(mock.Anything, mock.Anything)
			call.Once()
			up(call)
			// The settlement batch: lock, hit failed with charge 0, refund row, save.
			f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
				u := *f.user
				return &u, nil
			}).Once()
			f.hits.EXPECT().FinishMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool {
				h := hs[0]
				return len(hs) == 1 && h.Status == hitlog.StatusFailed && h.ChargeAmount.IsZero() && h.CostAmount.IsZero() && h.ResponsePayload != nil
			})).Return([]bool{true}, nil).Once()
			f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
				e := es[0]
				return len(es) == 1 && e.Type == ledger.Refund && e.Amount.Equal(dec("1.23")) && e.BalanceBefore.Equal(dec("8.77")) && e.BalanceAfter.Equal(dec("10.00")) && *e.ReferenceID == 99
			})).Return(nil).Once()
			f.users.EXPECT().SaveBalance(mock.Anything, mock.MatchedBy(func(u *user.User) bool {
				return u.Balance.Equal(dec("10.00")) && u.PlanCalls == 0 && u.TotalSpent.Equal(dec("1.00"))
			})).Return(nil).Once()

			_, err := f.app.CallService(context.Background(), f.input(`{}`))
			if errs.KindOf(err) != errs.Upstream {
				t.Fatalf("error %v", err)
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
		batched bool          // logged by the reservation batch (after the daily counter)
	}{
		{"unknown slug", func(f *fixture, in *metering.CallInput) {
			f.services.EXPECT().BySlug(mock.Anything, "nope").Return(nil, catalog.ErrServiceNotFound)
			in.Slug = "nope"
		}, catalog.ErrServiceNotFound, "", false},
		{"inactive service", func(f *fixture, in *metering.CallInput) { f.svc.Status = catalog.StatusInactive }, catalog.ErrServiceNotFound, "", false},
		{"wrong method", func(f *fixture, in *metering.CallInput) { in.Method = http.MethodGet }, metering.ErrMethodNotAllowed, "", false},
		{"wrong secret", func(f *fixture, in *metering.CallInput) { in.Secret = "rs_nope" }, apikey.ErrInvalidCredentials, "", false},
		{"revoked key", func(f *fixture, in *metering.CallInput) { f.key.Status = apikey.StatusRevoked }, apikey.ErrInvalidCredentials, "", false},
		{"blocked owner", func(f *fixture, in *metering.CallInput) { f.user.Status = user.StatusBlocked }, user.ErrNotActive, "", false},
		{"deleted owner", func(f *fixture, in *metering.CallInput) { f.user.DeletedAt = &f.now }, apikey.ErrInvalidCredentials, "", false},
		{"ip", func(f *fixture, in *metering.CallInput) { f.key.AllowedIPs = "10.0.0.0/8" }, apikey.ErrIPNotAllowed, hitlog.StatusFailed, false},
		{"service", func(f *fixture, in *metering.CallInput) { f.key.AllowedServices = []uint64{8} }, apikey.ErrServiceNotAllowed, hitlog.StatusFailed, false},
		{"daily limit", func(f *fixture, in *metering.CallInput) {
			f.keys.EXPECT().CountHits(mock.Anything, uint64(3), mock.Anything, 1, mock.Anything).Return(0, nil)
		}, apikey.ErrDailyLimit, hitlog.StatusFailed, true},
		{"daily limit before params", func(f *fixture, in *metering.CallInput) {
			f.svc.Parameters = map[string]string{"phone": "integer"}
			in.Body = []byte(`{"phone":"abc"}`)
			f.keys.EXPECT().CountHits(mock.Anything, uint64(3), mock.Anything, 1, mock.Anything).Return(0, nil)
		}, apikey.ErrDailyLimit, hitlog.StatusFailed, true},
		{"params", func(f *fixture, in *metering.CallInput) {
			f.svc.Parameters = map[string]string{"phone": "integer"}
			in.Body = []byte(`{"phone":"abc"}`)
			f.keys.EXPECT().CountHits(mock.Anything, uint64(3), mock.Anything, 1, mock.Anything).Return(1, nil)
		}, errs.Validation(nil), hitlog.StatusFailed, true},
		{"plan", func(f *fixture, in *metering.CallInput) {
			f.user.PlanMonth, f.user.PlanCalls = "2026-11", user.StarterMonthlyCalls
			f.keys.EXPECT().CountHits(mock.Anything, uint64(3), mock.Anything, 1, mock.Anything).Return(1, nil)
		}, metering.ErrPlanLimit, hitlog.StatusFailed, true},
		{"balance", func(f *fixture, in *metering.CallInput) {
			f.user.Balance = dec("1.22")
			f.keys.EXPECT().CountHits(mock.Anything, uint64(3), mock.Anything, 1, mock.Anything).Return(1, nil)
		}, ledger.ErrInsufficientBalance, hitlog.StatusInsufficientBalance, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			in := f.input(`{}`)
			c.setup(f, &in)
			logged := func(h *hitlog.Hit) bool {
				return h.Status == c.logged && h.ChargeAmount.IsZero() && h.Reserved.IsZero() && h.ResponsePayload != nil && h.UserID == 11 && h.APIKeyID == 3
			}
			switch {
			case c.batched:
				// The batch locks the owner, counts, and logs the refusal; no debit, no save.
				f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) { u := *f.user; return &u, nil }).Once()
				f.hits.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(hs []*hitlog.Hit) bool { return len(hs) == 1 && logged(hs[0]) })).Return(nil).Once()
			case c.logged != "":
				f.hits.EXPECT().Insert(mock.Anything, mock.MatchedBy(logged)).Return(nil).Once()
			}
			// No upstream call, no ledger row in any of these: the strict
			// mocks fail the test on any unexpected call.
			_, err := f.app.CallService(context.Background(), in)
			if !errors.Is(err, c.want) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
		})
	}
}
