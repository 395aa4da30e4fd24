// Package utr is the bank and UPI transaction references (UTRs) payers
// report: a payment's on its checkout page, a balance request's in the
// panel. One bank credit confirms one thing, so a UTR is claimed once
// across payments and balance requests together, in the database
// (docs/decisions.md, "A UTR is claimed once").
package utr

import (
	"context"
	"strings"

	"paygate/core/platform/errs"
)

// Owners of a claim.
const (
	OwnerPayment        = "payment"
	OwnerBalanceRequest = "balance_request"
)

// ErrTaken: another payment or balance request claimed the UTR.
var ErrTaken = errs.E(errs.Conflict, "utr_taken", "This UTR was already given for another payment or balance request")

// Canonical is the one form a UTR is kept, compared and claimed in:
// trimmed, upper case (bank references mix cases; UPI's are digits).
func Canonical(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// Claims are the UTRs claimed, one row each (a unique key), written in the
// transaction that gives a payment or a balance request its UTR.
type Claims interface {
	// Claim claims utr (canonical) for owner ownerID; nil when that owner
	// holds it already, ErrTaken when another does (also when two claims
	// race: the second waits for the first's transaction).
	Claim(ctx context.Context, utr, owner string, ownerID uint64) error
	// Release gives up owner ownerID's claim of utr (an admin's correction).
	Release(ctx context.Context, utr, owner string, ownerID uint64) error
}
