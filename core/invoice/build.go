package invoice

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gst"
	"paygate/core/ledger"
)

// Charge is billable ledger entries of an account, summed: charges
// debited (metered or gateway calls of one service, plan fees, collection
// fees) or refunds of them. Top-ups, transfers, payouts' and payments'
// principal are not supplies and never become charges.
type Charge struct {
	Type   ledger.Type     // Debit, or Refund of charges
	Count  int64           // the entries summed
	Amount decimal.Decimal // their sum
	Unit   *decimal.Decimal
	// Group is the line the entries belong to ("service:12",
	// "plan:growth", GroupCollectionFee), Label its description, SAC its
	// service's code ("" for the supplier's default; Build gives
	// collection fees gst.PaymentSAC).
	Group, Label, SAC string
	// ChargedAt is an instant of the month the charges were debited in:
	// for refunds, the month of the debits they give back.
	ChargedAt time.Time
	// Commission is what a reseller earned on a customer's charges
	// (CustomerCharges; zero otherwise), Resold marks them at its cost.
	Commission decimal.Decimal
	Resold     bool
}

// GroupCollectionFee is the group of collection fees (ledger payment_fee
// debits). No service bills them: their SAC is gst.PaymentSAC, financial
// transaction processing, whatever the supplier's default.
const GroupCollectionFee = "collection_fee"

// sacOf is c's SAC: its service's, gst.PaymentSAC for collection fees (a
// reseller's customers' too), else "" (the supplier's default).
func sacOf(c Charge) string {
	if c.SAC == "" && strings.TrimPrefix(c.Group, customersGroup) == GroupCollectionFee {
		return gst.PaymentSAC
	}
	return c.SAC
}

// customersGroup prefixes the groups of a reseller's customers' charges.
const customersGroup = "customers:"

// AtCost is a reseller's customers' charges as the platform bills them to
// the reseller: each at the customer's charge less the reseller's
// commission on it (a refund less the commission it cancelled), in lines
// of their own ("Customers' calls: <service>", "Customers' plan <name>",
// "Customers' collection fees"). The unit price stays only where no
// commission was earned: customers pay different prices.
func AtCost(charges []Charge) []Charge {
	out := make([]Charge, 0, len(charges))
	for _, c := range charges {
		c.Amount = c.Amount.Sub(c.Commission)
		if !c.Commission.IsZero() {
			c.Unit = nil
		}
		c.Group = customersGroup + c.Group
		switch {
		case strings.HasPrefix(c.Group, customersGroup+"service:"):
			c.Label = "Customers' calls: " + c.Label
		default:
			c.Label = "Customers' " + lowerFirst(c.Label)
		}
		c.Commission, c.Resold = decimal.Zero, true
		out = append(out, c)
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// One is a single entry of amount as a Charge.
func One(t ledger.Type, amount decimal.Decimal, group, label, sac string, chargedAt time.Time) Charge {
	return Charge{Type: t, Count: 1, Amount: amount, Unit: &amount, Group: group, Label: label, SAC: sac, ChargedAt: chargedAt}
}

// Month's documents: the invoice's lines and, for refunds of charges
// debited in earlier months, credit-note lines by the month they correct.
type Month struct {
	Lines   []Line
	Credits map[string][]Line // corrected month → lines
}

// Tax is how lines are taxed: the rate in percent and whether the supply
// stays in the supplier's state.
type Tax struct {
	Rate       decimal.Decimal
	IntraState bool
	DefaultSAC string
}

// Build groups an account's charges of month (local, in loc) into its
// invoice lines, net of refunds of charges debited in the month, and its
// credit-note lines for refunds of charges of earlier months. A line's
// quantity is its debits less its refunds, its unit price the debits'
// amount when they all had one, its gross the ledger's sum; a line that
// nets to zero is left out. Lines are in the order of their labels.
func Build(charges []Charge, month string, loc *time.Location, tax Tax) Month {
	type acc struct {
		label, sac string
		resold     bool
		n          int64
		gross      decimal.Decimal
		unit       *decimal.Decimal
		mixed      bool
	}
	own := map[string]*acc{}
	credits := map[string]map[string]*acc{}
	add := func(m map[string]*acc, c Charge, sign int64) {
		a := m[c.Group]
		if a == nil {
			a = &acc{label: c.Label, sac: sacOf(c), resold: c.Resold}
			m[c.Group] = a
		}
		a.n += sign * c.Count
		a.gross = a.gross.Add(c.Amount.Mul(decimal.NewFromInt(sign)))
		switch {
		case a.mixed:
		case c.Unit == nil:
			a.mixed = true
		case a.unit == nil:
			u := *c.Unit
			a.unit = &u
		case !a.unit.Equal(*c.Unit):
			a.mixed = true
		}
	}
	for _, c := range charges {
		switch {
		case c.Type == ledger.Debit:
			add(own, c, 1)
		case c.ChargedAt.In(loc).Format("2006-01") >= month:
			add(own, c, -1)
		default:
			m := c.ChargedAt.In(loc).Format("2006-01")
			if credits[m] == nil {
				credits[m] = map[string]*acc{}
			}
			add(credits[m], c, 1)
		}
	}
	lines := func(m map[string]*acc) []Line {
		var out []Line
		for _, a := range m {
			if a.gross.IsZero() {
				continue
			}
			sac := a.sac
			if sac == "" {
				sac = tax.DefaultSAC
			}
			l := Line{Description: a.label, SAC: sac, Quantity: a.n, Gross: a.gross, Resold: a.resold}
			if !a.mixed && a.unit != nil {
				l.UnitPrice = a.unit
			}
			l.Taxable, l.CGST, l.SGST, l.IGST = split(a.gross, tax)
			out = append(out, l)
		}
		slices.SortFunc(out, func(x, y Line) int { return cmp.Compare(x.Description, y.Description) })
		return out
	}
	out := Month{Lines: lines(own), Credits: map[string][]Line{}}
	for m, accs := range credits {
		if ls := lines(accs); len(ls) > 0 {
			out.Credits[m] = ls
		}
	}
	return out
}

// Retax is lines split again under tax (a credit note taxes its lines as
// the invoice it corrects did).
func Retax(lines []Line, tax Tax) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		l.Taxable, l.CGST, l.SGST, l.IGST = split(l.Gross, tax)
		out[i] = l
	}
	return out
}

// split is a line's gross as taxable value and tax heads.
func split(gross decimal.Decimal, tax Tax) (taxable, cgst, sgst, igst decimal.Decimal) {
	taxable, t := gst.Split(gross, tax.Rate)
	cgst, sgst, igst = gst.Heads(t, tax.IntraState)
	return taxable, cgst, sgst, igst
}

// Sum is the totals of lines.
func Sum(lines []Line) Totals {
	var t Totals
	for _, l := range lines {
		t.Gross = t.Gross.Add(l.Gross)
		t.Taxable = t.Taxable.Add(l.Taxable)
		t.CGST = t.CGST.Add(l.CGST)
		t.SGST = t.SGST.Add(l.SGST)
		t.IGST = t.IGST.Add(l.IGST)
	}
	return t
}
