package gst

import (
	"fmt"
	"strings"
)

// DefaultSAC is the supplier's default service accounting code: 998319,
// other information technology services not elsewhere classified.
const DefaultSAC = "998319"

// PaymentSAC is the code of fees for moving money (collection, payout and
// recharge fees): 997158, financial transaction processing and clearing
// house services.
const PaymentSAC = "997158"

// base36 is the check character alphabet: a character's value is its index.
const base36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// NormalizeGSTIN trims the spaces around a GSTIN and upper-cases it, the
// form in which it is checked and stored.
func NormalizeGSTIN(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// NormalizePAN is NormalizeGSTIN for a PAN.
func NormalizePAN(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// GSTINProblem returns why s is not a regular taxpayer's GSTIN, or "". s is
// checked as it is: normalise it first (NormalizeGSTIN). It checks the shape
// (state code, PAN, entity number 1-9 or A-Z, 'Z'), that the state code is
// in force (StateName) and the check character. The 14th character is 'Z'
// in every GSTIN issued to regular, composition and casual taxpayers, the
// recipients who claim input tax credit; the other registrations (tax
// deductors and collectors, UN bodies, non-resident and online service
// suppliers) have other letters there and are refused.
func GSTINProblem(s string) string {
	if len(s) != 15 {
		return "must be 15 characters, such as 27AAPFU0939F1ZV"
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(base36, s[i]) < 0 {
			return "must have only capital letters and digits, such as 27AAPFU0939F1ZV"
		}
	}
	if !isDigits(s[:2]) {
		return "must start with a 2-digit state code"
	}
	if _, ok := StateName(s[:2]); !ok {
		return fmt.Sprintf("starts with %s, which is not a GST state code", s[:2])
	}
	if PANProblem(s[2:12]) != "" {
		return "must have the holder's PAN (5 letters, 4 digits, a letter) as its characters 3 to 12"
	}
	if s[12] == '0' {
		return "must have an entity number from 1 to 9 or A to Z as its 13th character"
	}
	if s[13] != 'Z' {
		return "must have Z as its 14th character (a regular taxpayer's GSTIN)"
	}
	if checkChar(s[:14]) != s[14] {
		return "has a wrong check character: look for a mistyped character"
	}
	return ""
}

// checkChar is the check character of a GSTIN's first 14 characters, GSTN's
// Luhn mod 36: each character's value is multiplied by 1 and 2 in turn from
// the left, each product p adds p/36 + p%36, and the check character's value
// brings the sum to a multiple of 36. head holds only characters of base36.
func checkChar(head string) byte {
	sum := 0
	for i := 0; i < len(head); i++ {
		p := strings.IndexByte(base36, head[i]) * (1 + i%2)
		sum += p/36 + p%36
	}
	return base36[(36-sum%36)%36]
}

// StateOfGSTIN is the state code of a GSTIN, its first two characters ("27"
// for 27AAPFU0939F1ZV); "" when s is not a GSTIN (GSTINProblem).
func StateOfGSTIN(s string) string {
	if GSTINProblem(s) != "" {
		return ""
	}
	return s[:2]
}

// PANOfGSTIN is the PAN inside a GSTIN, its characters 3 to 12; "" when s is
// not a GSTIN. A supplier's PAN and GSTIN agree when they are equal.
func PANOfGSTIN(s string) string {
	if GSTINProblem(s) != "" {
		return ""
	}
	return s[2:12]
}

// PANProblem returns why s is not a PAN, or "": 5 capital letters, 4 digits
// and a capital letter, as the Income Tax Department issues them. The 4th
// letter, the holder's kind, is not checked against a list: published lists
// disagree (E for limited liability partnerships, K), and refusing a real
// PAN would stop a supplier from invoicing. s is checked as it is: normalise
// it first (NormalizePAN).
func PANProblem(s string) string {
	if len(s) != 10 || !isLetters(s[:5]) || !isDigits(s[5:9]) || !isLetters(s[9:]) {
		return "must be a PAN: 5 capital letters, 4 digits and a capital letter, such as AAPFU0939F"
	}
	return ""
}

// SACProblem returns why s is not a service accounting code, or "": 6
// digits starting with 99, the chapter of services in the GST tariff.
func SACProblem(s string) string {
	if len(s) != 6 || !isDigits(s) || !strings.HasPrefix(s, "99") {
		return "must be a 6-digit service code starting with 99, such as " + DefaultSAC
	}
	return ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}
