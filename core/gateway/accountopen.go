package gateway

import (
	"context"
	"errors"
	"fmt"
	"time"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway/accountopen"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
	"paygate/core/platform/sensitive"
	"paygate/core/platform/store"
)

// AccountOpenInput is one POST /api/v1/account/open.
type AccountOpenInput struct {
	RequestID, IP string
	Creds         metering.Credentials
	Request       accountopen.Request
	BodyErrors    BodyErrors
}

// AccountOpenResult is the opening as it stands, with what the call cost.
type AccountOpenResult struct {
	metering.Charge
	Opening accountopen.Opening
}

// OpenAccount applies for a savings account on an applicant's behalf,
// billed through the account-open service. The opening row (identifiers
// masked) is written in the reservation transaction; the provider is asked
// outside any transaction, with the full PAN and Aadhaar number, which
// exist only in this call's memory. No answer leaves it initiated, and the
// worker submits it again (without them) once accountopen.SubmitGrace has
// passed. The same reference_id with the same request answers the existing
// opening without billing; with another request, 409.
func (a *Gateway) OpenAccount(ctx context.Context, in AccountOpenInput) (*AccountOpenResult, error) {
	if a.opener == nil {
		return nil, ErrProviderUnavailable
	}
	o, kyc, invalid := accountopen.New(in.Request, a.now())
	invalid = withBodyErrors(invalid, in.BodyErrors)
	out := &AccountOpenResult{}
	op := metering.Op{
		Slug: SlugAccountOpen, RequestID: in.RequestID, Creds: in.Creds, IP: in.IP,
		Payload: in.Request.Masked(), Invalid: invalid,
		Replay: func(ctx context.Context, _ *apikey.Key, u *user.User) (bool, error) {
			old, err := a.st.Openings.ByReference(ctx, u.ID, o.ReferenceID)
			if errors.Is(err, accountopen.ErrNotFound) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			if !old.Same(o) {
				return false, accountopen.ErrReferenceReused
			}
			out.Opening = *old
			return true, nil
		},
		Perform: func(ctx context.Context, _ *hitlog.Hit) (any, error) {
			if _, err := a.submitOpening(ctx, o, kyc, a.now().UTC().Add(accountopen.FirstCheck)); err != nil {
				// The opening is stored and the worker takes it from
				// here: the call itself succeeded.
				a.log.Warn("account opening: recording the provider's answer failed", "opening_id", o.PublicID, "err", err)
			}
			out.Opening = *o
			return map[string]any{"opening_id": o.PublicID, "reference_id": o.ReferenceID, "status": o.Status}, nil
		},
	}
	bill, charge, err := a.meter.Open(ctx, op)
	if err != nil {
		return nil, err
	}
	if charge == nil {
		// One transaction: the charge (the caller's row locked, the call
		// admitted, its pending hit and debit), then the opening's row.
		err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
			u, hit, err := bill.Reserve(ctx, s.Metering)
			if err != nil || u == nil {
				return err // u nil: refused, its hit written
			}
			o.UserID, o.APIKeyID, o.Livemode = u.ID, hit.APIKeyID, a.liveOpenings()
			// Left to this request until the grace ends; then the worker
			// submits it again if this request never recorded an answer.
			o.NextCheckAt = o.CreatedAt.Add(accountopen.SubmitGrace(a.cfg.UpstreamTimeout))
			return s.Openings.Create(ctx, o)
		})
		if charge, err = bill.Run(ctx, err); err != nil {
			return nil, err
		}
	}
	out.Charge = *charge
	return out, nil
}

// submitOpening sends o to the provider (bounded by the provider timeout)
// and records its answer, the next look at nextCheck. No answer (error,
// timeout) changes nothing. It reports whether this call finished o.
func (a *Gateway) submitOpening(ctx context.Context, o *accountopen.Opening, kyc accountopen.KYC, nextCheck time.Time) (bool, error) {
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	res, err := a.opener.Submit(pctx, *o, kyc)
	cancel()
	if err != nil {
		return false, nil
	}
	// A provider may echo what it was sent: only masks are kept.
	res.Reason = sensitive.Scrub(res.Reason, kyc.Secrets())
	res.KYCURL = sensitive.Scrub(res.KYCURL, kyc.Secrets())
	return a.advanceOpening(ctx, o, res, nextCheck)
}

// advanceOpening writes the provider's answer: a conditional update from
// o's state (so of several writers one wins) and, for an end state, the
// account_opening.* event in the same transaction. o is updated to the
// stored state; true when this call finished it.
func (a *Gateway) advanceOpening(ctx context.Context, o *accountopen.Opening, res accountopen.Outcome, nextCheck time.Time) (bool, error) {
	next, changed, err := o.Apply(res, a.now())
	if err != nil {
		return false, fmt.Errorf("opening %s: provider answered %q: %w", o.PublicID, res.Status, err)
	}
	if !changed {
		return false, nil
	}
	next.NextCheckAt = nextCheck
	done := false
	err = a.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		ok, err := s.Openings.Advance(ctx, o, &next)
		if err != nil || !ok || !next.Status.Final() {
			done = ok
			return err
		}
		done = true
		u, err := s.Users.ByID(ctx, o.UserID)
		if err != nil {
			return fmt.Errorf("owner %d: %w", o.UserID, err)
		}
		return a.emitOpening(ctx, s, u, &next)
	})
	if err != nil {
		return false, fmt.Errorf("advance opening %s: %w", o.PublicID, err)
	}
	if done {
		*o = next
		if next.Status.Final() {
			a.metrics.OpeningEnded(string(next.Status))
		}
		return next.Status.Final(), nil
	}
	if cur, err := a.st.Openings.ByID(ctx, o.ID); err == nil {
		*o = *cur
	}
	return false, nil
}

// CheckAccountOpenings is one round of the account-opening worker over the
// initiated and kyc_pending openings that are due, earliest first, as
// CheckRecharges does for recharges: each is claimed by a conditional
// update that also pushes its next look back, so several instances never
// work on one at once. An initiated opening (its Submit never answered) is
// submitted again, without the applicant's identifiers; a kyc_pending one
// is checked. A provider error or timeout leaves the row to its next turn;
// a store error on one row is returned after the round. It returns how
// many openings it finished.
func (a *Gateway) CheckAccountOpenings(ctx context.Context, limit int) (int, error) {
	if a.opener == nil {
		return 0, nil
	}
	now := a.now().UTC()
	due, err := a.st.Openings.Due(ctx, now, limit)
	if err != nil {
		return 0, err
	}
	return workRound(ctx, a.cfg.OpeningRoundBudget, due, func(ctx context.Context, o *accountopen.Opening) (bool, error) {
		return a.checkOpening(ctx, o, now)
	})
}

// checkOpening claims o and submits or checks it; true when this call finished it.
func (a *Gateway) checkOpening(ctx context.Context, o *accountopen.Opening, now time.Time) (bool, error) {
	next := o.Claim(now)
	ok, err := a.st.Openings.Claim(ctx, o, &next, now)
	if err != nil || !ok {
		return false, err // another worker has it
	}
	*o = next
	if o.Status == accountopen.StatusInitiated {
		return a.submitOpening(ctx, o, accountopen.KYC{}, o.NextCheckAt)
	}
	pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
	res, err := a.opener.Check(pctx, *o)
	cancel()
	if err != nil {
		return false, nil // asked again at NextCheckAt
	}
	return a.advanceOpening(ctx, o, res, o.NextCheckAt)
}

// AccountOpeningStatus is the key owner's opening with that reference_id.
func (a *Gateway) AccountOpeningStatus(ctx context.Context, c KeyCaller, referenceID string) (*accountopen.Opening, error) {
	_, u, err := a.meter.AuthenticateGateway(ctx, c.Creds, c.IP)
	if err != nil {
		return nil, err
	}
	o, err := a.st.Openings.ByReference(ctx, u.ID, referenceID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, accountopen.ErrNotFound
		}
		return nil, err
	}
	return o, nil
}

// ListAccountOpenings lists openings: a user's own, an admin's all (or f.UserID's).
func (a *Gateway) ListAccountOpenings(ctx context.Context, actor *user.User, f accountopen.Filter) ([]accountopen.Opening, int64, error) {
	if actor.Role != user.RoleAdmin {
		id := actor.ID
		f.UserID = &id
	}
	return a.st.Openings.List(ctx, f)
}

// emitOpening writes the event of o's end state: masked identifiers only.
func (a *Gateway) emitOpening(ctx context.Context, s TxStores, u *user.User, o *accountopen.Opening) error {
	t := webhook.AccountOpeningOpened
	if o.Status == accountopen.StatusRejected {
		t = webhook.AccountOpeningRejected
	}
	return store.EmitMode(ctx, s.Webhooks, a.now(), u, t, map[string]any{
		"opening_id": o.PublicID, "reference_id": o.ReferenceID, "product": o.Product, "status": o.Status,
		"applicant": map[string]any{"name": o.Applicant.Name, "pan": o.Applicant.PAN, "aadhaar": o.Applicant.Aadhaar,
			"mobile": o.Applicant.Mobile, "email": o.Applicant.Email},
		"account_number": o.AccountNumber, "ifsc": o.IFSC, "reject_reason": o.RejectReason, "livemode": o.Livemode,
		"created_at": o.CreatedAt, "updated_at": o.UpdatedAt,
	}, "", o.Livemode)
}

// liveOpenings reports whether the account-opening provider opens real
// accounts: one that says it is a sandbox (a Sandbox() bool method) is not.
func (a *Gateway) liveOpenings() bool {
	sb, ok := a.opener.(interface{ Sandbox() bool })
	return !ok || !sb.Sandbox()
}
