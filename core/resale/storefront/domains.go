package storefront

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/resale/brand"
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
	return b.verify(ctx, actor.ID, actor.ID, host, claim.State, now, "")
}

// verify makes resellerID's claim on host (in state before) the host's
// verified domain and records actorID's brand.domain_verify (by: who
// vouched, "" for the reseller's own check), in one transaction; the
// database keeps one verified claim per host, so the second of two
// verifications of a host is DomainTaken.
func (b *Brands) verify(ctx context.Context, actorID, resellerID uint64, host string, before brand.DomainState, now time.Time, by string) (brand.Brand, error) {
	var after brand.Brand
	err := b.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Brands.Verify(ctx, resellerID, host, now); err != nil {
			return err
		}
		var err error
		if after, err = s.Brands.Get(ctx, resellerID); err != nil {
			return err
		}
		return store.RecordBy(ctx, s.Audit, now, actorID, audit.BrandDomainVerify, audit.TargetUser, resellerID,
			domainAudit{Host: host, State: string(before)}, domainAudit{Host: host, State: string(brand.DomainVerified), By: by})
	})
	if errors.Is(err, brand.ErrDomainTaken) {
		return brand.Brand{}, brand.DomainTaken(host)
	}
	return after, err
}

// OperatorVerification is what VerifyDomainForOperator did.
type OperatorVerification struct {
	ResellerID uint64      // whose claim is the host's verified domain
	Already    bool        // it was verified already: nothing changed
	Brand      brand.Brand // that reseller's brand after it
}

// VerifyDomainForOperator marks a pending claim on host verified on an
// operator's word (`server brand verify-domain`: ownership checked by
// other means, such as a support ticket), without the DNS and HTTP checks
// but through the same store write as VerifyDomain: the first proof still
// wins (a host another reseller verified is refused, DomainTaken), and the
// entry brand.domain_verify is recorded with actor audit.Operator and by
// "operator". resellerID picks the claim; 0 means the host's only claim
// (several claimants must be told apart). A claim already verified is
// answered as it is (Already); a host verified by a reseller other than the
// one meant (or, without resellerID, while others claim it) is refused.
func (b *Brands) VerifyDomainForOperator(ctx context.Context, hostArg string, resellerID uint64) (OperatorVerification, error) {
	host := brand.NormalizeHost(hostArg)
	if !brand.ValidHost(host) {
		e := errs.Validation(map[string][]string{"host": {"is not a host name"}})
		e.Message = fmt.Sprintf("%q is not a host name", hostArg)
		return OperatorVerification{}, e
	}
	claimants, err := b.store.Claimants(ctx, host)
	if err != nil {
		return OperatorVerification{}, err
	}
	owner, err := b.store.ResellerOfHost(ctx, host)
	switch {
	case err == nil && (resellerID == owner || resellerID == 0 && len(claimants) == 1):
		br, err := b.store.Get(ctx, owner)
		return OperatorVerification{ResellerID: owner, Already: true, Brand: br}, err
	case err == nil: // the claim meant is lost, or may be
		return OperatorVerification{}, takenBy(host, owner)
	case errs.KindOf(err) != errs.NotFound:
		return OperatorVerification{}, err
	}
	switch {
	case resellerID != 0 && !slices.Contains(claimants, resellerID):
		return OperatorVerification{}, errs.E(errs.NotFound, brand.ErrDomainNotFound.Code,
			fmt.Sprintf("reseller #%d does not claim %s", resellerID, host))
	case resellerID != 0:
	case len(claimants) == 0:
		return OperatorVerification{}, errs.E(errs.NotFound, brand.ErrDomainNotFound.Code, "no reseller claims "+host)
	case len(claimants) > 1:
		ids := make([]string, len(claimants))
		for i, id := range claimants {
			ids[i] = fmt.Sprintf("#%d", id)
		}
		return OperatorVerification{}, errs.E(errs.Conflict, "domain_claims_several",
			fmt.Sprintf("%d resellers claim %s (%s): choose one with --reseller ID", len(claimants), host, strings.Join(ids, ", ")))
	default:
		resellerID = claimants[0]
	}
	br, err := b.verify(ctx, audit.Operator, resellerID, host, brand.DomainPending, b.now().UTC(), "operator")
	if errors.Is(err, brand.ErrDomainTaken) { // another reseller's proof came first, meanwhile
		if owner, e := b.store.ResellerOfHost(ctx, host); e == nil {
			return OperatorVerification{}, takenBy(host, owner)
		}
	}
	if err != nil {
		return OperatorVerification{}, err
	}
	return OperatorVerification{ResellerID: resellerID, Brand: br}, nil
}

// takenBy is DomainTaken for an operator: it names the reseller that
// verified the host.
func takenBy(host string, owner uint64) error {
	e, _ := errs.As(brand.DomainTaken(host))
	c := *e
	c.Message = fmt.Sprintf("%s is already verified by reseller #%d (first proof wins); that claim must be dropped first", host, owner)
	return &c
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
