package issuing

import (
	"context"
	"errors"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/platform/errs"
)

// Documents as their owners and admins read them.

// List lists documents: an admin's any account's (f.UserID narrows), an
// owner's only their own. A reseller's are its own (f.UserID its id: as
// recipient) and those it issued to its customers (f.IssuerID set, or
// f.UserID a customer's: as issuer), both when neither is given; another
// reseller's customer's list is empty.
func (v *Invoicing) List(ctx context.Context, actor *user.User, f invoice.Filter) ([]invoice.Invoice, int64, error) {
	switch {
	case actor.Role == user.RoleAdmin:
	case actor.Role != user.RoleReseller:
		f.UserID, f.IssuerID, f.Party = actor.ID, 0, 0
	case f.IssuerID != 0 || f.UserID != 0 && f.UserID != actor.ID:
		f.IssuerID, f.Party = actor.ID, 0
	case f.UserID == actor.ID:
		f.Party = 0
	default:
		f.Party = actor.ID
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

// Get is document id, its owner's or its issuing reseller's, or any for an
// admin (another's is not found, as if it did not exist).
func (v *Invoicing) Get(ctx context.Context, actor *user.User, id uint64) (*invoice.Invoice, error) {
	inv, err := v.s.Invoices.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	issuer := actor.Role == user.RoleReseller && inv.IssuerID != nil && *inv.IssuerID == actor.ID
	if actor.Role != user.RoleAdmin && inv.UserID != actor.ID && !issuer {
		return nil, invoice.ErrNotFound
	}
	return inv, nil
}

// Upcoming is the draft of userID's invoice for at's month so far: the
// lines and totals the same code would issue, without a number. A month
// already issued (finished, or userID's invoice of it written) has no
// draft: nil, since nothing charged after it would ever be invoiced.
func (v *Invoicing) Upcoming(ctx context.Context, userID uint64, at time.Time) (*invoice.Invoice, error) {
	month := plan.Month(at, v.cfg.Location)
	start, end, err := plan.Bounds(month, v.cfg.Location)
	if err != nil {
		return nil, err
	}
	if issued, err := v.issued(ctx, userID, month); err != nil || issued {
		return nil, err
	}
	if err := v.settled(ctx); err != nil {
		return nil, err
	}
	u, err := v.s.Users.ByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	sup, err := v.shownSupplier(ctx, u)
	if err != nil {
		return nil, err
	}
	var draft *invoice.Invoice
	err = v.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.ByID(ctx, userID)
		if err != nil {
			return err
		}
		// So far: calls answered before at may be written after it.
		b, err := v.draft(ctx, s, sup, u, month, start, end, at, false)
		draft = b.invoice
		return err
	})
	return draft, err
}

// issued reports whether month was issued for userID: the month finished,
// or its invoice written (a run still going through the other accounts).
func (v *Invoicing) issued(ctx context.Context, userID uint64, month string) (bool, error) {
	if done, err := v.s.Invoices.MonthDone(ctx, month); err != nil || done {
		return done, err
	}
	_, err := v.s.Invoices.InvoiceOf(ctx, userID, month)
	if errors.Is(err, invoice.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// shownSupplier is the supplier a draft or a statement of u names: its
// reseller's record for a reseller's customer (its account name until it
// saves one: never the platform's block), else the platform's.
func (v *Invoicing) shownSupplier(ctx context.Context, u *user.User) (*Supplier, error) {
	sup, err := v.parties.Supplier(ctx, v.s.Profiles)
	if err != nil || u.ParentID == nil {
		return sup, err
	}
	rid := u.ParentID
	rs, err := v.parties.Issuer(ctx, v.s.Resellers, *rid)
	if errors.Is(err, ErrResellerBillingMissing) {
		r, rerr := v.s.Users.ByID(ctx, *rid)
		if rerr != nil {
			return nil, rerr
		}
		return &Supplier{Party: invoice.Party{LegalName: r.Name}, SAC: sup.SAC, IssuerID: rid}, nil
	}
	return rs, err
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
