// Package ident holds the formats of the identifiers several use cases
// check before anything is written or a provider is called: Indian bank
// account numbers, IFSCs, Aadhaar and mobile numbers (their shape, not whether
// they exist), and the reference ids clients give their operations.
package ident

import "regexp"

var (
	accountNumber = regexp.MustCompile(`^[0-9]{9,18}$`)
	ifsc          = regexp.MustCompile(`^[A-Z]{4}0[A-Z0-9]{6}$`)
	aadhaar       = regexp.MustCompile(`^[2-9][0-9]{11}$`)
	mobile        = regexp.MustCompile(`^[6-9][0-9]{9}$`)
	reference     = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,64}$`)
)

// AccountNumber: 9 to 18 digits.
func AccountNumber(s string) bool { return accountNumber.MatchString(s) }

// IFSC: 4 letters, 0, then 6 letters or digits.
func IFSC(s string) bool { return ifsc.MatchString(s) }

// Aadhaar: 12 digits, not starting with 0 or 1 (its check digit is the
// caller's: verification checks it, account opening leaves it to the bank).
func Aadhaar(s string) bool { return aadhaar.MatchString(s) }

// Mobile: a 10-digit Indian mobile number (starting 6 to 9), without +91.
func Mobile(s string) bool { return mobile.MatchString(s) }

// Reference: a client's reference id, 1 to 64 letters, digits or . _ : -
func Reference(s string) bool { return reference.MatchString(s) }
