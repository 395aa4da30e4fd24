package issuing

import (
	"context"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/platform/errs"
)

// Register is the GSTR-1 register of month (YYYY-MM, in TIMEZONE) of the
// documents actor issued and dated in it: an admin's are the platform's, a
// reseller's those it issued to its customers (never the platform's to it:
// the register is its issuer's return); anyone else is refused.
func (v *Invoicing) Register(ctx context.Context, actor *user.User, month string) (*invoice.Register, error) {
	var issuer uint64
	switch actor.Role {
	case user.RoleAdmin:
	case user.RoleReseller:
		issuer = actor.ID
	default:
		return nil, errs.ErrForbidden
	}
	start, end, err := plan.Bounds(month, v.cfg.Location)
	if err != nil {
		fe := errs.FieldErrors{}
		fe.Add("month", "must be a month, YYYY-MM")
		return nil, fe.Err()
	}
	docs, err := v.s.Invoices.ByIssueDate(ctx, issuer, start, end)
	if err != nil {
		return nil, err
	}
	// A credit note to an unregistered recipient in another state is a
	// B2CL one when the invoice it corrects was: read that invoice's value.
	corrected := map[uint64]decimal.Decimal{}
	for i := range docs {
		d := &docs[i]
		if d.Kind != invoice.KindCreditNote || d.CorrectsID == nil || d.Recipient.GSTIN != "" || d.IntraState() || d.BillOfSupply() {
			continue
		}
		if _, ok := corrected[*d.CorrectsID]; ok {
			continue
		}
		was, err := v.s.Invoices.ByID(ctx, *d.CorrectsID)
		if err != nil {
			return nil, err
		}
		corrected[was.ID] = was.Totals.Gross
	}
	reg := invoice.NewRegister(docs, corrected)
	reg.Month, reg.From, reg.To = month, start, end
	if issuer != 0 {
		reg.IssuerID = &issuer
	}
	return &reg, nil
}
