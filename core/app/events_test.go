package app_test

// The events use cases write to the outbox with their change; their
// delivery is tested in core/outbox.

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/app"
	storemocks "paygate/core/store/mocks"
	"paygate/core/webhook"
	webhookmocks "paygate/core/webhook/mocks"
)

func TestDecidedTopUpWritesItsEvent(t *testing.T) {
	ctx := context.Background()
	f := newTopUpFixture(t)
	hooks := webhookmocks.NewMockRepository(t)
	stores := app.Stores{Users: f.users, Ledger: f.ledger, TopUps: f.topups, Audit: f.audit, Webhooks: hooks}
	tx := storemocks.NewMockTransactor(t)
	tx.EXPECT().WithinTx(mock.Anything, mock.Anything).RunAndReturn(
		func(ctx context.Context, fn func(context.Context, app.Stores) error) error { return fn(ctx, stores) })
	f.app = app.New(app.Deps{Tx: tx, Stores: stores, Now: func() time.Time { return f.now }})
	hook := "https://merchant.example/hooks"
	f.owner.WebhookURL = &hook

	f.topups.EXPECT().ByID(mock.Anything, uint64(5)).Return(f.pending(5), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().ByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool {
		return e.Type == webhook.BalanceRequestRejected && e.UserID == 11
	}), mock.MatchedBy(func(ds []*webhook.Delivery) bool { return len(ds) == 1 && ds[0].URL == hook })).Return(nil).Once()
	if _, err := f.app.RejectTopUp(ctx, f.admin, 5, "no such transfer"); err != nil {
		t.Fatal(err)
	}

	// The outbox refusing the row rolls the decision back with it.
	f.topups.EXPECT().ByID(mock.Anything, uint64(6)).Return(f.pending(6), nil).Once()
	f.topups.EXPECT().Decide(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().LockByID(mock.Anything, uint64(11)).Return(f.owner, nil).Once()
	f.ledger.EXPECT().Insert(mock.Anything, mock.Anything).Return(nil).Once()
	f.users.EXPECT().SaveBalance(mock.Anything, mock.Anything).Return(nil).Once()
	boom := errors.New("disk full")
	hooks.EXPECT().Insert(mock.Anything, mock.MatchedBy(func(e *webhook.Event) bool { return e.Type == webhook.BalanceRequestApproved }),
		mock.Anything).Return(boom).Once()
	if _, err := f.app.ApproveTopUp(ctx, f.admin, 6, ""); !errors.Is(err, boom) {
		t.Fatalf("approve: %v", err)
	}
}
