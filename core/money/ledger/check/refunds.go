package check

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

// RefundStuckAfter is how long past payment.RefundDeadline a refund may
// still be pending before the check reports it: the refund worker fails
// an overdue refund on its next look (at most payment.RefundCheckMax).
const RefundStuckAfter = payment.RefundCheckMax + 10*time.Minute

// userRefunds are a merchant's refunds, read before their ledger, and the
// ledger's moves of each (reference_type refund).
type userRefunds struct {
	list  []payment.Refund
	moves map[uint64]*hitMoves
}

func (c *Checker) readRefunds(ctx context.Context, userID uint64) (*userRefunds, error) {
	u := &userRefunds{moves: map[uint64]*hitMoves{}}
	if c.st.Refunds == nil {
		return u, nil
	}
	// Read before the ledger: a refund's debit commits with its row, and a
	// failure's give-back with its state, so every refund read here has
	// its money rows in the later ledger read.
	err := c.st.Refunds.ForEachByUser(ctx, userID, func(r payment.Refund) error {
		u.list = append(u.list, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read refunds of user %d: %w", userID, err)
	}
	return u, nil
}

// add counts e when it moves money of a refund.
func (u *userRefunds) add(e ledger.Entry) {
	if e.ReferenceType != ledger.RefRefund || e.ReferenceID == nil {
		return
	}
	m := u.moves[*e.ReferenceID]
	if m == nil {
		m = &hitMoves{}
		u.moves[*e.ReferenceID] = m
	}
	switch e.Type {
	case ledger.Debit:
		m.debits++
		m.debitSum = m.debitSum.Add(e.Amount)
	case ledger.Refund, ledger.Credit:
		m.refunds++
		m.refundSum = m.refundSum.Add(e.Amount)
	}
}

// checkRefunds: every refund debited its merchant once, by its amount; a
// failed one was given back once, others never; none is pending past its
// deadline; every payment's refunded total is the sum of its refunds not
// failed and at most its amount. A refund that moved on between the reads
// is judged as it stands when read again.
func (c *Checker) checkRefunds(ctx context.Context, userID uint64, u *userRefunds, bad func(string, ...any)) error {
	if c.st.Refunds == nil {
		return nil
	}
	now := c.now()
	payments := map[uint64]bool{}
	for _, r := range u.list {
		payments[r.PaymentID] = true
		m := u.moves[r.ID]
		delete(u.moves, r.ID)
		if m == nil {
			m = &hitMoves{}
		}
		problem := refundProblem(&r, m)
		if problem != "" {
			if cur, err := c.st.Refunds.ByID(ctx, r.ID); err == nil && cur.Status != r.Status && refundProblem(cur, m) == "" {
				continue // it ended between the reads
			}
			bad("%s", problem)
		}
		if r.Status == payment.RefundPending && now.Sub(r.CreatedAt) > payment.RefundDeadline+RefundStuckAfter {
			bad("refund %s has been pending since %s, past its deadline", r.PublicID, r.CreatedAt.Format(time.RFC3339))
		}
	}
	for id, m := range u.moves {
		cur, err := c.st.Refunds.ByID(ctx, id)
		if err == nil && cur.UserID == userID {
			continue // created after the refunds were read
		}
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return fmt.Errorf("read refund %d: %w", id, err)
		}
		bad("ledger rows reference refund id %d that is not this user's (%d debits, %d give-backs)", id, m.debits, m.refunds)
	}
	for id := range payments {
		if err := c.checkRefundedTotal(ctx, id, bad); err != nil {
			return err
		}
	}
	return nil
}

// refundProblem describes how r's money rows m disagree with it, or "".
func refundProblem(r *payment.Refund, m *hitMoves) string {
	if m.debits != 1 || !m.debitSum.Equal(r.Amount) {
		return fmt.Sprintf("refund %s of %s has %d debits totalling %s", r.PublicID, r.Amount.StringFixed(2), m.debits, m.debitSum.StringFixed(2))
	}
	want := 0
	if r.Status == payment.RefundFailed {
		want = 1
	}
	if m.refunds != want || (want == 1 && !m.refundSum.Equal(r.Amount)) {
		return fmt.Sprintf("%s refund %s has %d give-backs totalling %s", r.Status, r.PublicID, m.refunds, m.refundSum.StringFixed(2))
	}
	return ""
}

// checkRefundedTotal: the payment's refunded total is the sum of its
// refunds not failed, within its amount. Both move in one transaction; a
// mismatch is read again once before it is reported.
func (c *Checker) checkRefundedTotal(ctx context.Context, paymentID uint64, bad func(string, ...any)) error {
	var problem string
	for try := 0; try < 2; try++ {
		p, err := c.st.Payments.ByID(ctx, paymentID)
		if err != nil {
			return fmt.Errorf("read payment %d: %w", paymentID, err)
		}
		list, err := c.st.Refunds.ByPayment(ctx, paymentID)
		if err != nil {
			return fmt.Errorf("read refunds of payment %d: %w", paymentID, err)
		}
		sum := decimal.Zero
		for _, r := range list {
			if r.Status != payment.RefundFailed {
				sum = sum.Add(r.Amount)
			}
		}
		switch {
		case sum.GreaterThan(p.Amount):
			problem = fmt.Sprintf("payment %s of %s has refunds totalling %s", p.PublicID, p.Amount.StringFixed(2), sum.StringFixed(2))
		case !sum.Equal(p.Refunded):
			problem = fmt.Sprintf("payment %s records %s refunded, its refunds not failed total %s", p.PublicID, p.Refunded.StringFixed(2), sum.StringFixed(2))
		case len(list) > 0 && p.Status != payment.StatusSuccess:
			problem = fmt.Sprintf("payment %s is %s but has refunds", p.PublicID, p.Status)
		default:
			return nil
		}
	}
	bad("%s", problem)
	return nil
}
