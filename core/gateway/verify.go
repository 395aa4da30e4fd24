package gateway

import (
	"context"
	"fmt"

	"paygate/core/gateway/verification"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/sensitive"
)

// VerifyInput is one POST /api/v1/account/verify.
type VerifyInput struct {
	RequestID, IP string
	Creds         metering.Credentials
	Request       verification.Request
	BodyErrors    BodyErrors
}

// VerifyResult is the provider's answer with what the call cost.
type VerifyResult struct {
	metering.Charge
	Type         verification.Type
	Masked       string
	Verified     bool
	NameAtSource string
	ReferenceID  string
	Message      string
}

// VerifyAccount verifies a bank account, UPI address, PAN or Aadhaar number,
// billed through the account-verify service. The provider is called outside
// any transaction; no answer refunds the charge (503). Only the masked
// identifier is stored, in the verification record and the hit log.
func (a *Gateway) VerifyAccount(ctx context.Context, in VerifyInput) (*VerifyResult, error) {
	req := in.Request
	invalid := withBodyErrors(req.Validate(), in.BodyErrors)
	masked := ""
	if invalid == nil {
		masked = req.Masked()
	}
	out := &VerifyResult{Type: req.Type, Masked: masked}
	charge, err := a.meter.Meter(ctx, metering.Op{
		Slug: SlugAccountVerify, RequestID: in.RequestID, Creds: in.Creds, IP: in.IP,
		Payload: map[string]any{"type": req.Type, "identifier": masked},
		Invalid: invalid,
		Perform: func(ctx context.Context, hit *hitlog.Hit) (any, error) {
			if a.verifier == nil {
				return nil, ErrProviderUnavailable
			}
			pctx, cancel := context.WithTimeout(ctx, a.cfg.UpstreamTimeout)
			res, err := a.verifier.Verify(pctx, req)
			cancel()
			if err != nil {
				return nil, ErrProviderUnavailable.Wrap(err)
			}
			// A provider may echo the identifier: only its mask is kept.
			secrets := req.Secrets()
			res.NameAtSource = sensitive.Scrub(res.NameAtSource, secrets)
			res.ReferenceID = sensitive.Scrub(res.ReferenceID, secrets)
			res.Message = sensitive.Scrub(res.Message, secrets)
			rec := &verification.Record{
				UserID: hit.UserID, APIKeyID: hit.APIKeyID, RequestID: hit.RequestID, Type: req.Type, Masked: masked,
				Verified: res.Verified, NameAtSource: res.NameAtSource, ReferenceID: res.ReferenceID, Message: res.Message,
				CreatedAt: a.now().UTC(),
			}
			if err := a.st.Verifications.Create(ctx, rec); err != nil {
				return nil, fmt.Errorf("store verification: %w", err)
			}
			out.Verified, out.NameAtSource, out.ReferenceID, out.Message = res.Verified, res.NameAtSource, res.ReferenceID, res.Message
			return map[string]any{"verified": res.Verified, "name_at_source": res.NameAtSource,
				"reference_id": res.ReferenceID, "message": res.Message}, nil
		},
	})
	if err != nil {
		return nil, err
	}
	out.Charge = *charge
	return out, nil
}
