package sandbox

import (
	"context"
	"errors"
	"strings"

	"paygate/core/gateway/recharge"
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
//
// Submit is idempotent by r.ProviderReference(), as the port requires: the
// sandbox keeps no state, every answer (and the operator reference) is a
// function of that reference and the request, so submitting the same
// recharge again answers what the first Submit did and recharges nothing
// twice. A recharge without a reference (id 0) is refused.
type Recharger struct{}

// ErrNoReference: a recharge sent without our reference (never stored).
var ErrNoReference = errors.New("sandbox recharge: no provider reference")

var _ recharge.Provider = Recharger{}

// Sandbox reports test mode: no phone is recharged, and the recharges'
// events say livemode false.
func (Recharger) Sandbox() bool { return true }

func (Recharger) Submit(ctx context.Context, r recharge.Recharge) (recharge.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return recharge.Outcome{}, err
	}
	if r.ID == 0 {
		return recharge.Outcome{}, ErrNoReference
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
	if r.ID == 0 {
		return recharge.Outcome{}, ErrNoReference
	}
	switch {
	case strings.HasSuffix(r.Mobile, "9999"):
		return recharge.Outcome{}, ErrSandboxOutage
	case strings.HasSuffix(r.Mobile, "0000"):
		return recharge.Outcome{Status: recharge.StatusFailed, Reason: "Invalid mobile number"}, nil
	case strings.HasSuffix(r.Amount.Truncate(0).String(), "7"):
		return recharge.Outcome{Status: recharge.StatusFailed, Reason: "Operator declined"}, nil
	}
	ref := "OPR" + digest(12, "recharge", r.ProviderReference(), r.Operator, r.Mobile, r.Amount.String())
	return recharge.Outcome{Status: recharge.StatusSuccess, OperatorRef: ref}, nil
}
