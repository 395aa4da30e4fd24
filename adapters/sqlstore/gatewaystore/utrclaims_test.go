package gatewaystore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/platform/store"
	"paygate/core/platform/utr"
	"paygate/internal/testdb"
)

// TestUTRClaimIsOnceAcrossOwners: a UTR is claimed once, whoever claims
// it; its owner claiming again is no conflict; a released UTR is free. Two
// transactions claiming one UTR at once, one for a payment and one for a
// balance request: the second waits for the first, and exactly one wins
// (the first when it commits, the second when the first rolls back).
func TestUTRClaimIsOnceAcrossOwners(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		claims := s.Stores().UTRs
		if err := claims.Claim(ctx, "444444444444", utr.OwnerPayment, 1); err != nil {
			t.Fatal(err)
		}
		if err := claims.Claim(ctx, "444444444444", utr.OwnerPayment, 1); err != nil {
			t.Fatalf("owner claims again: %v", err)
		}
		for _, o := range []struct {
			owner string
			id    uint64
		}{{utr.OwnerPayment, 2}, {utr.OwnerBalanceRequest, 1}} {
			if err := claims.Claim(ctx, "444444444444", o.owner, o.id); !errors.Is(err, utr.ErrTaken) {
				t.Fatalf("%s %d claims a taken UTR: %v", o.owner, o.id, err)
			}
		}
		if err := claims.Release(ctx, "444444444444", utr.OwnerBalanceRequest, 1); err != nil {
			t.Fatal(err)
		}
		if err := claims.Claim(ctx, "444444444444", utr.OwnerBalanceRequest, 1); !errors.Is(err, utr.ErrTaken) {
			t.Fatalf("another owner's release freed the UTR: %v", err)
		}
		if err := claims.Release(ctx, "444444444444", utr.OwnerPayment, 1); err != nil {
			t.Fatal(err)
		}
		if err := claims.Claim(ctx, "444444444444", utr.OwnerBalanceRequest, 1); err != nil {
			t.Fatalf("released UTR: %v", err)
		}

		for _, firstCommits := range []bool{true, false} {
			u := "55555555555" + map[bool]string{true: "1", false: "2"}[firstCommits]
			claimed, release := make(chan struct{}), make(chan struct{})
			first := make(chan error, 1)
			go func() {
				first <- s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
					err := st.UTRs.Claim(ctx, u, utr.OwnerPayment, 7)
					close(claimed)
					<-release
					if err == nil && !firstCommits {
						return errors.New("rolled back")
					}
					return err
				})
			}()
			<-claimed
			second := make(chan error, 1)
			go func() {
				second <- s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
					return st.UTRs.Claim(ctx, u, utr.OwnerBalanceRequest, 9)
				})
			}()
			select {
			case err := <-second:
				t.Fatalf("the second claim did not wait for the first transaction: %v", err)
			case <-time.After(200 * time.Millisecond):
			}
			close(release)
			err1, err2 := <-first, <-second
			if firstCommits && (err1 != nil || !errors.Is(err2, utr.ErrTaken)) {
				t.Fatalf("first commits: first %v, second %v", err1, err2)
			}
			if !firstCommits && (err1 == nil || err2 != nil) {
				t.Fatalf("first rolls back: first %v, second %v", err1, err2)
			}
		}
	})
}
