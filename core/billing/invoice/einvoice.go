package invoice

import (
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/platform/errs"
)

// E-invoicing (docs/decisions.md, "Tax invoices, credit notes and
// statements"): a B2B document in the terms of the government's e-invoice
// schema (INV-01, version 1.1), for upload to the invoice registration
// portal, and the portal's answer recorded once. The wire format (JSON
// names and numbers) is adapters/einvoice's; the schema it is checked
// against is api/einvoice/einvoice-schema-1.1.json.

var (
	// ErrNotB2B: only a tax invoice or credit note from a registered
	// supplier to a registered recipient (both GSTINs) is e-invoiced.
	ErrNotB2B = errs.E(errs.Conflict, "not_b2b",
		"Only a tax invoice or credit note between two GSTINs is e-invoiced: this document has no e-invoice")
	// ErrNoSupplierPIN: the schema needs the seller's 6-digit PIN code,
	// read from its address.
	ErrNoSupplierPIN = errs.E(errs.Conflict, "einvoice_incomplete",
		"The supplier's address has no 6-digit PIN code, which an e-invoice needs: add it to the billing settings")
	// ErrIRNRecorded: a document's IRN is recorded once.
	ErrIRNRecorded = errs.E(errs.Conflict, "irn_recorded", "This document's IRN is already recorded")
)

// EInvoiceVersion is the schema version EInvoice follows.
const EInvoiceVersion = "1.1"

// EInvoice is a document as the e-invoice schema describes it.
type EInvoice struct {
	Version string
	// SupplyType is always "B2B": the only supply type of this service
	// (no exports, SEZ or deemed exports); no reverse charge, no IGST on an
	// intra-state supply.
	SupplyType string
	DocType    string // INV or CRN
	Number     string
	Date       string // dd/mm/yyyy, local
	Seller     EParty
	Buyer      EParty
	// PlaceOfSupply is the document's place of supply (state code).
	PlaceOfSupply string
	Items         []EItem
	Values        EValues
}

// EParty is a seller or buyer block: the address split into a first line,
// the lines between, the last line (location) and the PIN code found in it.
type EParty struct {
	GSTIN, LegalName  string
	Addr1, Addr2, Loc string
	PIN               int // 0: none found (the buyer's is optional)
	State             string
	Email             string // the buyer's, when known ("" none)
}

// EItem is one line: a service (IsServc "Y") with its SAC as HsnCd. Unit
// price and total are before tax (the schema's TotAmt = Qty × UnitPrice),
// so TotAmt = AssAmt = the line's taxable value and TotItemVal its gross.
type EItem struct {
	SlNo        int
	Description string
	SAC         string
	Qty         int64
	UnitPrice   decimal.Decimal // taxable ÷ quantity, 3 places
	Total       decimal.Decimal
	Taxable     decimal.Decimal
	Rate        decimal.Decimal
	IGST        decimal.Decimal
	CGST        decimal.Decimal
	SGST        decimal.Decimal
	Gross       decimal.Decimal
}

// EValues are the document's totals: the schema's ValDtls.
type EValues struct {
	Taxable, CGST, SGST, IGST, Total decimal.Decimal
}

// B2B reports whether inv is e-invoiced: a tax document (not a bill of
// supply) whose supplier and recipient both have a GSTIN.
func (inv *Invoice) B2B() bool {
	return !inv.BillOfSupply() && inv.Supplier.GSTIN != "" && inv.Recipient.GSTIN != ""
}

// ToEInvoice is inv in the e-invoice schema's terms, its date in loc.
// ErrNotB2B for a document without both GSTINs, ErrNoSupplierPIN when the
// supplier's address has no PIN code. Amounts are the document's own:
// every item's taxable value and taxes are its line's, ValDtls its totals.
func ToEInvoice(inv *Invoice, loc *time.Location) (*EInvoice, error) {
	if !inv.B2B() {
		return nil, ErrNotB2B
	}
	if loc == nil {
		loc = time.UTC
	}
	e := &EInvoice{Version: EInvoiceVersion, SupplyType: "B2B", DocType: "INV", Number: inv.Number,
		Date: inv.IssuedAt.In(loc).Format("02/01/2006"), PlaceOfSupply: inv.PlaceOfSupply,
		Seller: eParty(inv.Supplier, inv.Supplier.State, 50), Buyer: eParty(inv.Recipient, inv.PlaceOfSupply, 100),
		Values: EValues{Taxable: inv.Totals.Taxable, CGST: inv.Totals.CGST, SGST: inv.Totals.SGST, IGST: inv.Totals.IGST, Total: inv.Totals.Gross}}
	if inv.Kind == KindCreditNote {
		e.DocType = "CRN"
	}
	if e.Seller.PIN == 0 {
		return nil, ErrNoSupplierPIN
	}
	e.Seller.Email = ""
	for i, l := range inv.Lines {
		qty := l.Quantity
		if qty < 1 {
			qty = 1 // a line whose items net to none still bills its amount once
		}
		e.Items = append(e.Items, EItem{SlNo: i + 1, Description: clip(l.Description, 300), SAC: l.SAC, Qty: qty,
			UnitPrice: l.Taxable.Div(decimal.NewFromInt(qty)).Round(3), Total: l.Taxable, Taxable: l.Taxable,
			Rate: inv.Rate, IGST: l.IGST, CGST: l.CGST, SGST: l.SGST, Gross: l.Gross})
	}
	return e, nil
}

// pinCode is a 6-digit Indian PIN code (it never starts with 0).
var pinCode = regexp.MustCompile(`\b[1-9][0-9]{2} ?[0-9]{3}\b`)

// eParty splits p's address into the schema's lines: the PIN code (the
// last one found) taken out, the first line Addr1, the last Loc (the
// state's name when there is one line only), the rest Addr2; state is the
// block's state code (a buyer's is the place of supply when it gave none).
func eParty(p Party, state string, locMax int) EParty {
	out := EParty{GSTIN: p.GSTIN, LegalName: clip(p.LegalName, 100), State: p.State}
	if out.State == "" {
		out.State = state
	}
	var lines []string
	for _, l := range strings.Split(p.Address, "\n") {
		lines = append(lines, strings.TrimSpace(l))
	}
	for i := len(lines) - 1; i >= 0 && out.PIN == 0; i-- {
		locs := pinCode.FindAllStringIndex(lines[i], -1)
		if len(locs) == 0 {
			continue
		}
		at := locs[len(locs)-1]
		digits := strings.ReplaceAll(lines[i][at[0]:at[1]], " ", "")
		for _, ch := range digits {
			out.PIN = out.PIN*10 + int(ch-'0')
		}
		lines[i] = strings.Trim(lines[i][:at[0]]+lines[i][at[1]:], " ,-")
	}
	var kept []string
	for _, l := range lines {
		if l != "" {
			kept = append(kept, l)
		}
	}
	switch len(kept) {
	case 0:
	case 1:
		out.Addr1 = clip(kept[0], 100)
	default:
		out.Addr1, out.Loc = clip(kept[0], 100), clip(kept[len(kept)-1], locMax)
		if mid := strings.Join(kept[1:len(kept)-1], ", "); len(mid) >= 3 {
			out.Addr2 = clip(mid, 100)
		}
	}
	if name, ok := gst.StateName(out.State); ok && len(out.Loc) < 3 {
		out.Loc = clip(name, locMax)
	}
	if out.Addr1 == "" {
		out.Addr1 = out.Loc
	}
	if len(p.Email) >= 6 {
		out.Email = clip(p.Email, 100)
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.TrimSpace(s[:n])
}

// IRN is the invoice registration portal's answer for a document, recorded
// once by its issuer (PUT /invoices/{id}/irn): the IRN (SHA-256, 64 hex
// digits), the acknowledgement number and date, and the signed QR code
// (a JWS the PDF prints as a QR code).
type IRN struct {
	IRN        string
	AckNo      string
	AckDate    time.Time
	SignedQR   string
	RecordedBy uint64
	RecordedAt time.Time
}

// MaxSignedQR bounds the signed QR code's text: the portal's JWS is about
// a thousand characters, and a QR code holds at most 2,331 bytes at medium
// error correction.
const MaxSignedQR = 2000

var (
	irnPattern      = regexp.MustCompile(`^[0-9a-f]{64}$`)
	ackNoPattern    = regexp.MustCompile(`^[0-9]{1,20}$`)
	signedQRPattern = regexp.MustCompile(`^[A-Za-z0-9_\-.=+/]+$`)
)

// NewIRN checks the portal's answer: irn 64 hex digits (lowercased), the
// acknowledgement number 1-20 digits, its date an RFC 3339 instant not
// after now, the signed QR code base64url and dots (a JWS) of at most
// MaxSignedQR. Every field's problem is reported at once.
func NewIRN(irn, ackNo, ackDate, signedQR string, by uint64, now time.Time) (IRN, error) {
	fe := errs.FieldErrors{}
	irn = strings.ToLower(strings.TrimSpace(irn))
	fe.Require("irn", irn, irnPattern.MatchString(irn), "must be 64 hexadecimal characters")
	ackNo = strings.TrimSpace(ackNo)
	fe.Require("ack_no", ackNo, ackNoPattern.MatchString(ackNo), "must be the acknowledgement number, 1 to 20 digits")
	ackDate = strings.TrimSpace(ackDate)
	ackAt, err := time.Parse(time.RFC3339, ackDate)
	switch {
	case ackDate == "":
		fe.Add("ack_date", "is required")
	case err != nil:
		fe.Add("ack_date", "must be a date and time, RFC 3339 (2026-12-01T10:15:00+05:30)")
	case ackAt.After(now.Add(5 * time.Minute)):
		fe.Add("ack_date", "must not be in the future")
	}
	signedQR = strings.TrimSpace(signedQR)
	fe.Require("signed_qr", signedQR, len(signedQR) <= MaxSignedQR && signedQRPattern.MatchString(signedQR),
		"must be the portal's signed QR code (a JWS) of at most 2000 characters")
	if err := fe.Err(); err != nil {
		return IRN{}, err
	}
	return IRN{IRN: irn, AckNo: ackNo, AckDate: ackAt.UTC(), SignedQR: signedQR, RecordedBy: by, RecordedAt: now.UTC()}, nil
}
