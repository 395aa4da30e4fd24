package storecontract

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/gateway/payment"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
)

// paymentsContract: a payment's state moves only from the state its writer
// saw (of two writers one wins), the UTR belongs to one payment, the
// expiry worker finds what it may expire, and the documented not-found
// error.
func paymentsContract(t *testing.T, c *contract) {
	ctx, payments := c.ctx, c.s.Payments
	read := func(t *testing.T, id uint64) *payment.Payment {
		t.Helper()
		p, err := payments.ByID(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	moveTo := func(p *payment.Payment, st payment.Status, when time.Time) *payment.Payment {
		next := *p
		next.Status, next.UpdatedAt = st, when
		return &next
	}

	t.Run("Transition moves from the state the writer saw, once", func(t *testing.T) {
		p := c.payment(t, c.s, c.user(t), payment.StatusCreated)
		if ok, err := payments.Transition(ctx, moveTo(p, payment.StatusPending, at), payment.StatusCreated); !ok || err != nil {
			t.Fatalf("created → pending: %v, %v", ok, err)
		}
		if ok, err := payments.Transition(ctx, moveTo(p, payment.StatusExpired, at), payment.StatusCreated); ok || err != nil {
			t.Fatalf("a second move from created: %v, %v; want false", ok, err)
		}
		done, ref := at.Add(time.Minute), "prov-1"
		success := moveTo(p, payment.StatusSuccess, done)
		success.ProviderRef, success.CompletedAt, success.Fee = &ref, &done, dec("1.50")
		if ok, err := payments.Transition(ctx, success, payment.StatusPending); !ok || err != nil {
			t.Fatalf("pending → success: %v, %v", ok, err)
		}
		got := read(t, p.ID)
		if got.Status != payment.StatusSuccess || got.ProviderRef == nil || *got.ProviderRef != ref || got.CompletedAt == nil ||
			!got.CompletedAt.Equal(done) || !got.Fee.Equal(dec("1.50")) || !got.UpdatedAt.Equal(done) || !got.Amount.Equal(dec("100.00")) {
			t.Fatalf("after success: %+v", got)
		}
		if ok, err := payments.Transition(ctx, moveTo(p, payment.StatusFailed, done), payment.StatusPending); ok || err != nil {
			t.Fatalf("a move from a state the payment left: %v, %v", ok, err)
		}
		ghost := moveTo(p, payment.StatusFailed, done)
		ghost.ID = 987654
		if ok, err := payments.Transition(ctx, ghost, payment.StatusPending); ok || err != nil {
			t.Fatalf("a move of an unknown payment: %v, %v; want false", ok, err)
		}
	})

	t.Run("of two transitions at once one wins", func(t *testing.T) {
		p := c.payment(t, c.s, c.user(t), payment.StatusPending)
		var won [2]bool
		move := func(i int, st payment.Status) func() error {
			return func() (err error) {
				won[i], err = payments.Transition(ctx, moveTo(p, st, at), payment.StatusPending)
				return err
			}
		}
		errA, errB := both(move(0, payment.StatusSuccess), move(1, payment.StatusExpired))
		if errA != nil || errB != nil || won[0] == won[1] {
			t.Fatalf("success won %v (%v), expiry won %v (%v); want exactly one", won[0], errA, won[1], errB)
		}
		if want := map[bool]payment.Status{true: payment.StatusSuccess, false: payment.StatusExpired}[won[0]]; read(t, p.ID).Status != want {
			t.Fatalf("the payment is %s, want the winner's %s", read(t, p.ID).Status, want)
		}
	})

	t.Run("HoldCredit moves from the state the writer saw", func(t *testing.T) {
		p := c.payment(t, c.s, c.user(t), payment.StatusPending)
		held := moveTo(p, payment.StatusPending, at)
		held.CreditHeldAt = &at
		if ok, err := payments.HoldCredit(ctx, held, payment.StatusCreated); ok || err != nil {
			t.Fatalf("from a state it is not in: %v, %v", ok, err)
		}
		if ok, err := payments.HoldCredit(ctx, held, payment.StatusPending); !ok || err != nil {
			t.Fatalf("HoldCredit: %v, %v", ok, err)
		}
		if got := read(t, p.ID); got.CreditHeldAt == nil || !got.CreditHeldAt.Equal(at) || got.Status != payment.StatusPending {
			t.Fatalf("after HoldCredit: %+v", got)
		}
	})

	t.Run("SubmitUTR needs the UTR the writer saw; a UTR is one payment's", func(t *testing.T) {
		u := c.user(t)
		p, q := c.payment(t, c.s, u, payment.StatusPending), c.payment(t, c.s, u, payment.StatusPending)
		withUTR := func(p *payment.Payment, utr string) *payment.Payment {
			next := moveTo(p, payment.StatusPending, at)
			next.UTR, next.ExpiresAt = &utr, at.Add(48*time.Hour)
			return next
		}
		first, second := "412345678901", "412345678902"
		if ok, err := payments.SubmitUTR(ctx, withUTR(p, first), payment.StatusPending, nil); !ok || err != nil {
			t.Fatalf("the first UTR: %v, %v", ok, err)
		}
		if ok, err := payments.SubmitUTR(ctx, withUTR(p, second), payment.StatusPending, nil); ok || err != nil {
			t.Fatalf("a UTR over one the writer did not see: %v, %v; want false", ok, err)
		}
		if ok, err := payments.SubmitUTR(ctx, withUTR(p, second), payment.StatusPending, &first); !ok || err != nil {
			t.Fatalf("a corrected UTR: %v, %v", ok, err)
		}
		if got := read(t, p.ID); got.UTR == nil || *got.UTR != second || !got.ExpiresAt.Equal(at.Add(48*time.Hour)) {
			t.Fatalf("after the correction: %+v", got)
		}
		if _, err := payments.SubmitUTR(ctx, withUTR(q, second), payment.StatusPending, nil); !errors.Is(err, payment.ErrUTRTaken) {
			t.Fatalf("another payment's UTR: %v, want ErrUTRTaken", err)
		}
		if got := read(t, q.ID); got.UTR != nil {
			t.Fatalf("the refused UTR was written: %v", *got.UTR)
		}
	})

	t.Run("not found", func(t *testing.T) {
		if _, err := payments.ByID(ctx, 987654); !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("ByID: %v", err)
		}
		if _, err := payments.ByPublicID(ctx, "pay_nobody"); !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("ByPublicID: %v", err)
		}
		err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
			_, err := s.Payments.LockByID(ctx, 987654)
			return err
		})
		if !errors.Is(err, payment.ErrNotFound) {
			t.Errorf("LockByID: %v", err)
		}
	})

	t.Run("Expirable: open, not held, expired by now, soonest first", func(t *testing.T) {
		u := c.user(t)
		now := at.Add(-time.Hour)
		expiring := func(st payment.Status, in time.Duration, held bool) *payment.Payment {
			return c.payment(t, c.s, u, st, func(p *payment.Payment) {
				p.ExpiresAt = now.Add(in)
				if held {
					p.CreditHeldAt = &now
				}
			})
		}
		m1 := expiring(payment.StatusPending, -time.Minute, false)
		m3 := expiring(payment.StatusCreated, -3*time.Minute, false)
		zero := expiring(payment.StatusCreated, 0, false) // at now: expired
		expiring(payment.StatusCreated, time.Minute, false)
		expiring(payment.StatusSuccess, -2*time.Minute, false)
		expiring(payment.StatusPending, -2*time.Minute, true)
		ids := func(ps []payment.Payment) []uint64 {
			out := []uint64{}
			for _, p := range ps {
				out = append(out, p.ID)
			}
			return out
		}
		got, err := payments.Expirable(ctx, now, 10)
		if want := []uint64{m3.ID, m1.ID, zero.ID}; err != nil || !slices.Equal(ids(got), want) {
			t.Fatalf("Expirable: %v, %v; want %v", ids(got), err, want)
		}
		if got, err = payments.Expirable(ctx, now, 2); err != nil || !slices.Equal(ids(got), []uint64{m3.ID, m1.ID}) {
			t.Fatalf("Expirable up to 2: %v, %v", ids(got), err)
		}
	})
}

// idempotencyKeys is payments' or refunds' Idempotency-Keys, seen alike:
// a key names a target (the payment or the refund it made).
type idempotencyKeys struct {
	name   string
	target func(t *testing.T, s store.Stores, owner *user.User) uint64
	claim  func(ctx context.Context, s store.Stores, userID uint64, key string, target uint64, expires, now time.Time) error
	find   func(ctx context.Context, s store.Stores, userID uint64, key string, now time.Time) (target uint64, hash string, err error)
}

// idempotencyContract: a live key is claimed once — a second claim, even
// at the same time, is a conflict and Find returns the first; another
// user's key of the same name is its own; an expired key gives way; a
// claim rolled back with its transaction is forgotten.
func idempotencyContract(t *testing.T, c *contract) {
	ctx := c.ctx
	kinds := []idempotencyKeys{{
		name: "payments",
		target: func(t *testing.T, s store.Stores, owner *user.User) uint64 {
			return c.payment(t, s, owner, payment.StatusCreated).ID
		},
		claim: func(ctx context.Context, s store.Stores, userID uint64, key string, target uint64, expires, now time.Time) error {
			return s.Idempotency.Claim(ctx, &payment.IdempotencyKey{UserID: userID, Key: key, RequestHash: key + "-hash",
				PaymentID: target, ExpiresAt: expires, CreatedAt: now}, now)
		},
		find: func(ctx context.Context, s store.Stores, userID uint64, key string, now time.Time) (uint64, string, error) {
			k, err := s.Idempotency.Find(ctx, userID, key, now)
			if err != nil {
				return 0, "", err
			}
			return k.PaymentID, k.RequestHash, nil
		},
	}, {
		name: "refunds",
		target: func(t *testing.T, s store.Stores, owner *user.User) uint64 {
			return c.refund(t, s, c.payment(t, s, owner, payment.StatusSuccess), "10.00").ID
		},
		claim: func(ctx context.Context, s store.Stores, userID uint64, key string, target uint64, expires, now time.Time) error {
			return s.RefundKeys.Claim(ctx, &payment.RefundKey{UserID: userID, Key: key, RequestHash: key + "-hash",
				RefundID: target, ExpiresAt: expires, CreatedAt: now}, now)
		},
		find: func(ctx context.Context, s store.Stores, userID uint64, key string, now time.Time) (uint64, string, error) {
			k, err := s.RefundKeys.Find(ctx, userID, key, now)
			if err != nil {
				return 0, "", err
			}
			return k.RefundID, k.RequestHash, nil
		},
	}}
	expires := at.Add(payment.IdempotencyTTL)
	for _, ks := range kinds {
		t.Run(ks.name, func(t *testing.T) {
			s := c.s
			found := func(t *testing.T, userID uint64, key string, now time.Time, want uint64) {
				t.Helper()
				got, hash, err := ks.find(ctx, s, userID, key, now)
				if err != nil || got != want || hash != key+"-hash" {
					t.Fatalf("Find %s: %d (%q), %v; want %d", key, got, hash, err, want)
				}
			}
			gone := func(t *testing.T, userID uint64, key string, now time.Time) {
				t.Helper()
				if got, _, err := ks.find(ctx, s, userID, key, now); !isKind(err, errs.NotFound) {
					t.Fatalf("Find %s: %d, %v; want not found", key, got, err)
				}
			}

			t.Run("the second claim of a live key is a conflict", func(t *testing.T) {
				u, other := c.user(t), c.user(t)
				first, second := ks.target(t, s, u), ks.target(t, s, u)
				gone(t, u.ID, "k-1", at)
				if err := ks.claim(ctx, s, u.ID, "k-1", first, expires, at); err != nil {
					t.Fatal(err)
				}
				if err := ks.claim(ctx, s, u.ID, "k-1", second, expires, at.Add(time.Minute)); !isKind(err, errs.Conflict) {
					t.Fatalf("a second claim: %v, want a conflict", err)
				}
				found(t, u.ID, "k-1", at.Add(time.Minute), first)
				theirs := ks.target(t, s, other)
				if err := ks.claim(ctx, s, other.ID, "k-1", theirs, expires, at); err != nil {
					t.Fatalf("another user's key of the same name: %v", err)
				}
				found(t, other.ID, "k-1", at, theirs)
				found(t, u.ID, "k-1", at, first)
			})

			t.Run("an expired key gives way", func(t *testing.T) {
				u := c.user(t)
				first, second := ks.target(t, s, u), ks.target(t, s, u)
				if err := ks.claim(ctx, s, u.ID, "k-2", first, expires, at); err != nil {
					t.Fatal(err)
				}
				found(t, u.ID, "k-2", expires.Add(-time.Second), first)
				gone(t, u.ID, "k-2", expires)
				if err := ks.claim(ctx, s, u.ID, "k-2", second, expires.Add(payment.IdempotencyTTL), expires); err != nil {
					t.Fatalf("claiming an expired key: %v", err)
				}
				found(t, u.ID, "k-2", expires, second)
			})

			t.Run("of two claims at once one wins", func(t *testing.T) {
				u := c.user(t)
				var made [2]uint64
				claim := func(i int) func() error {
					return func() error {
						return c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
							made[i] = ks.target(t, s, u)
							return ks.claim(ctx, s, u.ID, "k-3", made[i], expires, at)
						})
					}
				}
				errA, errB := both(claim(0), claim(1))
				if (errA == nil) == (errB == nil) || !isKind(errors.Join(errA, errB), errs.Conflict) {
					t.Fatalf("claims: %v, %v; want one nil and one conflict", errA, errB)
				}
				winner := made[0]
				if errA != nil {
					winner = made[1]
				}
				found(t, u.ID, "k-3", at, winner)
			})

			t.Run("a rolled-back claim is forgotten", func(t *testing.T) {
				u := c.user(t)
				target := ks.target(t, s, u)
				rollback := errors.New("roll back")
				err := c.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
					if err := ks.claim(ctx, s, u.ID, "k-4", target, expires, at); err != nil {
						return err
					}
					return rollback
				})
				if !errors.Is(err, rollback) {
					t.Fatal(err)
				}
				gone(t, u.ID, "k-4", at)
				if err := ks.claim(ctx, s, u.ID, "k-4", target, expires, at); err != nil {
					t.Fatalf("claiming after the rollback: %v", err)
				}
				found(t, u.ID, "k-4", at, target)
			})
		})
	}
}
