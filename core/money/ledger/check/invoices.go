package check

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/money/ledger"
)

// checkInvoices proves the user's issued documents (docs/decisions.md, "Tax
// invoices") as they were issued (DocumentProblems: every line's taxable
// value and tax add up to its gross, the totals are the lines' sums), and
// that an invoice's gross equals the billable debits of its account and
// month less the refunds of those debits in the month, as the ledger holds them now; a credit note's gross equals the
// month's refunds of the charges of the month it corrects. A reseller's
// billable amount adds its customers' at its cost (invoice.AtCost); and per
// reseller and finished month, its customers' invoiced gross less their
// commission equals the customers' lines of its own invoice (checkResold).
func (c *Checker) checkInvoices(ctx context.Context, id uint64, bad func(string, ...any)) error {
	if c.st.Invoices == nil {
		return nil
	}
	if err := c.checkResold(ctx, id, bad); err != nil {
		return err
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
	for _, p := range DocumentProblems(inv) {
		bad("%s", p)
	}
	start, end, err := plan.Bounds(inv.Month, c.loc)
	if err != nil {
		return err
	}
	charges, err := c.st.Invoices.Charges(ctx, inv.UserID, start, end)
	if err != nil {
		return fmt.Errorf("read charges of user %d: %w", inv.UserID, err)
	}
	resold, err := c.st.Invoices.CustomerCharges(ctx, inv.UserID, start, end)
	if err != nil {
		return fmt.Errorf("read the charges of the customers of user %d: %w", inv.UserID, err)
	}
	charges = append(charges, invoice.AtCost(resold)...)
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

// DocumentProblems are what is wrong within a stored document, read as it
// was issued: a line whose taxable value and taxes do not add up to its
// gross, a line or total whose CGST and SGST are more than a paisa apart or
// beside IGST, totals that are not the lines' sums. It never splits a gross
// again: a document issued before CGST and SGST were equal (the odd paisa
// then went to SGST) holds as it was issued, and one issued since holds
// with equal halves; neither is recomputed under today's rule.
func DocumentProblems(inv *invoice.Invoice) []string {
	var out []string
	paisa := decimal.New(1, -2)
	heads := func(what string, cgst, sgst, igst decimal.Decimal) {
		if cgst.Sub(sgst).Abs().GreaterThan(paisa) || !igst.IsZero() && !(cgst.IsZero() && sgst.IsZero()) {
			out = append(out, fmt.Sprintf("%s %s %s: CGST %s, SGST %s and IGST %s are not the heads of one tax", inv.Kind, inv.Number, what,
				cgst.StringFixed(2), sgst.StringFixed(2), igst.StringFixed(2)))
		}
	}
	for _, l := range inv.Lines {
		if !l.Taxable.Add(l.CGST).Add(l.SGST).Add(l.IGST).Equal(l.Gross) {
			out = append(out, fmt.Sprintf("%s %s line %q: taxable %s and tax do not add up to its gross %s", inv.Kind, inv.Number, l.Description,
				l.Taxable.StringFixed(2), l.Gross.StringFixed(2)))
		}
		heads(fmt.Sprintf("line %q", l.Description), l.CGST, l.SGST, l.IGST)
	}
	if sum := invoice.Sum(inv.Lines); !totalsEqual(sum, inv.Totals) {
		out = append(out, fmt.Sprintf("%s %s: totals %+v are not the sums of its lines %+v", inv.Kind, inv.Number, inv.Totals, sum))
	}
	return out
}

func totalsEqual(a, b invoice.Totals) bool {
	return a.Gross.Equal(b.Gross) && a.Taxable.Equal(b.Taxable) && a.CGST.Equal(b.CGST) && a.SGST.Equal(b.SGST) && a.IGST.Equal(b.IGST)
}

// checkResold proves, for reseller id and every finished month of an
// invoice it received or issued, that its customers' invoiced gross less
// the commission on their charges equals the customers' lines of its own
// invoice (docs/decisions.md, "Tax invoices, credit notes and statements").
func (c *Checker) checkResold(ctx context.Context, id uint64, bad func(string, ...any)) error {
	own := map[string]*invoice.Invoice{}
	gross := map[string]decimal.Decimal{}
	for page := 1; ; page++ {
		docs, total, err := c.st.Invoices.List(ctx, invoice.Filter{Party: id, Kind: invoice.KindInvoice, Page: page, PerPage: 100})
		if err != nil {
			return fmt.Errorf("read invoices of reseller %d: %w", id, err)
		}
		for i := range docs {
			d := &docs[i]
			switch {
			case d.UserID == id:
				own[d.Month] = d
				if slices.ContainsFunc(d.Lines, func(l invoice.Line) bool { return l.Resold }) {
					gross[d.Month] = gross[d.Month].Add(decimal.Zero)
				}
			case d.IssuerID != nil && *d.IssuerID == id:
				gross[d.Month] = gross[d.Month].Add(d.Totals.Gross)
			}
		}
		if int64(page*100) >= total {
			break
		}
	}
	for month, g := range gross {
		done, err := c.st.Invoices.MonthDone(ctx, month)
		if err != nil {
			return err
		}
		if !done {
			continue // a month being issued is proved once finished
		}
		start, end, err := plan.Bounds(month, c.loc)
		if err != nil {
			return err
		}
		charges, err := c.st.Invoices.CustomerCharges(ctx, id, start, end)
		if err != nil {
			return fmt.Errorf("read the charges of the customers of user %d: %w", id, err)
		}
		if want, got := Resold(g, charges, own[month], month, c.loc); !want.Equal(got) {
			bad("reseller %d, %s: its customers' invoices %s less their commission make %s, its invoice's customers' lines %s",
				id, month, g.StringFixed(2), want.StringFixed(2), got.StringFixed(2))
		}
	}
	return nil
}

// Resold is what the customers' part of a reseller's invoice of month
// must be (want: its customers' invoiced gross less the commission of
// their charges of the month, net of the commission the month's refunds
// of them cancelled) and what it is (got: the resold lines of own, nil
// when the reseller has no invoice). A commission counts in the month its
// charge was debited (local, in loc), the month the customer's invoice
// bills the charge in.
func Resold(customersGross decimal.Decimal, charges []invoice.Charge, own *invoice.Invoice, month string, loc *time.Location) (want, got decimal.Decimal) {
	want = customersGross
	for _, ch := range charges {
		switch {
		case ch.Type == ledger.Debit:
			want = want.Sub(ch.Commission)
		case ch.Type == ledger.Refund && plan.Month(ch.ChargedAt, loc) == month:
			want = want.Add(ch.Commission)
		}
	}
	if own != nil {
		for _, l := range own.Lines {
			if l.Resold {
				got = got.Add(l.Gross)
			}
		}
	}
	return want, got
}
