package invoicing

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/errs"
	"paygate/core/invoice"
	"paygate/core/plan"
	"paygate/core/store"
	"paygate/core/user"
)

// Documents as their owners and admins read them.

// List lists documents: an admin's any account's (f.UserID narrows), an
// owner's only their own.
func (v *Invoicing) List(ctx context.Context, actor *user.User, f invoice.Filter) ([]invoice.Invoice, int64, error) {
	if actor.Role != user.RoleAdmin {
		f.UserID = actor.ID
	}
	if f.Month != "" {
		if _, _, err := plan.Bounds(f.Month, v.cfg.Location); err != nil {
			fe := errs.FieldErrors{}
			fe.Add("month", "must be a month, YYYY-MM")
			return nil, 0, fe.Err()
		}
	}
	if f.Kind != "" && f.Kind != invoice.KindInvoice && f.Kind != invoice.KindCreditNote {
		fe := errs.FieldErrors{}
		fe.Add("kind", "must be invoice or credit_note")
		return nil, 0, fe.Err()
	}
	return v.s.Invoices.List(ctx, f)
}

// Get is document id, its owner's or any for an admin (another's is not
// found, as if it did not exist).
func (v *Invoicing) Get(ctx context.Context, actor *user.User, id uint64) (*invoice.Invoice, error) {
	inv, err := v.s.Invoices.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if actor.Role != user.RoleAdmin && inv.UserID != actor.ID {
		return nil, invoice.ErrNotFound
	}
	return inv, nil
}

// Upcoming is the draft of userID's invoice for at's month so far: the
// lines and totals the same code would issue, without a number.
func (v *Invoicing) Upcoming(ctx context.Context, userID uint64, at time.Time) (*invoice.Invoice, error) {
	month := plan.Month(at, v.cfg.Location)
	start, end, err := plan.Bounds(month, v.cfg.Location)
	if err != nil {
		return nil, err
	}
	if err := v.settled(ctx); err != nil {
		return nil, err
	}
	var draft *invoice.Invoice
	err = v.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		u, err := s.Users.ByID(ctx, userID)
		if err != nil {
			return err
		}
		sup, err := v.parties.Supplier(ctx, s.TaxProfiles)
		if err != nil {
			return err
		}
		rcp, err := v.parties.Recipient(ctx, s.TaxProfiles, u)
		if err != nil {
			return err
		}
		charges, err := s.Invoices.Charges(ctx, userID, start, end) // so far: calls answered before at may be written after it
		if err != nil {
			return err
		}
		draft = v.document(sup, rcp, userID, month, at, charges).invoice
		return nil
	})
	return draft, err
}

// PDF is inv drawn by the renderer, in TIMEZONE.
func (v *Invoicing) PDF(ctx context.Context, inv *invoice.Invoice) ([]byte, error) {
	if v.renderer == nil {
		return nil, errs.ErrUnavailable
	}
	return v.renderer.Invoice(ctx, inv, v.cfg.Location)
}

// Rate is GST_RATE, the rate documents are issued at.
func (v *Invoicing) Rate() decimal.Decimal { return v.cfg.Rate }
