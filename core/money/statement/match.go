package statement

import (
	"strconv"

	"paygate/core/gateway/payment"
	"paygate/core/money/topup"
)

// Target kinds of a decision.
const (
	TargetNone    = ""
	TargetPayment = "payment"
	TargetTopUp   = "balance_request"
	// TargetTopUpApproved: the line pays a balance request an admin already
	// approved by hand (same UTR and amount). The line is matched to it as
	// its confirmation; nothing is credited again.
	TargetTopUpApproved = "balance_request_approved"
)

// Decision is what matching decided for one line: a target to complete
// or approve, or the reason it stays unmatched.
type Decision struct {
	Target   string // TargetPayment, TargetTopUp, TargetTopUpApproved or TargetNone
	TargetID uint64
	Reason   string // when Target is TargetNone
}

// Candidates are the open and closed payments and balance requests the
// file's references name.
type Candidates struct {
	PaymentsByUTR map[string]PaymentRef
	PaymentsByID  map[string]PaymentRef
	TopUpsByUTR   map[string]TopUpRef
}

// NewCandidates indexes what the store found. A reseller's customer's
// balance request is no candidate: the customer paid its reseller, so a
// line of the platform's statement never pays it, and only its reseller
// decides it (docs/decisions.md, "Resellers: customers pay their reseller").
func NewCandidates(pays []PaymentRef, tops []TopUpRef) Candidates {
	c := Candidates{PaymentsByUTR: map[string]PaymentRef{}, PaymentsByID: map[string]PaymentRef{}, TopUpsByUTR: map[string]TopUpRef{}}
	for _, p := range pays {
		c.PaymentsByID[p.PublicID] = p
		if p.UTR != "" {
			c.PaymentsByUTR[p.UTR] = p
		}
	}
	for _, t := range tops {
		if !t.Customer {
			c.TopUpsByUTR[t.UTR] = t
		}
	}
	return c
}

// Plan decides each line in file order: a line matches an open payment it
// names by id (the UPI tr in its narration) or by UTR, or a pending balance
// request by UTR, when the amount is equal. The same reference with another
// amount is amount_mismatch; a target already ended is payment_not_open or
// request_decided, except a request approved by hand for the same amount,
// which the line confirms (TargetTopUpApproved); a target an earlier line
// took is already_matched;
// nothing at all is no_match. Exact matches win over mismatches.
func Plan(lines []Line, c Candidates) []Decision {
	return NewPlanner().Plan(lines, c)
}

// Planner is Plan over a file read in batches: a target an earlier batch's
// line took stays taken (already_matched) for the later ones.
type Planner struct{ taken map[string]bool }

// NewPlanner starts a file.
func NewPlanner() *Planner { return &Planner{taken: map[string]bool{}} }

// Plan decides the next batch of the file's lines, as Plan does.
func (pl *Planner) Plan(lines []Line, c Candidates) []Decision {
	out := make([]Decision, len(lines))
	taken := pl.taken
	for i, l := range lines {
		var reasons []string
		try := func(kind string, id uint64, open bool, closed string, amountOK bool) bool {
			key := kind + ":" + strconv.FormatUint(id, 10)
			switch {
			case !amountOK:
				reasons = append(reasons, ReasonAmountMismatch)
			case taken[key]:
				reasons = append(reasons, ReasonTaken)
			case !open:
				reasons = append(reasons, closed)
			default:
				taken[key] = true
				out[i] = Decision{Target: kind, TargetID: id}
				return true
			}
			return false
		}
		matched := false
		for _, pid := range l.PayIDs {
			if p, ok := c.PaymentsByID[pid]; ok && !matched {
				matched = try(TargetPayment, p.ID, openPayment(p.Status), ReasonNotOpen, p.Amount.Equal(l.Amount))
			}
		}
		if p, ok := c.PaymentsByUTR[l.UTR]; ok && l.UTR != "" && !matched {
			matched = try(TargetPayment, p.ID, openPayment(p.Status), ReasonNotOpen, p.Amount.Equal(l.Amount))
		}
		if t, ok := c.TopUpsByUTR[l.UTR]; ok && l.UTR != "" && !matched {
			kind := TargetTopUp
			if t.Status == topup.StatusApproved {
				kind = TargetTopUpApproved // the money an admin credited arrived: confirm, do not credit again
			}
			matched = try(kind, t.ID, t.Status != topup.StatusRejected, ReasonDecided, t.Amount.Equal(l.Amount))
		}
		if !matched {
			out[i] = Decision{Reason: firstReason(reasons)}
		}
	}
	return out
}

func openPayment(s payment.Status) bool {
	return s == payment.StatusCreated || s == payment.StatusPending
}

// firstReason prefers the reason an admin can act on: a mismatch over a
// target already ended.
func firstReason(rs []string) string {
	for _, want := range []string{ReasonAmountMismatch, ReasonTaken, ReasonNotOpen, ReasonDecided} {
		for _, r := range rs {
			if r == want {
				return r
			}
		}
	}
	return ReasonNoMatch
}
