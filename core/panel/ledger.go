package panel

import (
	"paygate/core/errs"
)

// errBalanceTooLarge: a credit would not fit the balance's DECIMAL(12,2)
// (balance requests, admin adjustments).
var errBalanceTooLarge = errs.E(errs.Invalid, "balance_too_large", "The balance would exceed its maximum")
