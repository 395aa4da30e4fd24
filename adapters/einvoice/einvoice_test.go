package einvoice_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/einvoice"
	"paygate/adapters/einvoice/einvoicetest"
	"paygate/core/billing/invoice"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// document is an issued B2B document: inter-state (IGST) or within
// Maharashtra (CGST and SGST), an invoice or a credit note.
func document(kind invoice.Kind, state string) *invoice.Invoice {
	u := d("1.18")
	l1 := invoice.Line{Description: "Calls: PAN verification", SAC: "998319", Quantity: 3, UnitPrice: &u, Gross: d("3.54"), Taxable: d("3.00")}
	l2 := invoice.Line{Description: "Collection fees", SAC: "997158", Quantity: 7, Gross: d("25.00"), Taxable: d("21.18")}
	tot := invoice.Totals{Gross: d("28.54"), Taxable: d("24.18")}
	if state == "27" {
		l1.CGST, l1.SGST, l2.CGST, l2.SGST, tot.CGST, tot.SGST = d("0.27"), d("0.27"), d("1.91"), d("1.91"), d("2.18"), d("2.18")
	} else {
		l1.IGST, l2.IGST, tot.IGST = d("0.54"), d("3.82"), d("4.36")
	}
	number := "PG/26-27/000001"
	if kind == invoice.KindCreditNote {
		number = "PGC/26-27/000001"
	}
	return &invoice.Invoice{ID: 1, Kind: kind, Number: number, Month: "2026-11", Rate: d("18.00"),
		IssuedAt: time.Date(2026, 11, 30, 18, 35, 0, 0, time.UTC), // 1 December in India
		Supplier: invoice.Party{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nMumbai 400021", State: "27",
			GSTIN: "27AAPFU0939F1ZV"},
		Recipient:     invoice.Party{LegalName: "Bengaluru Buyers LLP", Address: "12 MG Road\nBengaluru 560001", State: state, GSTIN: state + "AAGCB7383J1Z4"},
		PlaceOfSupply: state, Lines: []invoice.Line{l1, l2}, Totals: tot}
}

// TestMarshalMeetsTheSchema: the JSON of an invoice and of a credit note,
// inter- and intra-state, validates against the e-invoice schema 1.1 kept
// in the repository, and says what the document says, field by field.
func TestMarshalMeetsTheSchema(t *testing.T) {
	ist, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind  invoice.Kind
		state string
		typ   string
	}{{invoice.KindInvoice, "29", "INV"}, {invoice.KindInvoice, "27", "INV"}, {invoice.KindCreditNote, "29", "CRN"}} {
		inv := document(c.kind, c.state)
		e, err := invoice.ToEInvoice(inv, ist)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := einvoice.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := einvoicetest.Validate(raw); err != nil {
			t.Fatalf("%s %s: %v\n%s", c.kind, c.state, err, raw)
		}
		checkAgainst(t, raw, inv, c.typ)
	}
}

// checkAgainst compares the e-invoice JSON with its document, field by
// field (the amounts as the JSON numbers written).
func checkAgainst(t *testing.T, raw []byte, inv *invoice.Invoice, typ string) {
	t.Helper()
	var doc struct {
		Version               string
		TranDtls              struct{ TaxSch, SupTyp, RegRev, IgstOnIntra string }
		DocDtls               struct{ Typ, No, Dt string }
		SellerDtls, BuyerDtls struct {
			Gstin, LglNm, Pos, Stcd, Loc string
			Pin                          int
		}
		ItemList []struct {
			SlNo, PrdDesc, IsServc, HsnCd                                    string
			Qty, UnitPrice, TotAmt, AssAmt, GstRt, IgstAmt, CgstAmt, SgstAmt json.Number
			TotItemVal                                                       json.Number
		}
		ValDtls struct{ AssVal, CgstVal, SgstVal, IgstVal, TotInvVal json.Number }
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	s2 := func(v decimal.Decimal) string { return v.StringFixed(2) }
	if doc.Version != "1.1" || doc.TranDtls.TaxSch != "GST" || doc.TranDtls.SupTyp != "B2B" || doc.TranDtls.RegRev != "N" ||
		doc.DocDtls.Typ != typ || doc.DocDtls.No != inv.Number || doc.DocDtls.Dt != "01/12/2026" {
		t.Errorf("header %+v %+v %+v", doc.Version, doc.TranDtls, doc.DocDtls)
	}
	if doc.SellerDtls.Gstin != inv.Supplier.GSTIN || doc.SellerDtls.LglNm != inv.Supplier.LegalName || doc.SellerDtls.Stcd != inv.Supplier.State ||
		doc.SellerDtls.Pin != 400021 || doc.SellerDtls.Loc != "Mumbai" {
		t.Errorf("seller %+v", doc.SellerDtls)
	}
	if doc.BuyerDtls.Gstin != inv.Recipient.GSTIN || doc.BuyerDtls.LglNm != inv.Recipient.LegalName || doc.BuyerDtls.Pos != inv.PlaceOfSupply ||
		doc.BuyerDtls.Stcd != inv.Recipient.State || doc.BuyerDtls.Pin != 560001 {
		t.Errorf("buyer %+v", doc.BuyerDtls)
	}
	if len(doc.ItemList) != len(inv.Lines) {
		t.Fatalf("%d items for %d lines", len(doc.ItemList), len(inv.Lines))
	}
	for i, it := range doc.ItemList {
		l := inv.Lines[i]
		if it.IsServc != "Y" || it.HsnCd != l.SAC || it.PrdDesc != l.Description || it.Qty.String() != decimal.NewFromInt(l.Quantity).String() ||
			it.AssAmt.String() != s2(l.Taxable) || it.TotAmt.String() != s2(l.Taxable) || it.TotItemVal.String() != s2(l.Gross) ||
			it.CgstAmt.String() != s2(l.CGST) || it.SgstAmt.String() != s2(l.SGST) || it.IgstAmt.String() != s2(l.IGST) ||
			it.GstRt.String() != s2(inv.Rate) {
			t.Errorf("item %d %+v for line %+v", i, it, l)
		}
		// The unit price times the quantity is the item's total, to the
		// paisa the schema's rounding allows.
		up, _ := decimal.NewFromString(it.UnitPrice.String())
		if diff := up.Mul(decimal.NewFromInt(l.Quantity)).Sub(l.Taxable).Abs(); diff.GreaterThan(d("0.01")) {
			t.Errorf("item %d: %s x %d is not %s", i, up, l.Quantity, l.Taxable)
		}
	}
	v, tot := doc.ValDtls, inv.Totals
	if v.AssVal.String() != s2(tot.Taxable) || v.CgstVal.String() != s2(tot.CGST) || v.SgstVal.String() != s2(tot.SGST) ||
		v.IgstVal.String() != s2(tot.IGST) || v.TotInvVal.String() != s2(tot.Gross) {
		t.Errorf("values %+v, totals %+v", v, tot)
	}
}

// TestTheSchemaRefuses: the schema file is strict where it must be, so a
// passing validation means something: a wrong supply type, a goods item,
// a 9-digit SAC, a missing total, an unknown field each fail.
func TestTheSchemaRefuses(t *testing.T) {
	e, err := invoice.ToEInvoice(document(invoice.KindInvoice, "29"), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := einvoice.Marshal(e)
	for _, bad := range []func(m map[string]any){
		func(m map[string]any) { m["TranDtls"].(map[string]any)["SupTyp"] = "B2C" },
		func(m map[string]any) { m["ItemList"].([]any)[0].(map[string]any)["IsServc"] = "X" },
		func(m map[string]any) { m["ItemList"].([]any)[0].(map[string]any)["HsnCd"] = "998319123" },
		func(m map[string]any) { delete(m["ValDtls"].(map[string]any), "TotInvVal") },
		func(m map[string]any) { m["SellerDtls"].(map[string]any)["Gstn"] = "x" },
		func(m map[string]any) { m["DocDtls"].(map[string]any)["Dt"] = "2026-12-01" },
	} {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		bad(m)
		raw, _ := json.Marshal(m)
		if einvoicetest.Validate(raw) == nil {
			t.Errorf("the schema took %s", raw)
		}
	}
}
