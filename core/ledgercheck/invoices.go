package ledgercheck

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"paygate/core/invoice"
	"paygate/core/ledger"
	"paygate/core/plan"
)

// checkInvoices proves the user's issued documents (docs/decisions.md, "Tax
// invoices"): every line's taxable value and tax add up to its gross, the
// totals are the lines' sums, and an invoice's gross equals the billable
// debits of its account and month less the refunds of those debits in the
// month, as the ledger holds them now; a credit note's gross equals the
// month's refunds of the charges of the month it corrects.
func (c *Checker) checkInvoices(ctx context.Context, id uint64, bad func(string, ...any)) error {
	if c.st.Invoices == nil {
		return nil
	}
	for page := 1; ; page++ {
		docs, total, err := c.st.Invoices.List(ctx, invoice.Filter{UserID: id, Page: page, PerPage: 100})
		if err != nil {
			return fmt.Errorf("read invoices of user %d: %w", id, err)
		}
		for i := range docs {
			if err := c.checkInvoice(ctx, &docs[i], bad); err != nil {
				return err
			}
		}
		if int64(page*100) >= total {
			return nil
		}
	}
}

func (c *Checker) checkInvoice(ctx context.Context, inv *invoice.Invoice, bad func(string, ...any)) error {
	for _, l := range inv.Lines {
		if !l.Taxable.Add(l.CGST).Add(l.SGST).Add(l.IGST).Equal(l.Gross) {
			bad("%s %s line %q: taxable %s and tax do not add up to its gross %s", inv.Kind, inv.Number, l.Description,
				l.Taxable.StringFixed(2), l.Gross.StringFixed(2))
		}
	}
	if sum := invoice.Sum(inv.Lines); !totalsEqual(sum, inv.Totals) {
		bad("%s %s: totals %+v are not the sums of its lines %+v", inv.Kind, inv.Number, inv.Totals, sum)
	}
	start, end, err := plan.Bounds(inv.Month, c.loc)
	if err != nil {
		return err
	}
	charges, err := c.st.Invoices.Charges(ctx, inv.UserID, start, end)
	if err != nil {
		return fmt.Errorf("read charges of user %d: %w", inv.UserID, err)
	}
	corrected := inv.Month
	if inv.Kind == invoice.KindCreditNote {
		orig, err := c.st.Invoices.ByID(ctx, *inv.CorrectsID)
		if err != nil {
			return fmt.Errorf("read the invoice credit note %s corrects: %w", inv.Number, err)
		}
		corrected = orig.Month
	}
	want := decimal.Zero
	for _, ch := range charges {
		charged := plan.Month(ch.ChargedAt, c.loc)
		switch {
		case inv.Kind == invoice.KindInvoice && ch.Type == ledger.Debit:
			want = want.Add(ch.Amount)
		case inv.Kind == invoice.KindInvoice && ch.Type == ledger.Refund && charged == inv.Month:
			want = want.Sub(ch.Amount)
		case inv.Kind == invoice.KindCreditNote && ch.Type == ledger.Refund && charged == corrected:
			want = want.Add(ch.Amount)
		}
	}
	if !want.Equal(inv.Totals.Gross) {
		bad("%s %s for %s: gross %s, the ledger's billable amount %s", inv.Kind, inv.Number, inv.Month,
			inv.Totals.Gross.StringFixed(2), want.StringFixed(2))
	}
	return nil
}

func totalsEqual(a, b invoice.Totals) bool {
	return a.Gross.Equal(b.Gross) && a.Taxable.Equal(b.Taxable) && a.CGST.Equal(b.CGST) && a.SGST.Equal(b.SGST) && a.IGST.Equal(b.IGST)
}
