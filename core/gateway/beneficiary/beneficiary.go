// Package beneficiary keeps an account's saved payout beneficiaries: a bank
// account or a UPI address, saved only once an account verification
// (gateway's account-verify, billed like any verification) found it, then
// chosen from a list in the panel's payout form.
package beneficiary

import (
	"context"
	"time"

	"paygate/core/gateway/payout"
	"paygate/core/platform/errs"
)

// MaxPerUser is how many beneficiaries one account may save.
const MaxPerUser = 200

var (
	ErrNotFound    = errs.E(errs.NotFound, "beneficiary_not_found", "Beneficiary not found")
	ErrTooMany     = errs.E(errs.Conflict, "beneficiary_limit_reached", "At most 200 saved beneficiaries: delete one first")
	ErrNotVerified = &errs.Error{Kind: errs.Invalid, Code: "beneficiary_not_verified",
		Message: "The account verification did not find this account: it was not saved", Fields: map[string][]string{"beneficiary": {"was not verified"}}}
)

// Beneficiary is one saved payee of an account.
type Beneficiary struct {
	ID           uint64
	UserID       uint64
	Payee        payout.Beneficiary // Type bank_account (AccountNumber, IFSC) or vpa (VPA)
	NameAtSource string             // the name the verification found
	VerifiedAt   time.Time
	CreatedAt    time.Time
}

// Repository stores beneficiaries; every read and delete is scoped to the
// owner (another account's beneficiary is ErrNotFound).
type Repository interface {
	Create(ctx context.Context, b *Beneficiary) error
	ListByUser(ctx context.Context, userID uint64) ([]Beneficiary, error)
	ByID(ctx context.Context, userID, id uint64) (*Beneficiary, error)
	Delete(ctx context.Context, userID, id uint64) (bool, error)
	CountByUser(ctx context.Context, userID uint64) (int, error)
}
