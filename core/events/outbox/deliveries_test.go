package outbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/events/outbox"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
	"paygate/core/platform/store/storetest"
)

func TestDeliveriesOfOthersAreNotFound(t *testing.T) {
	db := storetest.New()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	o := outbox.New(outbox.Deps{Tx: store.Narrow(db, outbox.TxStoresOf), Stores: outboxStores(db), Now: func() time.Time { return now }})
	e, _ := webhook.NewEvent(11, webhook.PaymentSuccess, map[string]int{"n": 1}, now.Add(-time.Hour))
	failed := webhook.NewDelivery(e, webhook.ToCallback, "https://merchant.example/cb")
	failed.Status, failed.Failures, failed.Attempts = webhook.StatusFailed, webhook.MaxAttempts, webhook.MaxAttempts
	e.ID, failed.ID, failed.EventID = 4, 8, 4
	db.Put(*e, *failed)
	theirs, _ := webhook.NewEvent(12, webhook.PaymentSuccess, map[string]int{"n": 2}, now.Add(-time.Hour))
	seedDelivery(db, theirs, webhook.ToCallback, "https://other.example/cb", 0, now)
	eleven := uint64(11)

	other := &user.User{ID: 12, Role: user.RoleUser}
	if _, err := o.GetDelivery(context.Background(), other, 8); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("get: %v", err)
	}
	if _, err := o.Redeliver(context.Background(), other, 8); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("redeliver: %v", err)
	}
	if d := delivery(t, db, 8); d.Status != webhook.StatusFailed {
		t.Fatalf("another user's redelivery changed the delivery: %+v", d)
	}
	// A user's list is their own, whatever user the filter names.
	ds, total, err := o.ListDeliveries(context.Background(), other, webhook.Filter{UserID: &eleven})
	if err != nil || total != 1 || len(ds) != 1 || ds[0].UserID != 12 {
		t.Fatalf("list = %+v, %d, %v", ds, total, err)
	}

	admin := &user.User{ID: 1, Role: user.RoleAdmin}
	if d, err := o.Redeliver(context.Background(), admin, 8); err != nil || d.Status != webhook.StatusPending {
		t.Fatalf("admin redeliver: %+v, %v", d, err)
	}
	if d := delivery(t, db, 8); d.Status != webhook.StatusPending || d.Failures != 0 || !d.NextAttemptAt.Equal(now) {
		t.Fatalf("redelivered: %+v", d)
	}
	got, err := o.GetDelivery(context.Background(), admin, 8)
	if err != nil || got.Event.ID != 4 || got.Delivery.ID != 8 {
		t.Fatalf("admin get: %+v, %v", got, err)
	}
}
