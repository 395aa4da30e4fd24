package money_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"paygate/core/accounts/user"
	"paygate/core/money/ledger"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
)

// A customer's balance request is decided by its reseller: approval is a
// transfer from the reseller in the transaction that approves it (402 and
// nothing written when the reseller is short); any other request is 404 to
// a reseller, and users cannot decide at all.
func TestResellerDecidesItsCustomersRequests(t *testing.T) {
	ctx := context.Background()
	parent := uint64(10)
	setup := func(t *testing.T, resellerBalance string) (*topUpFixture, *user.User) {
		f := newTopUpFixture(t)
		reseller := user.User{ID: 10, Role: user.RoleReseller, Status: user.StatusActive, Balance: dec(resellerBalance), TotalSpent: dec("0")}
		customer := user.User{ID: 12, ParentID: &parent, Role: user.RoleUser, Status: user.StatusActive, Balance: dec("1.00"), TotalSpent: dec("0")}
		other := user.User{ID: 20, Role: user.RoleReseller, Status: user.StatusActive, Balance: dec("900.00"), TotalSpent: dec("0")}
		f.db.Put(reseller, customer, other)
		f.pending(1) // the ordinary owner's (11)
		r := topup.Request{ID: 2, UserID: 12, Amount: dec("250.50"), UTRNumber: "512345678901", PaymentMethod: "upi",
			Status: topup.StatusPending, CreatedAt: f.now, UpdatedAt: f.now}
		f.db.Put(r)
		return f, &reseller
	}

	t.Run("approve", func(t *testing.T) {
		f, reseller := setup(t, "300.00")
		got, err := f.panel.ApproveTopUp(ctx, reseller, 2, "paid in cash")
		if err != nil || got.Status != topup.StatusApproved || *got.ApprovedBy != 10 {
			t.Fatalf("approve: %v %+v", err, got)
		}
		if r, c := f.db.User(10).Balance, f.db.User(12).Balance; !r.Equal(dec("49.50")) || !c.Equal(dec("251.50")) {
			t.Errorf("balances %s / %s", r, c)
		}
		trs := f.db.Transfers()
		if len(trs) != 1 || trs[0].BalanceRequestID == nil || *trs[0].BalanceRequestID != 2 || trs[0].ResellerID != 10 || trs[0].CustomerID != 12 {
			t.Errorf("transfers %+v", trs)
		}
		for _, e := range f.db.Entries() {
			if e.ReferenceType != ledger.RefTransfer || *e.ReferenceID != trs[0].ID {
				t.Errorf("entry %+v", e)
			}
		}
	})
	t.Run("reseller short", func(t *testing.T) {
		f, reseller := setup(t, "250.49")
		if _, err := f.panel.ApproveTopUp(ctx, reseller, 2, ""); !errors.Is(err, ledger.ErrInsufficientBalance) {
			t.Fatalf("approve: %v", err)
		}
		if r := f.request(t, 2); r.Status != topup.StatusPending {
			t.Errorf("request decided: %+v", r)
		}
		if len(f.db.Entries()) != 0 || len(f.db.Transfers()) != 0 {
			t.Error("rows written")
		}
	})
	t.Run("reject", func(t *testing.T) {
		f, reseller := setup(t, "0")
		if got, err := f.panel.RejectTopUp(ctx, reseller, 2, "no such payment"); err != nil || got.Status != topup.StatusRejected {
			t.Fatalf("reject: %v", err)
		}
	})
	t.Run("foreign", func(t *testing.T) {
		f, _ := setup(t, "300.00")
		other := f.db.User(20)
		for _, id := range []uint64{1, 2, 99} {
			if _, err := f.panel.ApproveTopUp(ctx, &other, id, ""); !errors.Is(err, topup.ErrNotFound) {
				t.Errorf("another reseller approves %d: %v", id, err)
			}
			if _, err := f.panel.RejectTopUp(ctx, &other, id, "x"); !errors.Is(err, topup.ErrNotFound) {
				t.Errorf("another reseller rejects %d: %v", id, err)
			}
		}
		reseller := f.db.User(10)
		if _, err := f.panel.ApproveTopUp(ctx, &reseller, 1, ""); !errors.Is(err, topup.ErrNotFound) {
			t.Errorf("a user's request: %v", err)
		}
		customer := f.db.User(12)
		if _, err := f.panel.ApproveTopUp(ctx, &customer, 2, ""); !errors.Is(err, errs.ErrForbidden) {
			t.Errorf("the customer approves its own: %v", err)
		}
		f.untouched(t, 1)
	})
	t.Run("read", func(t *testing.T) {
		f, reseller := setup(t, "0")
		name := "01JABCDEFGHJKMNPQRSTVWXYZ0.png"
		r := f.request(t, 2)
		r.Screenshot = &name
		f.db.Put(r)
		if got, err := f.panel.GetTopUp(ctx, reseller, 2); err != nil || got.ID != 2 {
			t.Fatalf("its customer's request: %v %+v", err, got)
		}
		f.files.EXPECT().Open(mock.Anything, name).Return(io.NopCloser(strings.NewReader("\x89PNG")), nil).Once()
		rc, typ, err := f.panel.TopUpScreenshot(ctx, reseller, 2)
		if err != nil || typ != topup.PNG {
			t.Fatalf("its customer's screenshot: %v %v", typ, err)
		}
		rc.Close()
		other := f.db.User(20)
		for _, id := range []uint64{1, 2} {
			if _, err := f.panel.GetTopUp(ctx, &other, id); !errors.Is(err, topup.ErrNotFound) {
				t.Errorf("another reseller reads %d: %v", id, err)
			}
			if _, _, err := f.panel.TopUpScreenshot(ctx, &other, id); !errors.Is(err, topup.ErrNotFound) {
				t.Errorf("another reseller's screenshot %d: %v", id, err)
			}
		}
		if _, err := f.panel.GetTopUp(ctx, reseller, 1); !errors.Is(err, topup.ErrNotFound) {
			t.Errorf("a user's request (not its customer): %v", err)
		}
	})
	t.Run("list", func(t *testing.T) {
		f, reseller := setup(t, "0")
		rows, n, err := f.panel.ListCustomerTopUps(ctx, reseller, topup.Filter{})
		if err != nil || n != 1 || rows[0].ID != 2 {
			t.Errorf("customers' requests: %v %d %+v", err, n, rows)
		}
		other := f.db.User(20)
		if _, n, _ := f.panel.ListCustomerTopUps(ctx, &other, topup.Filter{}); n != 0 {
			t.Errorf("another reseller sees %d", n)
		}
		u := f.db.User(11)
		if _, _, err := f.panel.ListCustomerTopUps(ctx, &u, topup.Filter{}); !errors.Is(err, errs.ErrForbidden) {
			t.Errorf("a user: %v", err)
		}
	})
}
