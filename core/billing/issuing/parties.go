package issuing

import (
	"context"
	"errors"
	"fmt"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/taxprofile"
)

// ProfileParties reads the parties from the admins' billing settings and
// the accounts' billing profiles (core/billing/taxprofile).
type ProfileParties struct{}

var _ Parties = ProfileParties{}

// Ready refuses while the settings lack what a document at rate needs.
func (ProfileParties) Ready(ctx context.Context, p Profiles, rate decimal.Decimal) error {
	sp, err := p.Supplier(ctx)
	if err != nil {
		return err
	}
	return sp.Ready(rate)
}

// Supplier is the admins' billing settings.
func (ProfileParties) Supplier(ctx context.Context, p Profiles) (*Supplier, error) {
	sp, err := p.Supplier(ctx)
	if err != nil {
		return nil, err
	}
	return toSupplier(sp), nil
}

func toSupplier(sp *taxprofile.Supplier) *Supplier {
	return &Supplier{
		Party:  invoice.Party{LegalName: sp.LegalName, Address: sp.Address, State: sp.State, GSTIN: sp.GSTIN, PAN: sp.PAN},
		Payee:  invoice.Payee{BankName: sp.BankName, AccountName: sp.AccountName, AccountNumber: sp.AccountNumber, IFSC: sp.IFSC, UPI: sp.UPI},
		Prefix: sp.InvoicePrefix, SAC: sp.SAC,
	}
}

// Issuer is reseller resellerID's own billing record (core/billing/taxprofile, the
// same fields as the platform's, the GSTIN optional): the supplier block,
// prefix, series and payee of its customers' documents.
func (ProfileParties) Issuer(ctx context.Context, r ResellerBilling, resellerID uint64) (*Supplier, error) {
	sp, err := r.ResellerSupplier(ctx, resellerID)
	if errors.Is(err, taxprofile.ErrNoResellerSupplier) {
		return nil, ErrResellerBillingMissing.Wrap(fmt.Errorf("reseller %d has no billing record", resellerID))
	}
	if err != nil {
		return nil, err
	}
	rate := decimal.NewFromInt(1) // GSTIN optional: Ready asks it only above rate 0
	if sp.GSTIN == "" {
		rate = decimal.Zero
	}
	if err := sp.Ready(rate); err != nil {
		return nil, ErrResellerBillingMissing.Wrap(fmt.Errorf("reseller %d: %w", resellerID, err))
	}
	sup := toSupplier(sp)
	sup.IssuerID = &resellerID
	return sup, nil
}

// Recipient is u's billing profile; without one, the account's name and
// email, unregistered, its place of supply the supplier's state.
func (ProfileParties) Recipient(ctx context.Context, profiles Profiles, u *user.User) (invoice.Party, error) {
	p, err := profiles.Profile(ctx, u.ID)
	if errors.Is(err, taxprofile.ErrNoProfile) {
		return invoice.Party{LegalName: u.Name, Email: u.Email}, nil
	}
	if err != nil {
		return invoice.Party{}, err
	}
	return invoice.Party{LegalName: p.LegalName, Address: p.Address, State: p.State, GSTIN: p.GSTIN, Email: u.Email}, nil
}
