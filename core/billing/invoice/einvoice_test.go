package invoice_test

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
	"paygate/core/platform/errs"
)

// b2bInvoice is a platform invoice from Maharashtra to a registered
// buyer in state, with two lines (one call line of three, one fee).
func b2bInvoice(state string) *invoice.Invoice {
	u := d("1.18")
	intra := state == "27"
	l1 := invoice.Line{Description: "Calls: PAN verification", SAC: "998319", Quantity: 3, UnitPrice: &u, Gross: d("3.54"), Taxable: d("3.00")}
	l2 := invoice.Line{Description: "Collection fees", SAC: "997158", Quantity: 1, UnitPrice: &u, Gross: d("1.18"), Taxable: d("1.00")}
	tot := invoice.Totals{Gross: d("4.72"), Taxable: d("4.00")}
	if intra {
		l1.CGST, l1.SGST, l2.CGST, l2.SGST, tot.CGST, tot.SGST = d("0.27"), d("0.27"), d("0.09"), d("0.09"), d("0.36"), d("0.36")
	} else {
		l1.IGST, l2.IGST, tot.IGST = d("0.54"), d("0.18"), d("0.72")
	}
	return &invoice.Invoice{ID: 7, Kind: invoice.KindInvoice, Number: "PG/26-27/000009", Month: "2026-11", IssuedAt: at("2026-12-01 00:05"),
		Rate:     d("18.00"),
		Supplier: invoice.Party{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nNariman Point\nMumbai 400 021", State: "27", GSTIN: "27AAPFU0939F1ZV"},
		Recipient: invoice.Party{LegalName: "Bengaluru Buyers LLP", Address: "12 MG Road, Bengaluru - 560001", State: state, GSTIN: state + "AAGCB7383J1Z4",
			Email: "accounts@buyers.example"},
		PlaceOfSupply: state, Lines: []invoice.Line{l1, l2}, Totals: tot}
}

// TestToEInvoice: the e-invoice of a document is the document in the
// schema's terms: INV or CRN, B2B, one service item per line with its SAC
// and its own amounts, ValDtls its totals, the date local; a document
// without both GSTINs (B2C, a bill of supply) has none, nor one whose
// supplier gave no PIN code.
func TestToEInvoice(t *testing.T) {
	credit := b2bInvoice("29")
	credit.Kind, credit.Number = invoice.KindCreditNote, "PGC/26-27/000002"
	b2c := b2bInvoice("27")
	b2c.Recipient.GSTIN = ""
	supply := b2bInvoice("27")
	supply.Rate, supply.Supplier.GSTIN = decimal.Zero, ""
	noPIN := b2bInvoice("27")
	noPIN.Supplier.Address = "Mumbai"
	for _, c := range []struct {
		name    string
		inv     *invoice.Invoice
		typ     string
		igst    bool
		wantErr error
	}{
		{"intra-state invoice", b2bInvoice("27"), "INV", false, nil},
		{"inter-state credit note", credit, "CRN", true, nil},
		{"B2C", b2c, "", false, invoice.ErrNotB2B},
		{"bill of supply", supply, "", false, invoice.ErrNotB2B},
		{"supplier without a PIN", noPIN, "", false, invoice.ErrNoSupplierPIN},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := invoice.ToEInvoice(c.inv, ist)
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) || errs.KindOf(err) != errs.Conflict {
					t.Fatalf("err %v, want %v", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			inv := c.inv
			if e.Version != "1.1" || e.SupplyType != "B2B" || e.DocType != c.typ || e.Number != inv.Number || e.Date != "01/12/2026" ||
				e.PlaceOfSupply != inv.PlaceOfSupply {
				t.Fatalf("header %+v", e)
			}
			if s := e.Seller; s.GSTIN != "27AAPFU0939F1ZV" || s.LegalName != inv.Supplier.LegalName || s.Addr1 != "1 Marine Drive" ||
				s.Addr2 != "Nariman Point" || s.Loc != "Mumbai" || s.PIN != 400021 || s.State != "27" || s.Email != "" {
				t.Fatalf("seller %+v", s)
			}
			if b := e.Buyer; b.GSTIN != inv.Recipient.GSTIN || b.Addr1 != "12 MG Road, Bengaluru" || b.Loc != "Karnataka" && inv.PlaceOfSupply == "29" ||
				b.PIN != 560001 || b.State != inv.PlaceOfSupply || b.Email != "accounts@buyers.example" {
				t.Fatalf("buyer %+v", b)
			}
			if len(e.Items) != len(inv.Lines) {
				t.Fatalf("items %+v", e.Items)
			}
			for i, it := range e.Items {
				l := inv.Lines[i]
				if it.SlNo != i+1 || it.Description != l.Description || it.SAC != l.SAC || it.Qty != l.Quantity || !it.Rate.Equal(d("18")) ||
					!it.Taxable.Equal(l.Taxable) || !it.Total.Equal(l.Taxable) || !it.Gross.Equal(l.Gross) ||
					!it.UnitPrice.Equal(l.Taxable.Div(decimal.NewFromInt(l.Quantity)).Round(3)) ||
					!it.CGST.Equal(l.CGST) || !it.SGST.Equal(l.SGST) || !it.IGST.Equal(l.IGST) || c.igst != it.IGST.IsPositive() {
					t.Errorf("item %d %+v for line %+v", i, it, l)
				}
			}
			v, tot := e.Values, inv.Totals
			if !v.Taxable.Equal(tot.Taxable) || !v.CGST.Equal(tot.CGST) || !v.SGST.Equal(tot.SGST) || !v.IGST.Equal(tot.IGST) || !v.Total.Equal(tot.Gross) {
				t.Fatalf("values %+v, totals %+v", v, tot)
			}
		})
	}
}

// TestEInvoiceAddressLines: an address becomes Addr1, Addr2, Loc and Pin;
// one line gives the state's name as the location.
func TestEInvoiceAddressLines(t *testing.T) {
	for _, c := range []struct {
		address           string
		addr1, addr2, loc string
		pin               int
	}{
		{"1 Marine Drive\nMumbai 400021", "1 Marine Drive", "", "Mumbai", 400021},
		{"Flat 4, Sea View\nLane 2\nBandra\nMumbai - 400 050", "Flat 4, Sea View", "Lane 2, Bandra", "Mumbai", 400050},
		{"Plot 9, MIDC\n411001", "Plot 9, MIDC", "", "Maharashtra", 411001},
		{"Shop 12 Andheri", "Shop 12 Andheri", "", "Maharashtra", 0},
		{"", "Maharashtra", "", "Maharashtra", 0},
	} {
		inv := b2bInvoice("27")
		inv.Recipient.Address = c.address
		e, err := invoice.ToEInvoice(inv, ist)
		if err != nil {
			t.Fatal(err)
		}
		if b := e.Buyer; b.Addr1 != c.addr1 || b.Addr2 != c.addr2 || b.Loc != c.loc || b.PIN != c.pin {
			t.Errorf("%q: %+v", c.address, b)
		}
	}
}

// TestNewIRN: the portal's answer is checked field by field.
func TestNewIRN(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	earlier, later := "2026-12-07T15:30:00+05:30", "2026-12-07T11:30:00Z"
	irn := "8a1c4bdba5b5a6d5d4bd5e1d2d0f6c0f1c1a0b9e8d7c6b5a4f3e2d1c0b9a8f7e"
	qr := "eyJhbGciOiJSUzI1NiJ9.eyJkYXRhIjoiMSJ9.c2lnbmF0dXJl"
	for _, c := range []struct {
		name           string
		irn, ackNo, qr string
		ackDate        string
		fields         []string
	}{
		{"valid", irn, "112010036563310", qr, earlier, nil},
		{"upper-case hex is taken", "8A1C4BDBA5B5A6D5D4BD5E1D2D0F6C0F1C1A0B9E8D7C6B5A4F3E2D1C0B9A8F7E", "1", qr, earlier, nil},
		{"short IRN", irn[:63], "1", qr, earlier, []string{"irn"}},
		{"not hex", "z" + irn[1:], "1", qr, earlier, []string{"irn"}},
		{"ack no with letters", irn, "11A", qr, earlier, []string{"ack_no"}},
		{"no ack date", irn, "1", qr, "", []string{"ack_date"}},
		{"ack date not RFC 3339", irn, "1", qr, "07/12/2026", []string{"ack_date"}},
		{"future ack date", irn, "1", qr, later, []string{"ack_date"}},
		{"QR with spaces", irn, "1", "a b", earlier, []string{"signed_qr"}},
		{"QR too long", irn, "1", string(make([]byte, invoice.MaxSignedQR+1)), earlier, []string{"signed_qr"}},
		{"all missing", "", "", "", "", []string{"irn", "ack_no", "ack_date", "signed_qr"}},
	} {
		got, err := invoice.NewIRN(c.irn, c.ackNo, c.ackDate, c.qr, 5, now)
		if c.fields == nil {
			if err != nil || got.IRN != irn || got.RecordedBy != 5 || !got.RecordedAt.Equal(now) || !got.AckDate.Equal(now) {
				t.Errorf("%s: %+v %v", c.name, got, err)
			}
			continue
		}
		e, ok := errs.As(err)
		if !ok || e.Kind != errs.Invalid || len(e.Fields) != len(c.fields) {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, f := range c.fields {
			if e.Fields[f] == nil {
				t.Errorf("%s: no message for %s: %v", c.name, f, e.Fields)
			}
		}
	}
}
