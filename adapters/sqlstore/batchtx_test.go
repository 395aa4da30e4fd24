package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"paygate/core/metering"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/internal/testdb"
)

// WithinBatchTx (the metering writer's transactions; on MySQL the ledger
// rows and balances travel with the COMMIT) commits and rolls back like
// WithinTx: a statement after a deferred write sees it, a failed function
// or a deferred write the database refuses leaves nothing behind, and the
// pool's sessions stay usable (no transaction left open on them).
func TestWithinBatchTx(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		svc := sqltest.NewService(t, s)
		funded := func() *user.User {
			return sqltest.NewUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("10.00") })
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
		debit := func(u *user.User, desc string, then func(ctx context.Context, st metering.TxStores, locked *user.User) error) (*hitlog.Hit, error) {
			k := sqltest.NewKey(t, s, u)
			h := sqltest.BatchHit(u.ID, svc.ID, k.ID, hitlog.StatusPending, `{}`)
			err := s.WithinBatchTx(ctx, func(ctx context.Context, st metering.BatchStores) error {
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
					return then(ctx, st.TxStores, locked)
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
			h, err := debit(u, "committed", func(ctx context.Context, st metering.TxStores, locked *user.User) error {
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
			h, err := debit(u, "rolled back", func(context.Context, metering.TxStores, *user.User) error { return boom })
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
			_, err := debit(u, "refused", func(ctx context.Context, st metering.TxStores, locked *user.User) error {
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
			_, err := debit(u, "ghost", func(ctx context.Context, st metering.TxStores, _ *user.User) error {
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

// BatchLocks (MySQL's batch transactions) locks the users and counts the
// keys' calls like LockByID and CountHits: all calls while they fit, then
// what is left under the limit, none for a key that is gone; a missing
// user fails.
func TestBatchLocksLockAndCount(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u1 := sqltest.NewUser(t, s, func(u *user.User) { u.Balance = decimal.RequireFromString("7.00") })
		u2 := sqltest.NewUser(t, s)
		k1 := sqltest.NewKey(t, s, u1, func(k *apikey.Key) { k.DailyLimit = 5 })
		k2 := sqltest.NewKey(t, s, u2, func(k *apikey.Key) { k.DailyLimit = 100 })
		day, at := "2026-11-21", time.Now().UTC()
		lockAndCount := func(userIDs []uint64, counts []metering.KeyCount) (map[uint64]*user.User, []int, error) {
			var (
				users   map[uint64]*user.User
				granted []int
			)
			err := s.WithinBatchTx(ctx, func(ctx context.Context, st metering.BatchStores) (err error) {
				if st.Locks == nil { // SQLite: the core locks and counts statement by statement
					users = map[uint64]*user.User{}
					for _, id := range userIDs {
						if users[id], err = st.Users.LockByID(ctx, id); err != nil {
							return err
						}
					}
					for _, c := range counts {
						g, err := st.Keys.CountHits(ctx, c.KeyID, c.Day, c.N, at)
						if err != nil && !errors.Is(err, apikey.ErrNotFound) {
							return err
						}
						granted = append(granted, g)
					}
					return nil
				}
				users, granted, err = st.Locks.LockAndCount(ctx, userIDs, counts, at)
				return err
			})
			return users, granted, err
		}
		users, granted, err := lockAndCount([]uint64{u1.ID, u2.ID}, []metering.KeyCount{{KeyID: k1.ID, Day: day, N: 3}, {KeyID: k2.ID, Day: day, N: 4}})
		if err != nil {
			t.Fatal(err)
		}
		if users[u1.ID].Balance.StringFixed(2) != "7.00" || users[u2.ID].ID != u2.ID || fmt.Sprint(granted) != "[3 4]" {
			t.Fatalf("users %v, granted %v", users, granted)
		}
		// k1 has 2 calls left today; a key that is gone grants none.
		_, granted, err = lockAndCount([]uint64{u1.ID}, []metering.KeyCount{{KeyID: k1.ID, Day: day, N: 3}, {KeyID: 1 << 40, Day: day, N: 1}})
		if err != nil || fmt.Sprint(granted) != "[2 0]" {
			t.Fatalf("near the limit: %v %v", granted, err)
		}
		// A new day starts from zero.
		_, granted, err = lockAndCount([]uint64{u1.ID}, []metering.KeyCount{{KeyID: k1.ID, Day: "2026-11-22", N: 5}})
		if err != nil || fmt.Sprint(granted) != "[5]" {
			t.Fatalf("new day: %v %v", granted, err)
		}
		if _, _, err := lockAndCount([]uint64{u1.ID, 1 << 40}, nil); !errors.Is(err, user.ErrNotFound) {
			t.Fatalf("missing user: %v", err)
		}
		// The balance of a user locked there is deferred to the COMMIT:
		// SaveBalance itself does not see the CHECK refuse it.
		var (
			saveErr error
			none    bool
		)
		err = s.WithinBatchTx(ctx, func(ctx context.Context, st metering.BatchStores) error {
			if none = s.Dialect() != sqlstore.DialectMySQL; none { // SQLite: nothing is deferred
				return nil
			}
			users, _, err := st.Locks.LockAndCount(ctx, []uint64{u1.ID}, nil, at)
			if err != nil {
				return err
			}
			users[u1.ID].Balance = decimal.RequireFromString("-1.00")
			saveErr = st.Users.SaveBalance(ctx, users[u1.ID])
			return saveErr
		})
		if !none && (saveErr != nil || err == nil) {
			t.Fatalf("SaveBalance: %v, commit: %v; want the balance deferred and refused at the commit", saveErr, err)
		}
	})
}
