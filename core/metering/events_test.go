package metering_test

import (
	"context"
	"encoding/json"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/metering"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
)

// A metered call that takes the balance below the threshold writes one
// balance.low event in its batch's transaction; the next call, below
// already, writes none (the mock fails on a second Insert).
func TestMeteredCallCrossingThresholdWritesBalanceLowOnce(t *testing.T) {
	f := newFixture(t)
	hooks := webhookmocks.NewMockRepository(t)
	stores := store.Stores{Users: f.users, Keys: f.keys, Services: f.services, Pricing: f.prices, Ledger: f.ledger, Hits: f.hits, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) })
	loc, _ := time.LoadLocation("Asia/Kolkata")
	f.app = metering.New(metering.Deps{Tx: tx, Stores: stores, Upstream: f.up, Now: func() time.Time { return f.now }, Config: metering.Config{Location: loc}})
	alert, hook := dec("9.00"), "https://merchant.example/hooks"
	f.user.LowBalanceAlert, f.user.WebhookURL = &alert, &hook

	hooks.EXPECT().Insert(mock.Anything, mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, e *webhook.Event, ds []*webhook.Delivery) error {
		var body struct {
			Type string         `json:"type"`
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal(e.Payload, &body); err != nil {
			t.Fatal(err)
		}
		if e.Type != webhook.BalanceLow || body.Data["balance"] != "8.77" || body.Data["threshold"] != "9.00" ||
			len(ds) != 1 || ds[0].Destination != webhook.ToWebhook || ds[0].URL != hook {
			t.Fatalf("event %s %s, deliveries %+v", e.Type, e.Payload, ds)
		}
		return nil
	}).Once()
	f.up.EXPECT().Do(mock.Anything, mock.Anything).Return(metering.UpstreamResponse{Status: 200, Body: []byte(`{}`)}, nil)
	f.hits.EXPECT().FinishMany(mock.Anything, mock.Anything).Return([]bool{true}, nil)
	for _, before := range []string{"10.00", "8.77"} {
		f.users.EXPECT().LockByID(mock.Anything, uint64(11)).RunAndReturn(func(context.Context, uint64) (*user.User, error) {
			u := *f.user
			return &u, nil
		}).Once()
		f.keys.EXPECT().CountHits(mock.Anything, uint64(3), "2026-11-22", 1, mock.Anything).Return(1, nil).Once()
		f.hits.EXPECT().InsertMany(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, hs []*hitlog.Hit) error { hs[0].ID = 99; return nil }).Once()
		f.ledger.EXPECT().InsertMany(mock.Anything, mock.MatchedBy(func(es []*ledger.Entry) bool {
			return es[0].BalanceBefore.Equal(dec(before))
		})).Return(nil).Once()
		f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).RunAndReturn(func(_ context.Context, u *user.User) error { *f.user = *u; return nil }).Once()
		if _, err := f.app.CallService(context.Background(), f.input(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
}
