package reconciliation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/gateway"
	"paygate/core/gateway/payment"
	"paygate/core/money"
	"paygate/core/money/statement"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// PaymentCompleter completes an open payment (its internal id) inside the
// caller's transaction: the gateway's one completion, which credits the
// merchant there too. ref is the bank reference (UTR), by who completed it.
// A payment already ended is payment.ErrFinal.
// A success its beneficiary's balance cannot hold is payment.ErrCreditHeld:
// after that transaction rolled back, HoldCredit holds the payment.
type PaymentCompleter interface {
	CompletePaymentIn(ctx context.Context, s gateway.SettleStores, paymentID uint64, ref, by string) (*payment.Payment, error)
	HoldCredit(ctx context.Context, paymentID uint64, by string) error
	// CountPaymentEnded counts a payment completed in a transaction that
	// committed (metrics).
	CountPaymentEnded(status payment.Status)
}

// TopUpApprover approves a pending balance request inside the caller's
// transaction (the panel's approval: credit, event, audit). One its owner's
// balance cannot hold is topup.ErrBalanceFull and leaves it pending.
type TopUpApprover interface {
	ApproveTopUpTx(ctx context.Context, s money.TxStores, actor *user.User, id uint64, remarks string) (*topup.Request, error)
}

// Deps are the ports reconciliation runs on.
type Deps struct {
	Tx       store.TransactorOf[TxStores]
	Stores   Stores
	Payments PaymentCompleter
	TopUps   TopUpApprover
	Now      func() time.Time
	Log      *slog.Logger // may be nil
}

// Reconciliation is the use case.
type Reconciliation struct {
	tx       store.TransactorOf[TxStores]
	st       Stores
	payments PaymentCompleter
	topups   TopUpApprover
	now      func() time.Time
	log      *slog.Logger
}

// New wires reconciliation.
func New(d Deps) *Reconciliation {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Reconciliation{tx: d.Tx, st: d.Stores, payments: d.Payments, topups: d.TopUps, now: d.Now, log: d.Log}
}

// Audit actions and target types of reconciliation.
const (
	ActionImport  = "reconciliation.import"
	ActionMatch   = "reconciliation.match"
	ActionDismiss = "reconciliation.dismiss"

	TargetStatement = "reconciliation_statement"
	TargetLine      = "reconciliation_line"
)

// importBatch is how many credit lines an import reads, records and
// matches at a time: memory holds one batch, never the file.
const importBatch = 1000

// lookupChunk bounds the references of one candidate query.
const lookupChunk = 1000

// ImportInput is one uploaded statement.
type ImportInput struct {
	FileName string
	Body     io.Reader
	Mapping  statement.Mapping
}

// Import reads a statement file line by line, records its credit lines not
// recorded before (re-importing a file records nothing), and matches the
// new ones, a batch at a time: each exact match completes its payment or
// approves its balance request in one transaction with the line's decision
// and audit entry. The statement's counts say what happened. A file that
// cannot be read to its end keeps the lines recorded before the error (each
// once, as any import) and its statement says how many.
func (r *Reconciliation) Import(ctx context.Context, actor *user.User, in ImportInput) (*statement.Statement, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	h := sha256.New()
	sr, err := statement.NewReader(io.TeeReader(in.Body, h), in.Mapping)
	if err != nil {
		return nil, err
	}
	now := r.now().UTC()
	st := &statement.Statement{ImportedBy: actor.ID, FileName: clip(in.FileName, 255), CreatedAt: now}
	// The statement and each batch of its lines commit before their
	// matches (a duplicate line is skipped), so a failed match leaves its
	// line unmatched, not lost.
	if err := r.st.Statements.CreateStatement(ctx, st); err != nil {
		return nil, err
	}
	planner := statement.NewPlanner()
	batch := make([]statement.Line, 0, importBatch)
	var readErr error
	for {
		l, err := sr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				readErr = err
			}
			break
		}
		if batch = append(batch, l); len(batch) == importBatch {
			if err := r.importLines(ctx, actor, st, planner, batch, now); err != nil {
				return nil, err
			}
			batch = batch[:0]
		}
	}
	if err := r.importLines(ctx, actor, st, planner, batch, now); err != nil {
		return nil, err
	}
	st.SHA256, st.DebitLines, st.Skipped = hex.EncodeToString(h.Sum(nil)), sr.Debits, sr.Skipped
	st.Unmatched = st.NewLines - st.Matched
	err = r.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Statements.UpdateStatement(ctx, st); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, r.now(), actor, ActionImport, TargetStatement, st.ID, nil, statementSnapshot(st))
	})
	if err != nil {
		return nil, err
	}
	if readErr != nil {
		return nil, readErr
	}
	return st, nil
}

// importLines records one batch of statement st's credit lines and
// matches the new ones as planned.
func (r *Reconciliation) importLines(ctx context.Context, actor *user.User, st *statement.Statement, planner *statement.Planner,
	lines []statement.Line, now time.Time) error {
	if len(lines) == 0 {
		return nil
	}
	st.CreditLines += len(lines)
	cands, err := r.candidates(ctx, lines)
	if err != nil {
		return err
	}
	plan := planner.Plan(lines, cands)
	for i := range lines {
		l := &lines[i]
		l.Status, l.Reason, l.CreatedAt, l.UpdatedAt = statement.StatusUnmatched, plan[i].Reason, now, now
		if plan[i].Target != statement.TargetNone {
			l.Reason = statement.ReasonNoMatch // until the match commits
		}
	}
	n, err := r.st.Statements.InsertLines(ctx, st.ID, lines)
	if err != nil {
		return err
	}
	st.NewLines += n
	var keys []string
	for i, d := range plan {
		if d.Target != statement.TargetNone {
			keys = append(keys, lines[i].Key)
		}
	}
	ids, err := r.st.Statements.IDsByKey(ctx, st.ID, keys)
	if err != nil {
		return err
	}
	for i, d := range plan {
		id, mine := ids[lines[i].Key]
		if d.Target == statement.TargetNone || !mine {
			continue // no match, or recorded by an earlier import
		}
		l := lines[i]
		l.ID, l.StatementID = id, st.ID
		switch err := r.match(ctx, actor, &l, d, true); {
		case errors.Is(err, payment.ErrCreditHeld):
			if err := r.payments.HoldCredit(ctx, d.TargetID, "reconciliation"); err != nil {
				return err
			}
			if err := r.st.Statements.SetReason(ctx, id, statement.ReasonCreditHeld); err != nil {
				return err
			}
		case errors.Is(err, topup.ErrBalanceFull):
			if err := r.balanceFull(ctx, &l, d.TargetID); err != nil {
				return err
			}
		case err == nil:
			st.Matched++
		case errs.KindOf(err) == errs.Conflict || errs.KindOf(err) == errs.NotFound:
			// Moved on since the plan (paid, expired, decided): it waits for an admin.
			if err := r.st.Statements.SetReason(ctx, id, reasonOf(err)); err != nil {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

// candidates reads the payments and balance requests the lines name.
func (r *Reconciliation) candidates(ctx context.Context, lines []statement.Line) (statement.Candidates, error) {
	utrSet, idSet := map[string]bool{}, map[string]bool{}
	for _, l := range lines {
		if l.UTR != "" {
			utrSet[l.UTR] = true
		}
		for _, id := range l.PayIDs {
			idSet[id] = true
		}
	}
	utrs, ids := sortedKeys(utrSet), sortedKeys(idSet)
	var pays []statement.PaymentRef
	var tops []statement.TopUpRef
	for start := 0; start < len(utrs) || start < len(ids); start += lookupChunk {
		u, p := chunk(utrs, start), chunk(ids, start)
		ps, err := r.st.Statements.Payments(ctx, u, p)
		if err != nil {
			return statement.Candidates{}, err
		}
		pays = append(pays, ps...)
		if len(u) > 0 {
			ts, err := r.st.Statements.TopUps(ctx, u)
			if err != nil {
				return statement.Candidates{}, err
			}
			tops = append(tops, ts...)
		}
	}
	return statement.NewCandidates(pays, tops), nil
}

func chunk(s []string, start int) []string {
	if start >= len(s) {
		return nil
	}
	return s[start:min(start+lookupChunk, len(s))]
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// match decides line l for target d in one transaction: the line's
// conditional update (one decision wins), the payment's completion or the
// request's approval, and the audit entry.
func (r *Reconciliation) match(ctx context.Context, actor *user.User, l *statement.Line, d statement.Decision, auto bool) error {
	var completed *payment.Payment
	err := r.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		completed = nil
		before := lineSnapshot(l)
		if err := l.Match(actor.ID, r.now()); err != nil {
			return err
		}
		switch d.Target {
		case statement.TargetPayment:
			p, err := s.Payments.ByID(ctx, d.TargetID)
			if err != nil {
				return err
			}
			if !p.Amount.Equal(l.Amount) {
				return statement.ErrAmountMismatch
			}
			pid := p.ID
			l.PaymentID, l.PaymentPublicID = &pid, &p.PublicID
		case statement.TargetTopUp, statement.TargetTopUpApproved:
			id := d.TargetID
			l.BalanceRequestID = &id
		}
		ok, err := s.Statements.Decide(ctx, l)
		if err != nil {
			if errs.KindOf(err) == errs.Conflict {
				return statement.ErrTargetTaken
			}
			return err
		}
		if !ok {
			return statement.ErrAlreadyDecided
		}
		switch d.Target {
		case statement.TargetPayment:
			p, err := r.payments.CompletePaymentIn(ctx, s.Gateway, d.TargetID, l.UTR, "reconciliation")
			if err != nil {
				return err
			}
			completed = p
		case statement.TargetTopUp:
			remarks := fmt.Sprintf("Reconciled with bank statement line #%d (statement %d, %s, ref %s, %s)",
				l.ID, l.StatementID, l.Date.Format(time.DateOnly), l.RefNo, inr.Format2(l.Amount))
			t, err := r.topups.ApproveTopUpTx(ctx, s.Money, actor, d.TargetID, remarks)
			if err != nil {
				return err
			}
			if !t.Amount.Equal(l.Amount) {
				return statement.ErrAmountMismatch
			}
		}
		after := lineSnapshot(l)
		after["auto"] = auto
		if d.Target == statement.TargetTopUpApproved {
			after["confirms_approval"] = true // approved by hand before the money showed; not credited again
		}
		return store.Record(ctx, s.Audit, r.now(), actor, ActionMatch, TargetLine, l.ID, before, after)
	})
	if err == nil && completed != nil {
		r.payments.CountPaymentEnded(completed.Status) // committed
	}
	return err
}

// balanceFull leaves line l unmatched (balance_full) when the balance
// request it pays, requestID, would overflow its owner's balance: the
// request stays pending for an admin to approve once the balance allows,
// and the operator is told, since money that arrived waits on them.
func (r *Reconciliation) balanceFull(ctx context.Context, l *statement.Line, requestID uint64) error {
	r.log.Error("statement line unmatched: the balance request's owner's balance cannot hold its credit",
		"line_id", l.ID, "statement_id", l.StatementID, "balance_request_id", requestID, "utr", l.UTR,
		"amount", inr.Format2(l.Amount))
	return r.st.Statements.SetReason(ctx, l.ID, statement.ReasonBalanceFull)
}

// reasonOf is the unmatched reason of a match that failed with err.
func reasonOf(err error) string {
	switch {
	case errors.Is(err, statement.ErrAmountMismatch):
		return statement.ReasonAmountMismatch
	case errors.Is(err, statement.ErrTargetTaken):
		return statement.ReasonTaken
	case errors.Is(err, topup.ErrAlreadyDecided), errors.Is(err, topup.ErrNotFound):
		return statement.ReasonDecided
	default:
		return statement.ReasonNotOpen
	}
}

// Lines lists statement lines, newest first (admin only).
func (r *Reconciliation) Lines(ctx context.Context, actor *user.User, f statement.Filter) ([]statement.Line, int64, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, 0, err
	}
	return r.st.Statements.List(ctx, f)
}

// Target is what an admin matches a line to: a payment (its payment_id)
// or a balance request (its id); exactly one.
type Target struct {
	PaymentID        string
	BalanceRequestID uint64
}

// Match matches an unmatched line by hand (admin only): the amount must
// equal the payment's or request's; an open payment completes, a pending
// request is approved, in the transaction that decides the line.
func (r *Reconciliation) Match(ctx context.Context, actor *user.User, lineID uint64, t Target) (*statement.Line, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	t.PaymentID = strings.TrimSpace(t.PaymentID)
	if (t.PaymentID == "") == (t.BalanceRequestID == 0) {
		return nil, errs.Validation(map[string][]string{"payment_id": {"give exactly one of payment_id and balance_request_id"}})
	}
	l, err := r.st.Statements.ByID(ctx, lineID)
	if err != nil {
		return nil, err
	}
	if l.Status != statement.StatusUnmatched {
		return nil, statement.ErrAlreadyDecided
	}
	d := statement.Decision{Target: statement.TargetTopUp, TargetID: t.BalanceRequestID}
	if t.PaymentID != "" {
		p, err := r.st.Payments.ByPublicID(ctx, t.PaymentID)
		if err != nil {
			return nil, err
		}
		if !p.Amount.Equal(l.Amount) {
			return nil, statement.ErrAmountMismatch
		}
		d = statement.Decision{Target: statement.TargetPayment, TargetID: p.ID}
	} else {
		req, err := r.st.TopUps.ByID(ctx, t.BalanceRequestID)
		if err != nil {
			return nil, err
		}
		if !req.Amount.Equal(l.Amount) {
			return nil, statement.ErrAmountMismatch
		}
	}
	if err := r.match(ctx, actor, l, d, false); err != nil {
		if errors.Is(err, payment.ErrCreditHeld) {
			herr := r.payments.HoldCredit(ctx, d.TargetID, "reconciliation")
			return nil, errors.Join(err, herr, r.st.Statements.SetReason(ctx, lineID, statement.ReasonCreditHeld))
		}
		if errors.Is(err, topup.ErrBalanceFull) {
			return nil, errors.Join(err, r.balanceFull(ctx, l, d.TargetID))
		}
		return nil, err
	}
	return l, nil
}

// Dismiss closes an unmatched line with a required note (admin only).
func (r *Reconciliation) Dismiss(ctx context.Context, actor *user.User, lineID uint64, note string) (*statement.Line, error) {
	if err := requireAdmin(actor); err != nil {
		return nil, err
	}
	err := r.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		l, err := s.Statements.ByID(ctx, lineID)
		if err != nil {
			return err
		}
		before := lineSnapshot(l)
		if err := l.Dismiss(actor.ID, note, r.now()); err != nil {
			return err
		}
		ok, err := s.Statements.Decide(ctx, l)
		if err != nil {
			return err
		}
		if !ok {
			return statement.ErrAlreadyDecided
		}
		return store.Record(ctx, s.Audit, r.now(), actor, ActionDismiss, TargetLine, l.ID, before, lineSnapshot(l))
	})
	if err != nil {
		return nil, err
	}
	return r.st.Statements.ByID(ctx, lineID)
}

func requireAdmin(actor *user.User) error {
	if actor == nil || actor.Role != user.RoleAdmin {
		return errs.ErrForbidden
	}
	return nil
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

func lineSnapshot(l *statement.Line) map[string]any {
	return map[string]any{"id": l.ID, "statement_id": l.StatementID, "date": l.Date.Format(time.DateOnly), "ref_no": l.RefNo,
		"utr": l.UTR, "amount": inr.Format2(l.Amount), "status": l.Status, "reason": l.Reason,
		"payment_id": l.PaymentPublicID, "balance_request_id": l.BalanceRequestID, "note": l.Note}
}

func statementSnapshot(s *statement.Statement) map[string]any {
	return map[string]any{"file_name": s.FileName, "sha256": s.SHA256, "credit_lines": s.CreditLines, "new_lines": s.NewLines,
		"debit_lines": s.DebitLines, "skipped_lines": s.Skipped, "matched": s.Matched, "unmatched": s.Unmatched}
}
