package brands

import (
	"context"
	"errors"
	"slices"

	"paygate/core/audit"
	"paygate/core/brand"
	"paygate/core/errs"
	"paygate/core/store"
	"paygate/core/user"
)

// VerifyDomain checks the actor's claim on host and, when it is proven,
// makes it the host's verified domain (audited brand.domain_verify): the
// host then shows the brand, registers the reseller's customers and
// carries its customers' mail links. Proof is both the claim's token in
// DNS (TXTName(host), which only the host's owner can publish) and the
// platform's own answer fetched through the host (it points at the
// platform). A host another reseller verified is 409 domain_taken; a failed
// check is 422 domain_not_verified saying what failed, and is kept on the
// claim. A verified claim is answered as it is.
func (b *Brands) VerifyDomain(ctx context.Context, actor *user.User, hostArg string) (brand.Brand, error) {
	if err := requireReseller(actor); err != nil {
		return brand.Brand{}, err
	}
	host := brand.NormalizeHost(hostArg)
	br, err := b.store.Get(ctx, actor.ID)
	if err != nil {
		return brand.Brand{}, err
	}
	i := slices.IndexFunc(br.Domains, func(d brand.Domain) bool { return d.Host == host })
	if i < 0 {
		return brand.Brand{}, brand.ErrDomainNotFound
	}
	claim := br.Domains[i]
	switch claim.State {
	case brand.DomainVerified:
		return br, nil
	case brand.DomainLost:
		return brand.Brand{}, brand.DomainTaken(host)
	}
	if b.prober == nil {
		return brand.Brand{}, brand.ErrDomainChecksUnavailable
	}
	problem := b.check(ctx, claim)
	now := b.now().UTC()
	if problem != "" {
		if err := b.store.RecordCheck(ctx, actor.ID, host, problem, now); err != nil && errs.KindOf(err) != errs.NotFound {
			return brand.Brand{}, err
		}
		return brand.Brand{}, brand.Unproven(problem)
	}
	var after brand.Brand
	err = b.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		if err := s.Brands.Verify(ctx, actor.ID, host, now); err != nil {
			return err
		}
		if after, err = s.Brands.Get(ctx, actor.ID); err != nil {
			return err
		}
		return store.Record(ctx, s, now, actor, audit.BrandDomainVerify, audit.TargetUser, actor.ID,
			domainAudit{Host: host, State: string(claim.State)}, domainAudit{Host: host, State: string(brand.DomainVerified)})
	})
	if errors.Is(err, brand.ErrDomainTaken) {
		return brand.Brand{}, brand.DomainTaken(host)
	}
	return after, err
}

// check runs both proofs of a claim and says what failed ("" for none).
// What the prober's errors say stays in the service: a reseller learns
// which proof failed, never an address or a dial error.
func (b *Brands) check(ctx context.Context, d brand.Domain) string {
	name := brand.TXTName(d.Host)
	txt, err := b.prober.TXT(ctx, name)
	if err != nil && errs.KindOf(err) != errs.NotFound {
		return "the DNS lookup of " + name + " failed; try again later"
	}
	if !brand.HasToken(txt, d.Token) {
		return "no TXT record " + name + " holds this domain's token"
	}
	url := b.ChallengeURL(d)
	status, body, err := b.prober.Get(ctx, url)
	if err != nil || !brand.AnswersChallenge(status, body, d.Token) {
		return url + " is not answered by this service: point the domain at it"
	}
	return ""
}

// Challenge reports whether the platform answers token on the request's
// Host: someone claims that host with that token. The answer proves to the
// check that the host reaches the platform.
func (b *Brands) Challenge(ctx context.Context, hostHeader, token string) (bool, error) {
	host := brand.NormalizeHost(hostHeader)
	if host == "" || host == b.platform || len(token) > 64 {
		return false, nil
	}
	return b.store.HasClaim(ctx, host, token)
}

// ChallengeURL is where the check fetches a claim's token through its host
// (PUBLIC_BASE_URL's scheme and port): what the reseller's page shows.
func (b *Brands) ChallengeURL(d brand.Domain) string {
	return b.ownBase(d.Host) + brand.ChallengePath + d.Token
}
