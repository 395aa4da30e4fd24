package sandbox

import (
	"context"
	"strings"

	"paygate/core/recharge"
)

// Recharger is the sandbox recharge provider. Every recharge is pending
// when submitted, like a real operator's; the outcome on the next Check
// follows the request (table in README.md):
//
//   - mobile number ending 0000 → failed at once ("Invalid mobile number");
//   - rupee amount ending in 7 (17, 247.50) → failed after the pending phase
//     ("Operator declined");
//   - mobile number ending 9999 → the operator does not answer (Check
//     errors), so the recharge stays pending until the operator answers;
//   - anything else → success after the pending phase, with an operator
//     reference derived from the request.
type Recharger struct{}

var _ recharge.Provider = Recharger{}

func (Recharger) Submit(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return recharge.Outcome{}, err
	}
	if strings.HasSuffix(r.Mobile, "0000") {
		return recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil
	}
	return recharge.Outcome{Status: recharge.StatusPending}, nil
}

func (Recharger) Check(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return recharge.Outcome{}, err
	}
	switch {
	case strings.HasSuffix(r.Mobile, "9999"):
		return recharge.Outcome{}, ErrSandboxOutage
	case strings.HasSuffix(r.Mobile, "0000"):
		return recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil
	case strings.HasSuffix(r.Amount.Truncate(0).String(), "7"):
		return recharge.Outcome{Status: recharge.StatusFailed, Reason: "Operator declined"}, nil
	}
	ref := "OPR" + digest(12, "recharge", r.Operator, r.Mobile, r.ReferenceID, r.Amount.String())
	return recharge.Outcome{Status: recharge.StatusSuccess, OperatorRef: ref}, nil
}
