package accounts

import (
	"paygate/core/platform/errs"
)

// errBalanceTooLarge: a credit would not fit the balance's DECIMAL(12,2)
// (admin adjustments; balance requests answer topup.ErrBalanceFull, same code).
var errBalanceTooLarge = errs.E(errs.Invalid, "balance_too_large", "The balance would exceed its maximum")
