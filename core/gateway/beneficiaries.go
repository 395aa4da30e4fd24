package gateway

import (
	"context"
	"fmt"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/verification"
	"paygate/core/metering"
	"paygate/core/platform/errs"
)

// SaveBeneficiaryInput is the panel's POST /beneficiaries: the payee, and
// the caller's key the account verification is billed on.
type SaveBeneficiaryInput struct {
	RequestID, IP string
	KeyID         uint64
	Payee         payout.Beneficiary
}

// panelKey is an active key of the caller's (else 404), as metering
// credentials that carry the key id: the panel authenticated the caller.
func (a *Gateway) panelKey(ctx context.Context, caller *user.User, keyID uint64) (metering.Credentials, error) {
	k, err := a.st.Keys.ByID(ctx, keyID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return metering.Credentials{}, apikey.ErrNotFound
		}
		return metering.Credentials{}, fmt.Errorf("find key: %w", err)
	}
	if k.UserID != caller.ID || k.Status != apikey.StatusActive {
		return metering.Credentials{}, apikey.ErrNotFound
	}
	return metering.Credentials{KeyID: k.ID}, nil
}

// SaveBeneficiary checks the payee once by an account verification (billed
// on in.KeyID like POST /api/v1/account/verify, whatever it finds) and
// saves it only when verified, with the name at source; an account the
// verification did not find is ErrNotVerified and is not saved.
func (a *Gateway) SaveBeneficiary(ctx context.Context, caller *user.User, in SaveBeneficiaryInput) (*beneficiary.Beneficiary, error) {
	// The payee is checked as a payout's beneficiary is (the amount and
	// reference here are valid, so every error is the payee's).
	p, err := payout.New(payout.Request{Beneficiary: in.Payee, Amount: "1.00", ReferenceID: "check"}, a.now())
	if err != nil {
		return nil, err
	}
	payee := p.Beneficiary
	n, err := a.st.Beneficiaries.CountByUser(ctx, caller.ID)
	if err != nil {
		return nil, err
	}
	if n >= beneficiary.MaxPerUser {
		return nil, beneficiary.ErrTooMany
	}
	creds, err := a.panelKey(ctx, caller, in.KeyID)
	if err != nil {
		return nil, err
	}
	req := verification.Request{Type: verification.UPI, VPA: payee.VPA}
	if payee.Type == payout.BankAccount {
		req = verification.Request{Type: verification.BankAccount, AccountNumber: payee.AccountNumber, IFSC: payee.IFSC}
	}
	res, err := a.VerifyAccount(ctx, VerifyInput{RequestID: in.RequestID, IP: in.IP, Creds: creds, Request: req})
	if err != nil {
		return nil, err
	}
	if !res.Verified {
		return nil, beneficiary.ErrNotVerified
	}
	now := a.now().UTC()
	b := &beneficiary.Beneficiary{UserID: caller.ID, Payee: payee, NameAtSource: res.NameAtSource, VerifiedAt: now, CreatedAt: now}
	if err := a.st.Beneficiaries.Create(ctx, b); err != nil {
		return nil, err
	}
	return b, nil
}

// Beneficiaries lists the caller's saved beneficiaries, by name.
func (a *Gateway) Beneficiaries(ctx context.Context, caller *user.User) ([]beneficiary.Beneficiary, error) {
	return a.st.Beneficiaries.ListByUser(ctx, caller.ID)
}

// Beneficiary is one saved beneficiary of the caller's (another account's is not found).
func (a *Gateway) Beneficiary(ctx context.Context, caller *user.User, id uint64) (*beneficiary.Beneficiary, error) {
	return a.st.Beneficiaries.ByID(ctx, caller.ID, id)
}

// DeleteBeneficiary forgets one saved beneficiary of the caller's; payouts already sent keep their payee.
func (a *Gateway) DeleteBeneficiary(ctx context.Context, caller *user.User, id uint64) error {
	ok, err := a.st.Beneficiaries.Delete(ctx, caller.ID, id)
	if err != nil {
		return err
	}
	if !ok {
		return beneficiary.ErrNotFound
	}
	return nil
}
