package panel

import (
	"context"
	"errors"
	"fmt"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/money/transfer"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// ErrBalanceFull answers a transfer the receiving balance cannot hold.
var ErrBalanceFull = errs.E(errs.Conflict, "balance_too_large", "The receiving balance would exceed its largest value")

// ErrCustomerNotConfirmed answers a move of money, either way, with a
// customer that has not confirmed its email and accepted its reseller yet
// (status pending): the account may not be the reseller's to fund or drain.
var ErrCustomerNotConfirmed = errs.E(errs.Conflict, "customer_not_confirmed",
	"The customer has not confirmed its email address yet; money moves once it has")

// Moved is a transfer as written, with both balances after it.
type Moved struct {
	Transfer transfer.Transfer
	Reseller *user.User
	Customer *user.User
}

// MoveStores are the repositories Move writes in its caller's transaction.
type MoveStores struct {
	store.Books
	Users     user.Repository
	Transfers transfer.Repository
}

// Move writes transfer t between a reseller and its customer in
// transaction s: both user rows locked in id order (so two transfers of the
// same pair, either way, never deadlock), the paying side's available
// balance (balance less held money) checked (ledger.ErrInsufficientBalance),
// the transfers row, then a debit on the paying side and a credit on the
// other (reference_type transfer, reference_id the row). A customer that is
// not t.ResellerID's (or gone, or not of role user) is user.ErrNotFound; a
// pending one ErrCustomerNotConfirmed; a from_customer transfer takes at
// most what the reseller funded (transfer.Funded: transfer.ErrBeyondFunded).
func Move(ctx context.Context, s MoveStores, now time.Time, live bool, t *transfer.Transfer) (*Moved, error) {
	first, second := t.ResellerID, t.CustomerID
	if second < first {
		first, second = second, first
	}
	locked := map[uint64]*user.User{}
	for _, id := range []uint64{first, second} {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return nil, user.ErrNotFound
			}
			return nil, fmt.Errorf("lock user %d: %w", id, err)
		}
		if u.IsDeleted() {
			return nil, user.ErrNotFound
		}
		locked[id] = u
	}
	r, c := locked[t.ResellerID], locked[t.CustomerID]
	if r.Role != user.RoleReseller || c.Role != user.RoleUser || c.ParentID == nil || *c.ParentID != r.ID {
		return nil, user.ErrNotFound
	}
	if c.Status == user.StatusPending {
		return nil, ErrCustomerNotConfirmed
	}
	payer, payee := r, c
	if t.Direction == transfer.FromCustomer {
		payer, payee = c, r
		// Under both rows' locks, so no other transfer of the pair moves it.
		funded, err := s.Transfers.Funded(ctx, r.ID, c.ID)
		if err != nil {
			return nil, err
		}
		if t.Amount.GreaterThan(funded) {
			return nil, transfer.ErrBeyondFunded
		}
	}
	if payer.Available().LessThan(t.Amount) {
		return nil, ledger.ErrInsufficientBalance
	}
	if !inr.FitsColumn(payee.Balance.Add(t.Amount), 12, 2) {
		return nil, ErrBalanceFull
	}
	t.CreatedAt = now.UTC()
	if err := s.Transfers.Insert(ctx, t); err != nil {
		return nil, err
	}
	ref := t.ID
	what := fmt.Sprintf("Transfer #%d to %s", t.ID, payee.Name)
	if _, err := store.Post(ctx, s.Books, now, live, payer, ledger.Debit, t.Amount, ledger.RefTransfer, &ref, what); err != nil {
		if errors.Is(err, ledger.ErrInsufficientBalance) {
			return nil, ledger.ErrInsufficientBalance
		}
		return nil, err
	}
	if _, err := store.Post(ctx, s.Books, now, live, payee, ledger.Credit, t.Amount, ledger.RefTransfer, &ref,
		fmt.Sprintf("Transfer #%d from %s", t.ID, payer.Name)); err != nil {
		return nil, err
	}
	for _, u := range []*user.User{payer, payee} {
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return nil, fmt.Errorf("save balance of user %d: %w", u.ID, err)
		}
	}
	// transfer.created tells each side, with its own balance after it.
	for _, u := range []*user.User{r, c} {
		if err := store.EmitMode(ctx, s.Webhooks, now, u, webhook.TransferCreated, map[string]any{
			"transfer_id": t.ID, "reseller_id": r.ID, "customer_id": c.ID, "direction": string(t.Direction),
			"amount": inr.Format2(t.Amount), "balance": inr.Format2(u.Balance), "created_at": t.CreatedAt.UTC().Format(time.RFC3339Nano),
		}, "", live); err != nil {
			return nil, err
		}
	}
	return &Moved{Transfer: *t, Reseller: r, Customer: c}, nil
}
