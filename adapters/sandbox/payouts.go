package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"paygate/core/gateway/payout"
)

// Payouts is the sandbox payout provider. Every payout is accepted
// (processing) when submitted, like a real bank's; the outcome on a later
// Check follows the beneficiary (table in README.md):
//
//   - account number ending 0000, or a VPA starting "fail" → failed;
//   - account number ending 9999 → success, then reversed ReverseAfter
//     after the success;
//   - anything else → success, with a 12-digit UTR derived from the payout.
//
// Nothing is decided before SettleAfter has passed since the submission,
// so a payout is seen processing first; with the worker's first check
// (payout.FirstCheck) a payout ends within about 5 s.
//
// Submit is idempotent by p.ProviderReference(), as the port requires: the
// sandbox keeps no state, so submitting the same payout again answers what
// the first Submit did and pays nothing twice.
type Payouts struct {
	Now func() time.Time // nil: time.Now
}

// Sandbox timings.
const (
	SettleAfter  = 2 * time.Second
	ReverseAfter = 3 * time.Second
)

var _ payout.Provider = Payouts{}

// Sandbox reports test mode: no money moves, and payouts say livemode false.
func (Payouts) Sandbox() bool { return true }

func (s Payouts) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (Payouts) Submit(ctx context.Context, p payout.Payout) (payout.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return payout.Outcome{}, err
	}
	if p.PublicID == "" {
		return payout.Outcome{}, ErrNoReference
	}
	return payout.Outcome{Status: payout.StatusProcessing}, nil
}

func (s Payouts) Check(ctx context.Context, p payout.Payout) (payout.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return payout.Outcome{}, err
	}
	if p.PublicID == "" {
		return payout.Outcome{}, ErrNoReference
	}
	now := s.now()
	b := p.Beneficiary
	switch {
	case p.SubmittedAt == nil || now.Sub(*p.SubmittedAt) < SettleAfter:
		return payout.Outcome{Status: payout.StatusProcessing}, nil
	case b.Type == payout.BankAccount && strings.HasSuffix(b.AccountNumber, "0000"):
		return payout.Outcome{Status: payout.StatusFailed, Reason: "Beneficiary account is closed or invalid"}, nil
	case b.Type == payout.VPA && strings.HasPrefix(b.VPA, "fail"):
		return payout.Outcome{Status: payout.StatusFailed, Reason: "VPA does not exist"}, nil
	}
	if p.Status == payout.StatusSuccess && b.Type == payout.BankAccount && strings.HasSuffix(b.AccountNumber, "9999") &&
		p.ProcessedAt != nil && now.Sub(*p.ProcessedAt) >= ReverseAfter {
		return payout.Outcome{Status: payout.StatusReversed, Reason: "Credit returned by the beneficiary's bank"}, nil
	}
	return payout.Outcome{Status: payout.StatusSuccess, UTR: sandboxUTR(p.ProviderReference())}, nil
}

// sandboxUTR is a 12-digit bank reference derived from ref.
func sandboxUTR(ref string) string {
	sum := sha256.Sum256([]byte("payout\x00" + ref))
	return fmt.Sprintf("%012d", binary.BigEndian.Uint64(sum[:8])%1_000_000_000_000)
}
