package storetest

import (
	"context"

	"paygate/core/platform/utr"
)

// utrClaimsRepo: one claim per UTR, as the database's primary key.
type utrClaimsRepo struct{ d *DB }

type utrClaim struct {
	owner string
	id    uint64
}

var _ utr.Claims = utrClaimsRepo{}

func (r utrClaimsRepo) Claim(_ context.Context, u, owner string, ownerID uint64) error {
	return r.d.do("UTRs.Claim", func(t *tables) error {
		if c, ok := t.utrClaims[u]; ok {
			if c == (utrClaim{owner, ownerID}) {
				return nil
			}
			return utr.ErrTaken
		}
		t.utrClaims[u] = utrClaim{owner, ownerID}
		return nil
	})
}

func (r utrClaimsRepo) Release(_ context.Context, u, owner string, ownerID uint64) error {
	return r.d.do("UTRs.Release", func(t *tables) error {
		if t.utrClaims[u] == (utrClaim{owner, ownerID}) {
			delete(t.utrClaims, u)
		}
		return nil
	})
}
