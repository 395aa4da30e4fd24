package accountstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/session"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

// TestRotateKeepsThePreviousHash: reuse detection finds a session by the
// token it had before its last rotation.
func TestRotateKeepsThePreviousHash(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		sessions := s.Stores().Sessions
		u := sqltest.NewUser(t, s)
		now := time.Now().UTC().Truncate(time.Microsecond)
		tok := &session.Token{UserID: u.ID, Name: "x", TokenHash: session.Hash("rt_1"), ExpiresAt: now.Add(time.Hour)}
		if err := sessions.Create(ctx, tok); err != nil {
			t.Fatal(err)
		}
		if _, err := sessions.ByPreviousHash(ctx, session.Hash("rt_1")); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("before any rotation: %v", err)
		}
		for _, step := range [][2]string{{"rt_1", "rt_2"}, {"rt_2", "rt_3"}} {
			if ok, err := sessions.Rotate(ctx, tok.ID, session.Hash(step[0]), session.Hash(step[1]), now, now.Add(time.Hour)); !ok || err != nil {
				t.Fatalf("Rotate %v: %v %v", step, ok, err)
			}
		}
		got, err := sessions.ByPreviousHash(ctx, session.Hash("rt_2"))
		if err != nil || got.ID != tok.ID || got.TokenHash != session.Hash("rt_3") {
			t.Fatalf("ByPreviousHash = %+v, %v", got, err)
		}
		if _, err := sessions.ByPreviousHash(ctx, session.Hash("rt_3")); !errors.Is(err, errs.ErrNotFound) {
			t.Fatalf("the current hash found as previous: %v", err)
		}
	})
}
