package check

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/recharge"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/resale/settlement"
)

// Deps are what the check reads.
type Deps struct {
	// Stores are the repositories the check reads (ports.go; StoresOf
	// takes them from the unit of work's).
	Stores Stores
	// Settled waits until the writes queued after earlier answers (the
	// settlements of successful calls) have been made, so the check reads
	// them; nil: nothing to wait for.
	Settled func(ctx context.Context) error
	// Now is the clock of "pending too long" (refunds); nil: time.Now.
	Now func() time.Time
	// Location is TIMEZONE: the local hours and days of the usage
	// roll-ups; nil: UTC.
	Location *time.Location
}

// Checker runs the ledger check.
type Checker struct {
	st      Stores
	settled func(ctx context.Context) error
	now     func() time.Time
	loc     *time.Location
}

// New builds a Checker.
func New(d Deps) *Checker {
	if d.Settled == nil {
		d.Settled = func(context.Context) error { return nil }
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Location == nil {
		d.Location = time.UTC
	}
	return &Checker{st: d.Stores, settled: d.Settled, now: d.Now, loc: d.Location}
}

// Discrepancy is one way the books disagree with themselves.
type Discrepancy struct {
	UserID uint64
	What   string
}

func (d Discrepancy) String() string { return fmt.Sprintf("user %d: %s", d.UserID, d.What) }

type hitMoves struct {
	debits, refunds     int
	debitSum, refundSum decimal.Decimal
}

// Check verifies, for every user: the entries chain (each
// balance_before is the previous balance_after, each after = before ±
// amount), the balance equals Σ credits + refunds − debits and the last
// balance_after; every billed hit has exactly one debit of its charge and no
// refund; every successful hit was charged the charge it was admitted for,
// unless it records why not (chargeProblem); every failed hit that
// reserved a charge has one debit and one equal refund; no hit is left
// pending; every recharge has one debit of its amount and, when failed, one
// equal refund; the held money is the unused
// money of the user's open holds, within the balance; every successful
// payment credited its user once with its amount and debited its recorded
// fee once (none when zero), and no other payment moved money; every
// payout's amount was debited once and given back once when it failed or
// was reversed, its fee given back once when it failed, and none is stuck;
// the hourly usage roll-up equals the user's final hits per service and
// local hour, and each closed day's daily roll-up its hours (usage.go);
// the plan fees agree with the subscription's periods (plans.go); every
// issued invoice adds up and equals its month's billable entries
// (invoices.go).
func (c *Checker) Check(ctx context.Context) ([]Discrepancy, error) {
	if err := c.settled(ctx); err != nil {
		return nil, err
	}
	ids, err := c.st.Users.IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	var out []Discrepancy
	legs := newCrossLegs()
	for _, id := range ids {
		ds, err := c.checkUser(ctx, id, legs)
		if err != nil {
			return out, err
		}
		out = append(out, ds...)
	}
	ds, err := c.checkResellers(ctx, legs)
	if err != nil {
		return out, err
	}
	return append(out, ds...), nil
}

func (c *Checker) checkUser(ctx context.Context, id uint64, legs *crossLegs) ([]Discrepancy, error) {
	u, err := c.st.Users.ByID(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("read user %d: %w", id, err)
	}
	var out []Discrepancy
	bad := func(format string, args ...any) {
		out = append(out, Discrepancy{UserID: id, What: fmt.Sprintf(format, args...)})
	}
	// Recharges, refunds, payments and payouts are read before the ledger: each of
	// their money rows commits with their row (status), so every one read
	// here has its money rows in the later ledger read.
	recharges, payments, err := c.readOperations(ctx, id)
	if err != nil {
		return nil, err
	}
	refunds, err := c.readRefunds(ctx, id)
	if err != nil {
		return nil, err
	}
	payouts, err := c.readPayouts(ctx, id)
	if err != nil {
		return nil, err
	}
	fees, err := c.readPlanFees(ctx, id)
	if err != nil {
		return nil, err
	}
	w, err := c.walkLedger(ctx, id, refunds, bad)
	if err != nil {
		return nil, err
	}
	legs.add(w.cross)
	if !u.Balance.Equal(w.running) {
		bad("balance %s, last balance_after %s", u.Balance.StringFixed(2), w.running.StringFixed(2))
	}
	if !u.Balance.Equal(w.sum) {
		bad("balance %s, credits + refunds - debits = %s", u.Balance.StringFixed(2), w.sum.StringFixed(2))
	}
	if u.Balance.IsNegative() {
		bad("negative balance %s", u.Balance.StringFixed(2))
	}
	if err := c.checkHolds(ctx, u, bad); err != nil {
		return nil, err
	}
	hours, err := c.checkHits(ctx, id, w.hits, bad)
	if err != nil {
		return nil, err
	}
	if err := c.checkUsage(ctx, id, hours, bad); err != nil {
		return nil, err
	}
	if err := c.checkRecharges(ctx, id, recharges, w.recharges, bad); err != nil {
		return nil, err
	}
	if err := c.checkRefunds(ctx, id, refunds, bad); err != nil {
		return nil, err
	}
	if err := c.checkPayments(ctx, id, payments, w.payments, bad); err != nil {
		return nil, err
	}
	if err := c.checkPayouts(ctx, id, payouts, w.payouts, bad); err != nil {
		return nil, err
	}
	fees.paid, fees.debits = w.planFees.paid, w.planFees.debits
	due := "" // a deleted account is not renewed
	if !u.IsDeleted() {
		due = plan.Month(c.now().Add(-renewalLeeway), c.loc)
	}
	checkPlanFees(fees, due, bad)
	if err := c.checkInvoices(ctx, id, bad); err != nil {
		return nil, err
	}
	return out, nil
}

// readOperations reads the user's recharges and payments (stores without
// them read none).
func (c *Checker) readOperations(ctx context.Context, id uint64) ([]recharge.Recharge, []payment.Payment, error) {
	var recharges []recharge.Recharge
	if c.st.Recharges != nil {
		if err := c.st.Recharges.ForEachByUser(ctx, id, func(r recharge.Recharge) error {
			recharges = append(recharges, r)
			return nil
		}); err != nil {
			return nil, nil, fmt.Errorf("read recharges of user %d: %w", id, err)
		}
	}
	var payments []payment.Payment
	if c.st.Payments != nil {
		if err := c.st.Payments.ForEachByUser(ctx, id, func(p payment.Payment) error {
			payments = append(payments, p)
			return nil
		}); err != nil {
			return nil, nil, fmt.Errorf("read payments of user %d: %w", id, err)
		}
	}
	return recharges, payments, nil
}

// ledgerWalk is what one pass over a user's ledger found: the last
// balance_after, the signed sum, and the money rows by the hit, recharge
// and payment they reference.
type ledgerWalk struct {
	running, sum decimal.Decimal
	hits         map[uint64]*hitMoves
	recharges    map[uint64]*hitMoves
	payments     map[uint64]*paymentMoves
	payouts      map[uint64]*payoutMoves
	planFees     planFees       // only its paid and debits
	cross        []ledger.Entry // entries that move money between two accounts (resellers.go)
}

// walkLedger reads the user's ledger in order, checking that each row
// follows from the one before and gathering the rows by reference
// (refunds' rows go to refunds).
func (c *Checker) walkLedger(ctx context.Context, id uint64, refunds *userRefunds, bad func(string, ...any)) (*ledgerWalk, error) {
	w := &ledgerWalk{running: decimal.Zero, sum: decimal.Zero, hits: map[uint64]*hitMoves{},
		recharges: map[uint64]*hitMoves{}, payments: map[uint64]*paymentMoves{}, payouts: map[uint64]*payoutMoves{},
		planFees: planFees{paid: map[uint64]decimal.Decimal{}, debits: map[uint64]int{}}}
	err := c.st.Ledger.ForEachByUser(ctx, id, func(e ledger.Entry) error {
		if !e.BalanceBefore.Equal(w.running) {
			bad("%s: balance_before %s, previous balance_after %s", e.TxnID, e.BalanceBefore.StringFixed(2), w.running.StringFixed(2))
		}
		want, err := ledger.Apply(e.BalanceBefore, e.Type, e.Amount)
		if err != nil || !want.Equal(e.BalanceAfter) {
			bad("%s: %s of %s from %s gives %s, not %s", e.TxnID, e.Type, e.Amount.StringFixed(2), e.BalanceBefore.StringFixed(2), want.StringFixed(2), e.BalanceAfter.StringFixed(2))
		}
		if e.Type == ledger.Debit {
			w.sum = w.sum.Sub(e.Amount)
		} else {
			w.sum = w.sum.Add(e.Amount)
		}
		w.running = e.BalanceAfter
		refunds.add(e)
		if e.ReferenceID == nil {
			return nil
		}
		switch e.ReferenceType {
		case ledger.RefPayment, ledger.RefPaymentFee:
			w.payments[*e.ReferenceID] = w.payments[*e.ReferenceID].add(e)
		case ledger.RefAPIHit:
			moveOf(w.hits, *e.ReferenceID).add(e)
		case ledger.RefRecharge:
			moveOf(w.recharges, *e.ReferenceID).add(e)
		case ledger.RefPayout, ledger.RefPayoutFee:
			w.addPayout(e)
		case ledger.RefPlanFee:
			w.planFees.add(e)
		case ledger.RefTransfer, settlement.RefCommission:
			w.cross = append(w.cross, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read ledger of user %d: %w", id, err)
	}
	return w, nil
}

// moveOf is byRef's entry for ref, made when missing.
func moveOf(byRef map[uint64]*hitMoves, ref uint64) *hitMoves {
	m := byRef[ref]
	if m == nil {
		m = &hitMoves{}
		byRef[ref] = m
	}
	return m
}

// add counts a debit or a refund (other types do not move a hit's or a
// recharge's money).
func (m *hitMoves) add(e ledger.Entry) {
	switch e.Type {
	case ledger.Debit:
		m.debits++
		m.debitSum = m.debitSum.Add(e.Amount)
	case ledger.Refund:
		m.refunds++
		m.refundSum = m.refundSum.Add(e.Amount)
	}
}

// checkHits: a settled hit has one debit of its charge (none when it
// charged nothing) and no refund; a failed one has its debit refunded (or
// neither); none is still pending; no ledger row references another
// user's hit. It returns the user's final hits tallied per service and
// local hour (checkUsage).
func (c *Checker) checkHits(ctx context.Context, id uint64, moves map[uint64]*hitMoves, bad func(string, ...any)) (hourTally, error) {
	hours := hourTally{}
	err := c.st.Hits.ForEachByUser(ctx, id, func(h hitlog.Hit) error {
		hours.addHit(h, c.loc)
		m := moves[h.ID]
		delete(moves, h.ID)
		if m == nil {
			m = &hitMoves{}
		}
		switch h.Status {
		case hitlog.StatusSuccess:
			if h.ChargeAmount.IsPositive() && (m.debits != 1 || !m.debitSum.Equal(h.ChargeAmount)) {
				bad("hit %s charged %s has %d debits totalling %s", h.RequestID, h.ChargeAmount.StringFixed(4), m.debits, m.debitSum.StringFixed(2))
			}
			if !h.ChargeAmount.IsPositive() && m.debits != 0 {
				bad("hit %s charged nothing but has %d debits", h.RequestID, m.debits)
			}
			if m.refunds != 0 {
				bad("successful hit %s has %d refunds", h.RequestID, m.refunds)
			}
			if problem := chargeProblem(h); problem != "" {
				bad("%s", problem)
			}
		case hitlog.StatusFailed, hitlog.StatusInsufficientBalance:
			if !h.ChargeAmount.IsZero() {
				bad("failed hit %s records charge %s", h.RequestID, h.ChargeAmount.StringFixed(4))
			}
			if m.debits != m.refunds || m.debits > 1 || !m.debitSum.Equal(m.refundSum) {
				bad("failed hit %s has %d debits (%s) and %d refunds (%s)", h.RequestID, m.debits, m.debitSum.StringFixed(2), m.refunds, m.refundSum.StringFixed(2))
			}
		case hitlog.StatusPending:
			bad("hit %s is still pending (reserved %s, not settled)", h.RequestID, h.Reserved.StringFixed(2))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read hits of user %d: %w", id, err)
	}
	for hitID, m := range moves {
		bad("ledger rows reference hit id %d that is not this user's (%d debits, %d refunds)", hitID, m.debits, m.refunds)
	}
	return hours, nil
}

// chargeProblem reports a successful hit not charged what it was admitted
// for: a call served free (or charged another price) with no recorded
// reason. A hit that names why it was not charged (hitlog.Hit.Uncharged)
// must then be charged nothing; one written before admissions were
// recorded (Admitted nil) is not compared.
func chargeProblem(h hitlog.Hit) string {
	switch {
	case h.Admitted == nil:
		return ""
	case h.Uncharged != "":
		if !h.ChargeAmount.IsZero() {
			return fmt.Sprintf("hit %s is marked uncharged (%s) but charged %s", h.RequestID, h.Uncharged, h.ChargeAmount.StringFixed(4))
		}
		return ""
	case !h.ChargeAmount.Equal(*h.Admitted):
		return fmt.Sprintf("successful hit %s was admitted at %s but charged %s", h.RequestID, h.Admitted.StringFixed(4), h.ChargeAmount.StringFixed(4))
	}
	return ""
}

// checkRecharges: every recharge has one debit of its amount; a failed one
// also one equal refund, others none. On a live system a recharge may fail
// between the two reads (its refund in the ledger, its row read pending),
// so a mismatch is reported only if the recharge read again still
// disagrees; ledger rows of recharges created after the first read are
// left to the next check.
func (c *Checker) checkRecharges(ctx context.Context, userID uint64, list []recharge.Recharge, moves map[uint64]*hitMoves, bad func(string, ...any)) error {
	if c.st.Recharges == nil {
		return nil
	}
	for _, r := range list {
		m := moves[r.ID]
		delete(moves, r.ID)
		if m == nil {
			m = &hitMoves{}
		}
		problem := rechargeProblem(&r, m)
		if problem == "" {
			continue
		}
		if cur, err := c.st.Recharges.ByID(ctx, r.ID); err == nil && cur.Status != r.Status && rechargeProblem(cur, m) == "" {
			continue // it moved on between the reads
		}
		bad("%s", problem)
	}
	for id, m := range moves {
		cur, err := c.st.Recharges.ByID(ctx, id)
		if err == nil && cur.UserID == userID {
			continue // created after the recharges were read
		}
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return fmt.Errorf("read recharge %d: %w", id, err)
		}
		bad("ledger rows reference recharge id %d that is not this user's (%d debits, %d refunds)", id, m.debits, m.refunds)
	}
	return nil
}

// rechargeProblem describes how r's money rows m disagree with it, or "".
func rechargeProblem(r *recharge.Recharge, m *hitMoves) string {
	if m.debits != 1 || !m.debitSum.Equal(r.Amount) {
		return fmt.Sprintf("recharge %s of %s has %d debits totalling %s", r.ReferenceID, r.Amount.StringFixed(2), m.debits, m.debitSum.StringFixed(2))
	}
	wantRefunds := 0
	if r.Status == recharge.StatusFailed {
		wantRefunds = 1
	}
	if m.refunds != wantRefunds || (wantRefunds == 1 && !m.refundSum.Equal(r.Amount)) {
		return fmt.Sprintf("%s recharge %s has %d refunds totalling %s", r.Status, r.ReferenceID, m.refunds, m.refundSum.StringFixed(2))
	}
	return ""
}

// checkHolds: the user's held money is the money their open holds have not
// charged, never negative nor above the balance, and no hold charged more
// calls or money than it set aside. On a live system a hold may be taken,
// charged from or released between the reads of the user and of the
// holds, so a mismatch is reported only if it stays after reading both
// again twice.
func (c *Checker) checkHolds(ctx context.Context, u *user.User, bad func(string, ...any)) error {
	for try := 0; ; try++ {
		holds, err := c.st.Holds.ByUser(ctx, u.ID)
		if err != nil {
			return fmt.Errorf("read holds of user %d: %w", u.ID, err)
		}
		sum := decimal.Zero
		var overused []string
		for _, h := range holds {
			money, calls := h.Unused()
			if money.IsNegative() || calls < 0 {
				overused = append(overused, fmt.Sprintf("hold %d charged %d calls (%s) of %d (%s)",
					h.ID, h.UsedCalls, h.UsedMoney.StringFixed(2), h.Calls, h.Amount().StringFixed(2)))
			}
			sum = sum.Add(money)
		}
		if (sum.Equal(u.HeldAmount) && len(overused) == 0) || try == 2 {
			for _, o := range overused {
				bad("%s", o)
			}
			if !sum.Equal(u.HeldAmount) {
				bad("held %s, open holds' unused money %s", u.HeldAmount.StringFixed(2), sum.StringFixed(2))
			}
			break
		}
		if u, err = c.st.Users.ByID(ctx, u.ID); err != nil {
			return fmt.Errorf("read user %d: %w", u.ID, err)
		}
	}
	if u.HeldAmount.IsNegative() || u.HeldAmount.GreaterThan(u.Balance) {
		bad("held %s outside the balance %s", u.HeldAmount.StringFixed(2), u.Balance.StringFixed(2))
	}
	return nil
}

// paymentMoves are the ledger rows of one payment: its credits (reference
// payment) and fee debits (reference payment_fee), and any other row
// under those references.
type paymentMoves struct {
	credits, fees     int
	creditSum, feeSum decimal.Decimal
	other             int
}

func (m *paymentMoves) add(e ledger.Entry) *paymentMoves {
	if m == nil {
		m = &paymentMoves{}
	}
	switch {
	case e.ReferenceType == ledger.RefPayment && e.Type == ledger.Credit:
		m.credits++
		m.creditSum = m.creditSum.Add(e.Amount)
	case e.ReferenceType == ledger.RefPaymentFee && e.Type == ledger.Debit:
		m.fees++
		m.feeSum = m.feeSum.Add(e.Amount)
	default:
		m.other++
	}
	return m
}

// checkPayments: every successful payment credited its beneficiary (the
// payment's user) exactly once with its amount, and debited its fee once
// when it has one; a payment that did not succeed moved no money. A payment
// that succeeded between the reads (its rows in the ledger, its row read
// open) is read again before it is reported; rows of payments made after
// the first read are left to the next check.
func (c *Checker) checkPayments(ctx context.Context, userID uint64, list []payment.Payment, moves map[uint64]*paymentMoves, bad func(string, ...any)) error {
	if c.st.Payments == nil {
		return nil
	}
	for _, p := range list {
		m := moves[p.ID]
		delete(moves, p.ID)
		if m == nil {
			m = &paymentMoves{}
		}
		problem := paymentProblem(&p, m)
		if problem == "" {
			continue
		}
		if cur, err := c.st.Payments.ByID(ctx, p.ID); err == nil && cur.Status != p.Status && paymentProblem(cur, m) == "" {
			continue // it succeeded between the reads
		}
		bad("%s", problem)
	}
	for id, m := range moves {
		cur, err := c.st.Payments.ByID(ctx, id)
		if err == nil && cur.UserID == userID && paymentProblem(cur, m) == "" {
			continue // made and completed after the payments were read
		}
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return fmt.Errorf("read payment %d: %w", id, err)
		}
		bad("ledger rows reference payment id %d that is not this user's (%d credits, %d fee debits)", id, m.credits, m.fees)
	}
	return nil
}

// paymentProblem describes how p's money rows m disagree with it, or "".
func paymentProblem(p *payment.Payment, m *paymentMoves) string {
	if m.other != 0 {
		return fmt.Sprintf("payment %s has %d ledger rows that are neither its credit nor its fee", p.PublicID, m.other)
	}
	if p.Status != payment.StatusSuccess {
		if m.credits != 0 || m.fees != 0 {
			return fmt.Sprintf("%s payment %s has %d credits and %d fee debits", p.Status, p.PublicID, m.credits, m.fees)
		}
		return ""
	}
	if m.credits != 1 || !m.creditSum.Equal(p.Amount) {
		return fmt.Sprintf("successful payment %s of %s has %d credits totalling %s", p.PublicID, p.Amount.StringFixed(2), m.credits, m.creditSum.StringFixed(2))
	}
	wantFees := 0
	if p.Fee.IsPositive() {
		wantFees = 1
	}
	if p.Purpose == payment.PurposeBalance && wantFees != 0 {
		return fmt.Sprintf("balance payment %s records a fee of %s", p.PublicID, p.Fee.StringFixed(2))
	}
	if m.fees != wantFees || (wantFees == 1 && !m.feeSum.Equal(p.Fee)) {
		return fmt.Sprintf("successful payment %s with fee %s has %d fee debits totalling %s", p.PublicID, p.Fee.StringFixed(2), m.fees, m.feeSum.StringFixed(2))
	}
	return ""
}
