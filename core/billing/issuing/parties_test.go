package issuing_test

import (
	"context"
	"errors"
	"testing"

	"paygate/core/billing/issuing"
	"paygate/core/billing/taxprofile"
)

type records map[uint64]*taxprofile.Supplier

func (r records) ResellerSupplier(_ context.Context, id uint64) (*taxprofile.Supplier, error) {
	if s, ok := r[id]; ok {
		return s, nil
	}
	return nil, taxprofile.ErrNoResellerSupplier
}

// A reseller's customers' documents are issued from its own record: its
// name, prefix and payee, marked with its id; no record, or one without a
// name, address or state, is ErrResellerBillingMissing (the documents
// wait); a GSTIN is not needed (a bill of supply).
func TestIssuerIsTheResellersRecord(t *testing.T) {
	full := &taxprofile.Supplier{LegalName: "Asha Digital Services", Address: "Bengaluru", State: "29", InvoicePrefix: "AD",
		SAC: "998319", UPI: "asha@icici"}
	cases := []struct {
		name    string
		rec     records
		missing bool
	}{
		{"no record", records{}, true},
		{"incomplete: no address", records{7: {LegalName: "Asha", State: "29", InvoicePrefix: "IN", SAC: "998319"}}, true},
		{"complete, no GSTIN", records{7: full}, false},
		{"another reseller's record is not its own", records{8: full}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sup, err := issuing.ProfileParties{}.Issuer(context.Background(), c.rec, 7)
			if c.missing {
				if !errors.Is(err, issuing.ErrResellerBillingMissing) {
					t.Fatalf("err %v, want reseller_billing_missing", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if sup.IssuerID == nil || *sup.IssuerID != 7 || sup.Party.LegalName != "Asha Digital Services" || sup.Prefix != "AD" ||
				sup.Payee.UPI != "asha@icici" || sup.Party.GSTIN != "" {
				t.Fatalf("issuer %+v", sup)
			}
		})
	}
}
