package outbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/outbox"
	"paygate/core/store"
	storemocks "paygate/core/store/mocks"
	"paygate/core/user"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
)

func TestDeliveriesOfOthersAreNotFound(t *testing.T) {
	hooks := webhookmocks.NewMockRepository(t)
	stores := store.Stores{Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, store.Stores) error) error { return fn(ctx, stores) }).Maybe()
	o := outbox.New(outbox.Deps{Tx: tx, Stores: stores})
	hooks.EXPECT().ByID(mock.Anything, uint64(8)).Return(&webhook.Delivery{ID: 8, UserID: 11, Status: webhook.StatusFailed}, nil)
	other := &user.User{ID: 12, Role: user.RoleUser}
	if _, err := o.GetDelivery(context.Background(), other, 8); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("get: %v", err)
	}
	if _, err := o.Redeliver(context.Background(), other, 8); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("redeliver: %v", err)
	}
	hooks.EXPECT().List(mock.Anything, mock.MatchedBy(func(f webhook.Filter) bool { return f.UserID != nil && *f.UserID == 12 })).Return(nil, 0, nil).Once()
	if _, _, err := o.ListDeliveries(context.Background(), other, webhook.Filter{}); err != nil {
		t.Fatal(err)
	}
	admin := &user.User{ID: 1, Role: user.RoleAdmin}
	hooks.EXPECT().Redeliver(mock.Anything, mock.MatchedBy(func(d *webhook.Delivery) bool {
		return d.ID == 8 && d.Status == webhook.StatusPending && d.Failures == 0
	})).Return(nil).Once()
	hooks.EXPECT().Redeliveries(mock.Anything, uint64(8), mock.Anything).Return(0, time.Time{}, nil).Once()
	hooks.EXPECT().RecordRedelivery(mock.Anything, uint64(8), uint64(1), mock.Anything).Return(nil).Once()
	if d, err := o.Redeliver(context.Background(), admin, 8); err != nil || d.Status != webhook.StatusPending {
		t.Fatalf("admin redeliver: %+v, %v", d, err)
	}
}
