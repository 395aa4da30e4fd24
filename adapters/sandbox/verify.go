package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"

	"paygate/core/gateway/verification"
)

// ErrSandboxOutage is the sandbox's "provider unreachable" answer.
var ErrSandboxOutage = errors.New("sandbox: provider unavailable")

// Verifier is the sandbox verification provider. Outcomes follow the
// identifier, so tests and demos choose them (table in README.md):
//
//   - bank account number ending 0000, VPA starting "fail", PAN with digits
//     0000, Aadhaar whose 8th–11th digits are 0000 → not verified;
//   - bank account number ending 9999, VPA starting "down", PAN with digits
//     9999 → provider outage (an error: the caller is not billed);
//   - anything else → verified, with a name derived from the identifier.
//
// A PAN check with a `name` that differs from the name at source is not
// verified ("Name does not match").
type Verifier struct{}

var _ verification.Provider = Verifier{}

func (Verifier) Verify(ctx context.Context, r verification.Request) (verification.Result, error) {
	if err := ctx.Err(); err != nil {
		return verification.Result{}, err
	}
	var id string
	fail, down := false, false
	switch r.Type {
	case verification.BankAccount:
		id = r.AccountNumber + r.IFSC
		fail, down = strings.HasSuffix(r.AccountNumber, "0000"), strings.HasSuffix(r.AccountNumber, "9999")
	case verification.UPI:
		id = r.VPA
		fail, down = strings.HasPrefix(r.VPA, "fail"), strings.HasPrefix(r.VPA, "down")
	case verification.PAN:
		id = r.PAN
		if len(r.PAN) == 10 {
			fail, down = r.PAN[5:9] == "0000", r.PAN[5:9] == "9999"
		}
	case verification.Aadhaar:
		id = r.Aadhaar
		fail = len(r.Aadhaar) == 12 && r.Aadhaar[7:11] == "0000"
	}
	if down {
		return verification.Result{}, ErrSandboxOutage
	}
	// Random, not derived from the identifier: a hash of a 12-digit
	// Aadhaar beside its last four digits would give the number back.
	ref := "VRF" + randomHex(12)
	if fail {
		return verification.Result{Verified: false, ReferenceID: ref, Message: notFound[r.Type]}, nil
	}
	name := holderNames[pick(len(holderNames), "verify", id)]
	if r.Type == verification.UPI {
		local, _, _ := strings.Cut(r.VPA, "@")
		name = holderName(local)
	}
	if r.Type == verification.PAN && r.Name != "" && !strings.EqualFold(strings.Join(strings.Fields(r.Name), " "), name) {
		return verification.Result{Verified: false, NameAtSource: name, ReferenceID: ref, Message: "Name does not match"}, nil
	}
	return verification.Result{Verified: true, NameAtSource: name, ReferenceID: ref}, nil
}

var notFound = map[verification.Type]string{
	verification.BankAccount: "Account does not exist",
	verification.UPI:         "UPI address does not exist",
	verification.PAN:         "PAN does not exist",
	verification.Aadhaar:     "Aadhaar number does not exist",
}

func randomHex(n int) string {
	b := make([]byte, (n+1)/2)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand: " + err.Error())
	}
	return strings.ToUpper(hex.EncodeToString(b))[:n]
}
