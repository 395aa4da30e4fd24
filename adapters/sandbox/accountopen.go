package sandbox

import (
	"context"
	"crypto/sha256"
	"errors"
	"strings"
	"time"

	"paygate/core/gateway/accountopen"
)

// Opener is the sandbox account-opening provider. It keeps no state: every
// answer is a function of the opening (its opening_id, the applicant's
// name, its creation time) and the clock, so Submit is idempotent by the
// opening_id as the port requires, and the worker's re-submission, which
// carries no PAN or Aadhaar number, gets the same answer as the first.
//
//   - Submit: kyc_pending, with the KYC page https://sandbox.example/kyc/<opening_id>;
//   - Check before KYCDelay has passed since creation: still kyc_pending;
//   - Check afterwards: rejected when the applicant's name contains
//     "reject" (any case), else opened with an account number derived
//     from the opening_id and the sandbox IFSC.
//
// With the first check 5 s after Submit answered and the worker's round
// every 2 s, an opening is opened (or rejected) within 10 s of creation.
type Opener struct {
	// Now is the provider's clock; nil means time.Now.
	Now func() time.Time
}

// Sandbox account opening's fixed answers.
const (
	OpenerKYCDelay   = 3 * time.Second // the applicant "completes KYC" this long after creation
	OpenerIFSC       = "SBOX0000001"
	OpenerKYCBaseURL = "https://sandbox.example/kyc/"
	OpenerRejection  = "KYC rejected by the bank (sandbox: the applicant's name contains \"reject\")"
)

// ErrNoOpeningID: an opening sent without its opening_id (never stored).
var ErrNoOpeningID = errors.New("sandbox account opening: no opening_id")

var _ accountopen.Provider = Opener{}

// Sandbox reports test mode: no account is opened, and the openings say
// livemode false.
func (Opener) Sandbox() bool { return true }

func (p Opener) Submit(ctx context.Context, o accountopen.Opening, _ accountopen.KYC) (accountopen.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return accountopen.Outcome{}, err
	}
	if o.PublicID == "" {
		return accountopen.Outcome{}, ErrNoOpeningID
	}
	return accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: OpenerKYCBaseURL + o.PublicID}, nil
}

func (p Opener) Check(ctx context.Context, o accountopen.Opening) (accountopen.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return accountopen.Outcome{}, err
	}
	if o.PublicID == "" {
		return accountopen.Outcome{}, ErrNoOpeningID
	}
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	switch {
	case now.Before(o.CreatedAt.Add(OpenerKYCDelay)):
		return accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: OpenerKYCBaseURL + o.PublicID}, nil
	case strings.Contains(strings.ToLower(o.Applicant.Name), "reject"):
		return accountopen.Outcome{Status: accountopen.StatusRejected, Reason: OpenerRejection}, nil
	}
	return accountopen.Outcome{Status: accountopen.StatusOpened, AccountNumber: OpenerAccountNumber(o.PublicID), IFSC: OpenerIFSC}, nil
}

// OpenerAccountNumber is the sandbox account number of an opening: "5010"
// and 10 digits derived from its opening_id.
func OpenerAccountNumber(openingID string) string {
	sum := sha256.Sum256([]byte("account-open\x00" + openingID))
	var b strings.Builder
	b.WriteString("5010")
	for _, c := range sum[:10] {
		b.WriteByte('0' + c%10)
	}
	return b.String()
}
