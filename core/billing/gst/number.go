package gst

import (
	"fmt"
	"strconv"
	"time"

	"paygate/core/platform/errs"
)

const (
	// MaxNumberLen is the longest document number CGST rule 46(b) allows.
	MaxNumberLen = 16
	// SeqDigits is the width a sequence is padded to: a series holds
	// 999,999 documents a financial year before its numbers grow longer.
	SeqDigits = 6
	// MaxPrefixLen is the longest invoice prefix: its credit notes' prefix
	// (one letter longer), "/", the year ("26-27"), "/" and SeqDigits
	// digits make 16 characters ("PGC/26-27/000001").
	MaxPrefixLen = MaxNumberLen - 1 - len("/26-27/") - SeqDigits
)

// ErrSeriesFull: the next number of a series would be longer than 16
// characters. An operator chooses a shorter prefix for the rest of the year.
var ErrSeriesFull = errs.E(errs.Internal, "invoice_series_full",
	"The invoice series has no numbers left for this financial year")

// FinancialYear is the Indian financial year (1 April to 31 March) of t's
// local date, written as invoice numbers carry it: "26-27" for 27 November
// 2026, "25-26" for 31 March 2026.
func FinancialYear(t time.Time, loc *time.Location) string {
	local := t.In(loc)
	y := local.Year()
	if local.Month() < time.April {
		y--
	}
	return fmt.Sprintf("%02d-%02d", y%100, (y+1)%100)
}

// PrefixProblem returns why prefix cannot be the supplier's invoice prefix,
// or "": 1 to MaxPrefixLen (2) capital letters or digits, so that its invoice
// and credit note numbers both fit 16 characters with 6-digit sequences.
func PrefixProblem(prefix string) string {
	if len(prefix) < 1 || len(prefix) > MaxPrefixLen || !isAlnum(prefix) {
		return fmt.Sprintf("must be 1 to %d capital letters or digits, such as PG (invoices PG/26-27/000001, credit notes PGC/26-27/000001)", MaxPrefixLen)
	}
	return ""
}

// CreditNotePrefix is the prefix of the credit notes' series of an invoice
// prefix: "PG" → "PGC".
func CreditNotePrefix(invoicePrefix string) string { return invoicePrefix + "C" }

// Number is the seq-th document number of a series in financial year fy:
// prefix, "/", fy, "/", seq padded to 6 digits ("PG/26-27/000001"); a
// sequence beyond 999999 takes more digits while the number fits 16
// characters, and then fails with ErrSeriesFull. prefix is capital letters
// or digits, fy is FinancialYear's form and seq is from 1: anything else is
// an error of the caller's.
func Number(prefix, fy string, seq int64) (string, error) {
	if prefix == "" || !isAlnum(prefix) {
		return "", fmt.Errorf("invoice number prefix %q: not capital letters or digits", prefix)
	}
	if !validFY(fy) {
		return "", fmt.Errorf("invoice number financial year %q: not YY-YY", fy)
	}
	if seq < 1 {
		return "", fmt.Errorf("invoice number sequence %d: below 1", seq)
	}
	n := fmt.Sprintf("%s/%s/%0*d", prefix, fy, SeqDigits, seq)
	if len(n) > MaxNumberLen {
		return "", ErrSeriesFull.Wrap(fmt.Errorf("%s is %d characters", n, len(n)))
	}
	return n, nil
}

// validFY reports "YY-YY" with consecutive years ("99-00" included).
func validFY(fy string) bool {
	if len(fy) != 5 || fy[2] != '-' || !isDigits(fy[:2]) || !isDigits(fy[3:]) {
		return false
	}
	from, _ := strconv.Atoi(fy[:2])
	to, _ := strconv.Atoi(fy[3:])
	return to == (from+1)%100
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}
