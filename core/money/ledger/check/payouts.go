package check

import (
	"context"
	"fmt"

	"paygate/core/gateway/payout"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// payoutMoves are the money rows of one payout: its amount (reference_type
// payout) and its fee's refund (payout_fee).
type payoutMoves struct{ amount, fee hitMoves }

func (w *ledgerWalk) addPayout(e ledger.Entry) {
	m := w.payouts[*e.ReferenceID]
	if m == nil {
		m = &payoutMoves{}
		w.payouts[*e.ReferenceID] = m
	}
	if e.ReferenceType == ledger.RefPayoutFee {
		m.fee.add(e)
	} else {
		m.amount.add(e)
	}
}

// readPayouts reads the user's payouts (stores without them read none).
func (c *Checker) readPayouts(ctx context.Context, id uint64) ([]payout.Payout, error) {
	var out []payout.Payout
	if c.st.Payouts == nil {
		return nil, nil
	}
	if err := c.st.Payouts.ForEachByUser(ctx, id, func(p payout.Payout) error {
		out = append(out, p)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("read payouts of user %d: %w", id, err)
	}
	return out, nil
}

// checkPayouts: every payout has one debit of its amount; a failed or
// reversed one also one equal refund of it, others none; a failed one whose
// call kept its fee one refund of the fee (payout_fee), others none; none is still pending or
// processing past payout.StuckAfter. As with recharges, a payout that moved
// between the reads is read again before a mismatch is reported, and
// ledger rows of payouts created after the first read are left to the next
// check.
func (c *Checker) checkPayouts(ctx context.Context, userID uint64, list []payout.Payout, moves map[uint64]*payoutMoves, bad func(string, ...any)) error {
	if c.st.Payouts == nil {
		return nil
	}
	now := c.now()
	for _, p := range list {
		m := moves[p.ID]
		delete(moves, p.ID)
		if m == nil {
			m = &payoutMoves{}
		}
		call, err := c.payoutCall(ctx, &p)
		if err != nil {
			return err
		}
		feeKept := call != nil && call.Status == hitlog.StatusSuccess && call.ChargeAmount.IsPositive()
		if problem := payoutProblem(&p, m, feeKept); problem != "" {
			if cur, err := c.st.Payouts.ByID(ctx, p.ID); err != nil || cur.Status == p.Status || payoutProblem(cur, m, feeKept) != "" {
				bad("%s", problem)
			}
		}
		// A refunded fee earns its reseller nothing: the refund cancels
		// the call's commission in its transaction (issue 43).
		if m.fee.refunds > 0 && call != nil && !call.Commission.IsZero() {
			bad("payout %s's fee was refunded, but its call %s still earns its reseller %s of commission", p.PublicID, call.RequestID, call.Commission.StringFixed(4))
		}
		if p.Stuck(now) {
			bad("payout %s is still %s %s after its creation", p.PublicID, p.Status, now.Sub(p.CreatedAt).Round(1e9))
		}
	}
	for id, m := range moves {
		cur, err := c.st.Payouts.ByID(ctx, id)
		if err == nil && cur.UserID == userID {
			continue // created after the payouts were read
		}
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return fmt.Errorf("read payout %d: %w", id, err)
		}
		bad("ledger rows reference payout id %d that is not this user's (%d debits, %d refunds)", id, m.amount.debits, m.amount.refunds+m.fee.refunds)
	}
	return nil
}

// payoutCall is the call that charged p's fee; only when it kept the fee
// (settled success with a charge) does a failure give the fee back as
// payout_fee. Nil for a payout without a fee, or stores without hits.
func (c *Checker) payoutCall(ctx context.Context, p *payout.Payout) (*hitlog.Hit, error) {
	if !p.Fee.IsPositive() || p.RequestID == "" || c.st.Hits == nil {
		return nil, nil
	}
	h, err := c.st.Hits.ByRequestID(ctx, p.RequestID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, nil
		}
		return nil, fmt.Errorf("read the call of payout %s: %w", p.PublicID, err)
	}
	return h, nil
}

// payoutProblem describes how p's money rows m disagree with it, or "";
// feeKept says whether its call kept the fee.
func payoutProblem(p *payout.Payout, m *payoutMoves, feeKept bool) string {
	if m.amount.debits != 1 || !m.amount.debitSum.Equal(p.Amount) {
		return fmt.Sprintf("payout %s of %s has %d debits totalling %s", p.PublicID, p.Amount.StringFixed(2), m.amount.debits, m.amount.debitSum.StringFixed(2))
	}
	refunded := p.Status == payout.StatusFailed || p.Status == payout.StatusReversed
	if want := boolCount(refunded); m.amount.refunds != want || (refunded && !m.amount.refundSum.Equal(p.Amount)) {
		return fmt.Sprintf("%s payout %s has %d refunds of its amount totalling %s", p.Status, p.PublicID, m.amount.refunds, m.amount.refundSum.StringFixed(2))
	}
	feeBack := p.Status == payout.StatusFailed && feeKept
	if m.fee.debits != 0 || m.fee.refunds != boolCount(feeBack) || (feeBack && !m.fee.refundSum.Equal(p.Fee)) {
		return fmt.Sprintf("%s payout %s has %d refunds of its fee %s totalling %s", p.Status, p.PublicID, m.fee.refunds, p.Fee.StringFixed(4), m.fee.refundSum.StringFixed(4))
	}
	return ""
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}
