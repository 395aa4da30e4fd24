package mysqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/mysqlstore"
	"paygate/core/app"
	"paygate/core/hitlog"
	"paygate/core/ledger"
	"paygate/core/user"
	"paygate/internal/testdb"
)

// WithinBatchTx (the metering writer's transactions; on MySQL the ledger
// rows and balances travel with the COMMIT) commits and rolls back like
// WithinTx: a statement after a deferred write sees it, a failed function
// or a deferred write the database refuses leaves nothing behind, and the
// pool's sessions stay usable (no transaction left open on them).
func TestWithinBatchTx(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *mysqlstore.Store) {
		ctx := context.Background()
		svc := newService(t, s)
		funded := func() *user.User {
			return newUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("10.00") })
		}
		entry := func(u *user.User, desc string) *ledger.Entry {
			after := u.Balance.Sub(decimal.RequireFromString("1.00"))
			e := &ledger.Entry{UserID: u.ID, TxnID: ledger.NewTxnID(time.Now()), Type: ledger.Debit,
				Amount: decimal.RequireFromString("1.00"), BalanceBefore: u.Balance, BalanceAfter: after, ReferenceType: ledger.RefAPIHit,
				Description: desc, Status: "completed", CreatedAt: time.Now().UTC()}
			u.Balance = after
			return e
		}
		// debit locks u, inserts a pending hit and a ledger row, saves the
		// balance, then runs then (nil: nothing more).
		debit := func(u *user.User, desc string, then func(ctx context.Context, st app.Stores, locked *user.User) error) (*hitlog.Hit, error) {
			k := newKey(t, s, u)
			h := batchHit(u.ID, svc.ID, k.ID, hitlog.StatusPending, `{}`)
			err := s.WithinBatchTx(ctx, func(ctx context.Context, st app.Stores) error {
				locked, err := st.Users.LockByID(ctx, u.ID)
				if err != nil {
					return err
				}
				if err := st.Hits.InsertMany(ctx, []*hitlog.Hit{h}); err != nil {
					return err
				}
				e := entry(locked, desc)
				e.ReferenceID = &h.ID
				if err := st.Ledger.InsertMany(ctx, []*ledger.Entry{e}); err != nil {
					return err
				}
				if err := st.Users.SaveBalance(ctx, locked); err != nil {
					return err
				}
				if then != nil {
					return then(ctx, st, locked)
				}
				return nil
			})
			return h, err
		}
		ledgerRows := func(u *user.User) int {
			n := 0
			if err := s.Stores().Ledger.ForEachByUser(ctx, u.ID, func(ledger.Entry) error { n++; return nil }); err != nil {
				t.Fatal(err)
			}
			return n
		}
		balance := func(u *user.User) string {
			got, err := s.Stores().Users.ByID(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got.Balance.StringFixed(2)
		}

		t.Run("commit, and a later statement sees the deferred writes", func(t *testing.T) {
			u := funded()
			start := balance(u)
			h, err := debit(u, "committed", func(ctx context.Context, st app.Stores, locked *user.User) error {
				got, err := st.Users.ByID(ctx, u.ID)
				if err != nil {
					return err
				}
				if !got.Balance.Equal(locked.Balance) {
					return fmt.Errorf("read in the transaction: balance %s, want %s", got.Balance, locked.Balance)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			want := decimal.RequireFromString(start).Sub(decimal.RequireFromString("1.00")).StringFixed(2)
			if got := balance(u); got != want || ledgerRows(u) != 1 {
				t.Fatalf("balance %s (want %s), %d ledger rows", got, want, ledgerRows(u))
			}
			if _, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("an error rolls everything back", func(t *testing.T) {
			u := funded()
			start := balance(u)
			boom := errors.New("boom")
			h, err := debit(u, "rolled back", func(context.Context, app.Stores, *user.User) error { return boom })
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v", err)
			}
			if got := balance(u); got != start || ledgerRows(u) != 0 {
				t.Fatalf("balance %s (want %s), %d ledger rows", got, start, ledgerRows(u))
			}
			if _, err := s.Stores().Hits.ByRequestID(ctx, h.RequestID); err == nil {
				t.Fatal("the rolled back hit exists")
			}
		})

		t.Run("a deferred write the database refuses rolls back", func(t *testing.T) {
			u := funded()
			start := balance(u)
			_, err := debit(u, "refused", func(ctx context.Context, st app.Stores, locked *user.User) error {
				locked.Balance = decimal.RequireFromString("-1.00") // the CHECK refuses it (on MySQL at the COMMIT)
				return st.Users.SaveBalance(ctx, locked)
			})
			if err == nil {
				t.Fatal("no error for a negative balance")
			}
			if got := balance(u); got != start || ledgerRows(u) != 0 {
				t.Fatalf("balance %s (want %s), %d ledger rows", got, start, ledgerRows(u))
			}
		})

		t.Run("a user not locked here is saved at once", func(t *testing.T) {
			u := funded()
			_, err := debit(u, "ghost", func(ctx context.Context, st app.Stores, _ *user.User) error {
				return st.Users.SaveBalance(ctx, &user.User{ID: 1 << 40, Balance: decimal.RequireFromString("1.00")})
			})
			if !errors.Is(err, user.ErrNotFound) {
				t.Fatalf("err = %v, want not found", err)
			}
			if ledgerRows(u) != 0 {
				t.Fatal("committed")
			}
		})

		t.Run("the sessions stay clean", func(t *testing.T) {
			for i := 0; i < 5; i++ { // more uses than the pool has connections
				u := funded()
				if _, err := debit(u, "again", nil); err != nil {
					t.Fatal(err)
				}
				if ledgerRows(u) != 1 {
					t.Fatalf("use %d: not committed", i)
				}
			}
		})
	})
}
