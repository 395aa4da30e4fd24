package invoice

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/money/ledger"
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
	// PayoutFee marks a refund of a failed payout's fee (its group is the
	// payout call's service): a credit note's reason names it so.
	PayoutFee bool
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
	// Reasons word why each month's credit note is issued: "Refund of "
	// and what its refunds give back ("2 calls to Echo API", "the fee of
	// a failed payout"), at most 255 characters.
	Reasons map[string]string // corrected month → reason
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
// nets to zero is left out. Lines are in the order of their labels. Each
// credit note's reason says what its refunds give back (Month.Reasons).
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
	refunds := map[string]map[refunded]int64{} // corrected month → what → items
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
			if refunds[m] == nil {
				refunds[m] = map[refunded]int64{}
			}
			refunds[m][refundOf(c)] += c.Count
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
	out := Month{Lines: lines(own), Credits: map[string][]Line{}, Reasons: map[string]string{}}
	for m, accs := range credits {
		if ls := lines(accs); len(ls) > 0 {
			out.Credits[m] = ls
			out.Reasons[m] = reason(refunds[m])
		}
	}
	return out
}

// refunded is a kind of thing a refund gives back, as a credit note's
// reason words it.
type refunded struct {
	kind  int // refundCall, refundCustomerCall, refundPayoutFee, refundOther
	label string
}

const (
	refundCall = iota
	refundCustomerCall
	refundPayoutFee
	refundOther
)

func refundOf(c Charge) refunded {
	switch {
	case c.PayoutFee:
		return refunded{refundPayoutFee, ""}
	case strings.HasPrefix(c.Group, "customers:service:"):
		return refunded{refundCustomerCall, strings.TrimPrefix(c.Label, "Customers' calls: ")}
	case strings.HasPrefix(c.Group, "service:"):
		return refunded{refundCall, c.Label}
	default:
		return refunded{refundOther, lowerFirst(c.Label)}
	}
}

// words is n items of r: "2 calls to Echo API", "the fee of a failed payout".
func (r refunded) words(n int64) string {
	many := n != 1
	switch {
	case r.kind == refundPayoutFee && many:
		return fmt.Sprintf("the fees of %d failed payouts", n)
	case r.kind == refundPayoutFee:
		return "the fee of a failed payout"
	case r.kind == refundCall && many:
		return fmt.Sprintf("%d calls to %s", n, r.label)
	case r.kind == refundCall:
		return "a call to " + r.label
	case r.kind == refundCustomerCall && many:
		return fmt.Sprintf("%d customers' calls to %s", n, r.label)
	case r.kind == refundCustomerCall:
		return "a customer's call to " + r.label
	default:
		return fmt.Sprintf("%s (%d)", r.label, n)
	}
}

// maxReason is the reason column's width, in characters.
const maxReason = 255

// reason words a credit note's refunds: "Refund of 2 calls to Echo API and
// the fee of a failed payout", calls first, each kind by its label; cut
// short ("and more") past maxReason.
func reason(items map[refunded]int64) string {
	keys := slices.SortedFunc(maps.Keys(items), func(a, b refunded) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.label, b.label))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.words(items[k])
	}
	out := "Refund of " + strings.Join(parts, " and ")
	for utf8.RuneCountInString(out) > maxReason && len(parts) > 1 {
		parts = parts[:len(parts)-1]
		out = "Refund of " + strings.Join(parts, ", ") + " and more"
	}
	if r := []rune(out); len(r) > maxReason {
		out = string(r[:maxReason-3]) + "..."
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
	return gst.Heads(gross, tax.Rate, tax.IntraState)
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
