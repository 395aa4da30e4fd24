package invoice

import (
	"cmp"
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// The GSTR-1 register (docs/decisions.md, "Tax invoices, credit notes and
// statements"): an issuer's documents dated in one month, each with the
// GSTR-1 table it is reported in, and the SAC summary of their lines
// (table 12), whose sums are the documents' sums.

// Section is the GSTR-1 table a document is reported in.
type Section string

const (
	SectionB2B   Section = "b2b"   // 4A: an invoice to a registered recipient (a GSTIN)
	SectionB2CL  Section = "b2cl"  // 5: an inter-state invoice to an unregistered recipient above B2CLimit
	SectionB2CS  Section = "b2cs"  // 7: any other invoice to an unregistered recipient, and its credit notes
	SectionCDNR  Section = "cdnr"  // 9B: a credit note to a registered recipient
	SectionCDNUR Section = "cdnur" // 9B: a credit note of a B2CL invoice
	SectionNil   Section = "nil"   // 8: a bill of supply (rate 0)
)

// B2CLimit is the invoice value above which an inter-state supply to an
// unregistered recipient is reported invoice by invoice (B2CL), in force
// since 1 August 2024 (it was ₹2,50,000 before).
var B2CLimit = decimal.NewFromInt(100_000)

// Scope splits the SAC summary as GSTR-1 table 12 does since May 2025:
// supplies to registered (b2b) and unregistered (b2c) recipients.
type Scope string

const (
	ScopeB2B Scope = "b2b"
	ScopeB2C Scope = "b2c"
)

// RegisterRow is one document of the register.
type RegisterRow struct {
	Section Section
	Doc     *Invoice
}

// SACRow is one row of the SAC summary: the lines of one scope, SAC and
// rate, credit notes' lines subtracted (so a row may be negative).
type SACRow struct {
	Scope    Scope
	SAC      string
	Rate     decimal.Decimal
	Quantity int64
	Totals   Totals
}

// RegisterTotals are the documents' sums: the invoices', the credit
// notes' and the net (invoices less credit notes), which the SAC summary
// adds up to.
type RegisterTotals struct {
	Invoices, CreditNotes, Net Totals
}

// Register is a month's GSTR-1 register of one issuer.
type Register struct {
	Month    string        // "2026-12": the documents dated in it
	From, To time.Time     // the month's bounds
	IssuerID *uint64       // the reseller whose register it is; nil: the platform's
	Rows     []RegisterRow // in the order of docs
	SAC      []SACRow      // by scope (b2b first), SAC and rate
	Totals   RegisterTotals
}

// SectionOf is the GSTR-1 table of inv. corrected is the value (gross) of
// the invoice a credit note corrects, when known: a credit note is a B2CL
// one (cdnur) when either value is above B2CLimit (zero: the note's own
// value decides).
func SectionOf(inv *Invoice, corrected decimal.Decimal) Section {
	credit := inv.Kind == KindCreditNote
	switch {
	case inv.BillOfSupply():
		return SectionNil
	case inv.Recipient.GSTIN != "" && credit:
		return SectionCDNR
	case inv.Recipient.GSTIN != "":
		return SectionB2B
	}
	large := !inv.IntraState() && decimal.Max(inv.Totals.Gross, corrected).GreaterThan(B2CLimit)
	switch {
	case large && credit:
		return SectionCDNUR
	case large:
		return SectionB2CL
	}
	return SectionB2CS
}

// NewRegister is the register of docs (one issuer's documents of a month).
// corrected holds, by invoice id, the value of the invoices that credit
// notes to unregistered recipients correct (SectionOf).
func NewRegister(docs []Invoice, corrected map[uint64]decimal.Decimal) Register {
	type key struct {
		scope Scope
		sac   string
		rate  string
	}
	reg := Register{Rows: make([]RegisterRow, 0, len(docs))}
	sums := map[key]*SACRow{}
	for i := range docs {
		d := &docs[i]
		var was decimal.Decimal
		if d.CorrectsID != nil {
			was = corrected[*d.CorrectsID]
		}
		reg.Rows = append(reg.Rows, RegisterRow{Section: SectionOf(d, was), Doc: d})
		sign := decimal.NewFromInt(1)
		if d.Kind == KindCreditNote {
			sign = sign.Neg()
			reg.Totals.CreditNotes = addTotals(reg.Totals.CreditNotes, d.Totals, decimal.NewFromInt(1))
		} else {
			reg.Totals.Invoices = addTotals(reg.Totals.Invoices, d.Totals, decimal.NewFromInt(1))
		}
		reg.Totals.Net = addTotals(reg.Totals.Net, d.Totals, sign)
		scope := ScopeB2C
		if d.Recipient.GSTIN != "" {
			scope = ScopeB2B
		}
		for _, l := range d.Lines {
			k := key{scope, l.SAC, d.Rate.StringFixed(2)}
			row := sums[k]
			if row == nil {
				row = &SACRow{Scope: scope, SAC: l.SAC, Rate: d.Rate}
				sums[k] = row
			}
			row.Quantity += sign.IntPart() * l.Quantity
			row.Totals = addTotals(row.Totals, Totals{Gross: l.Gross, Taxable: l.Taxable, CGST: l.CGST, SGST: l.SGST, IGST: l.IGST}, sign)
		}
	}
	for _, row := range sums {
		reg.SAC = append(reg.SAC, *row)
	}
	slices.SortFunc(reg.SAC, func(a, b SACRow) int {
		return cmp.Or(cmp.Compare(a.Scope, b.Scope), cmp.Compare(a.SAC, b.SAC), a.Rate.Cmp(b.Rate))
	})
	return reg
}

// addTotals is t plus sign × u, column by column.
func addTotals(t, u Totals, sign decimal.Decimal) Totals {
	return Totals{Gross: t.Gross.Add(u.Gross.Mul(sign)), Taxable: t.Taxable.Add(u.Taxable.Mul(sign)), CGST: t.CGST.Add(u.CGST.Mul(sign)),
		SGST: t.SGST.Add(u.SGST.Mul(sign)), IGST: t.IGST.Add(u.IGST.Mul(sign))}
}
