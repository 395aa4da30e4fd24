package invoice_test

import (
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/billing/invoice"
)

// registerDoc is a document of a supplier in Maharashtra (27) with lines of
// (SAC, quantity, gross), split at rate as the issuing code splits them.
func registerDoc(id uint64, kind invoice.Kind, gstin, pos, rate string, lines ...registerLine) invoice.Invoice {
	inv := invoice.Invoice{ID: id, Kind: kind, Rate: d(rate), PlaceOfSupply: pos, Supplier: invoice.Party{State: "27"},
		Recipient: invoice.Party{LegalName: "Recipient", State: pos, GSTIN: gstin}}
	for _, l := range lines {
		inv.Lines = append(inv.Lines, invoice.Line{SAC: l.sac, Quantity: l.qty, Gross: d(l.gross)})
	}
	inv.Lines = invoice.Retax(inv.Lines, invoice.Tax{Rate: inv.Rate, IntraState: inv.IntraState()})
	inv.Totals = invoice.Sum(inv.Lines)
	return inv
}

type registerLine struct {
	sac   string
	qty   int64
	gross string
}

func corrects(inv invoice.Invoice, id uint64) invoice.Invoice {
	inv.CorrectsID = &id
	return inv
}

// TestSectionOf: each document goes to the GSTR-1 table its recipient,
// place of supply, value, kind and rate say.
func TestSectionOf(t *testing.T) {
	const gstin = "27AAPFU0939F1ZV"
	for _, c := range []struct {
		name      string
		doc       invoice.Invoice
		corrected string
		want      invoice.Section
	}{
		{"invoice to a GSTIN", registerDoc(1, invoice.KindInvoice, gstin, "27", "18", registerLine{"998319", 1, "1.18"}), "0", invoice.SectionB2B},
		{"inter-state invoice to a GSTIN, however large", registerDoc(1, invoice.KindInvoice, "29AAGCB7383J1Z4", "29", "18",
			registerLine{"998319", 1, "500000.00"}), "0", invoice.SectionB2B},
		{"credit note to a GSTIN", registerDoc(1, invoice.KindCreditNote, gstin, "27", "18", registerLine{"998319", 1, "1.18"}), "0", invoice.SectionCDNR},
		{"small invoice, unregistered", registerDoc(1, invoice.KindInvoice, "", "27", "18", registerLine{"998319", 1, "1.18"}), "0", invoice.SectionB2CS},
		{"large intra-state invoice, unregistered", registerDoc(1, invoice.KindInvoice, "", "27", "18", registerLine{"998319", 1, "500000.00"}), "0",
			invoice.SectionB2CS},
		{"inter-state invoice of exactly the limit", registerDoc(1, invoice.KindInvoice, "", "29", "18", registerLine{"998319", 1, "100000.00"}), "0",
			invoice.SectionB2CS},
		{"inter-state invoice above the limit", registerDoc(1, invoice.KindInvoice, "", "29", "18", registerLine{"998319", 1, "100000.01"}), "0",
			invoice.SectionB2CL},
		{"credit note of a large inter-state invoice", registerDoc(1, invoice.KindCreditNote, "", "29", "18", registerLine{"998319", 1, "5.00"}),
			"118000.00", invoice.SectionCDNUR},
		{"large inter-state credit note", registerDoc(1, invoice.KindCreditNote, "", "29", "18", registerLine{"998319", 1, "100000.01"}), "0",
			invoice.SectionCDNUR},
		{"credit note of a small inter-state invoice", registerDoc(1, invoice.KindCreditNote, "", "29", "18", registerLine{"998319", 1, "5.00"}),
			"50.00", invoice.SectionB2CS},
		{"intra-state credit note, unregistered", registerDoc(1, invoice.KindCreditNote, "", "27", "18", registerLine{"998319", 1, "5.00"}),
			"118000.00", invoice.SectionB2CS},
		{"bill of supply", registerDoc(1, invoice.KindInvoice, gstin, "27", "0", registerLine{"998319", 1, "5.00"}), "0", invoice.SectionNil},
		{"credit note of a bill of supply", registerDoc(1, invoice.KindCreditNote, "", "29", "0", registerLine{"998319", 1, "500000.00"}), "0",
			invoice.SectionNil},
	} {
		if got := invoice.SectionOf(&c.doc, d(c.corrected)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// TestRegisterSumsEqualTheDocuments: a month of B2B, B2C (small and large),
// credit notes and a bill of supply gives one row per document in its
// table, and a SAC summary per scope, SAC and rate, credit notes
// subtracted, whose sums are the documents' net sums, column by column.
func TestRegisterSumsEqualTheDocuments(t *testing.T) {
	const gstin = "27AAPFU0939F1ZV"
	docs := []invoice.Invoice{
		registerDoc(1, invoice.KindInvoice, gstin, "27", "18", registerLine{"998319", 10, "118.00"}, registerLine{"997158", 2, "59.00"}),
		registerDoc(2, invoice.KindInvoice, "", "27", "18", registerLine{"998319", 1, "23.60"}),
		registerDoc(3, invoice.KindInvoice, "", "29", "18", registerLine{"998319", 1000, "118000.00"}),
		registerDoc(4, invoice.KindInvoice, "", "33", "18", registerLine{"998319", 5, "100000.00"}),
		corrects(registerDoc(5, invoice.KindCreditNote, gstin, "27", "18", registerLine{"998319", 1, "11.80"}), 1),
		corrects(registerDoc(6, invoice.KindCreditNote, "", "29", "18", registerLine{"998319", 10, "1180.00"}), 3),
		registerDoc(7, invoice.KindInvoice, "", "27", "0", registerLine{"998319", 3, "30.00"}),
	}
	reg := invoice.NewRegister(docs, map[uint64]decimal.Decimal{3: d("118000.00")})

	wantSections := []invoice.Section{invoice.SectionB2B, invoice.SectionB2CS, invoice.SectionB2CL, invoice.SectionB2CS,
		invoice.SectionCDNR, invoice.SectionCDNUR, invoice.SectionNil}
	if len(reg.Rows) != len(docs) {
		t.Fatalf("%d rows for %d documents", len(reg.Rows), len(docs))
	}
	for i, r := range reg.Rows {
		if r.Doc.ID != docs[i].ID || r.Section != wantSections[i] {
			t.Errorf("row %d: document %d in %s, want %d in %s", i, r.Doc.ID, r.Section, docs[i].ID, wantSections[i])
		}
	}

	// scope, SAC, rate, quantity, gross, taxable, CGST, SGST, IGST
	type sacRow [9]string
	want := []sacRow{
		{"b2b", "997158", "18.00", "2", "59.00", "50.00", "4.50", "4.50", "0.00"},
		{"b2b", "998319", "18.00", "9", "106.20", "90.00", "8.10", "8.10", "0.00"},
		{"b2c", "998319", "0.00", "3", "30.00", "30.00", "0.00", "0.00", "0.00"},
		{"b2c", "998319", "18.00", "996", "216843.60", "183765.76", "1.80", "1.80", "33074.24"},
	}
	var got []sacRow
	var sum invoice.Totals
	for _, r := range reg.SAC {
		got = append(got, sacRow{string(r.Scope), r.SAC, r.Rate.StringFixed(2), decimal.NewFromInt(r.Quantity).String(), r.Totals.Gross.StringFixed(2),
			r.Totals.Taxable.StringFixed(2), r.Totals.CGST.StringFixed(2), r.Totals.SGST.StringFixed(2), r.Totals.IGST.StringFixed(2)})
		sum = invoice.Totals{Gross: sum.Gross.Add(r.Totals.Gross), Taxable: sum.Taxable.Add(r.Totals.Taxable),
			CGST: sum.CGST.Add(r.Totals.CGST), SGST: sum.SGST.Add(r.Totals.SGST), IGST: sum.IGST.Add(r.Totals.IGST)}
	}
	if len(got) != len(want) {
		t.Fatalf("SAC summary %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("SAC row %d: %v, want %v", i, got[i], want[i])
		}
	}

	// The documents' own sums, added up here from their totals.
	var invoices, credits []invoice.Line
	for _, doc := range docs {
		l := invoice.Line{Gross: doc.Totals.Gross, Taxable: doc.Totals.Taxable, CGST: doc.Totals.CGST, SGST: doc.Totals.SGST, IGST: doc.Totals.IGST}
		if doc.Kind == invoice.KindCreditNote {
			credits = append(credits, l)
		} else {
			invoices = append(invoices, l)
		}
	}
	inv, cn := invoice.Sum(invoices), invoice.Sum(credits)
	net := invoice.Totals{Gross: inv.Gross.Sub(cn.Gross), Taxable: inv.Taxable.Sub(cn.Taxable), CGST: inv.CGST.Sub(cn.CGST),
		SGST: inv.SGST.Sub(cn.SGST), IGST: inv.IGST.Sub(cn.IGST)}
	for _, c := range []struct {
		name      string
		got, want invoice.Totals
	}{
		{"invoices", reg.Totals.Invoices, inv}, {"credit notes", reg.Totals.CreditNotes, cn}, {"net", reg.Totals.Net, net},
		{"the SAC summary's sums", sum, net},
	} {
		if !totalsEqual(c.got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, c.got, c.want)
		}
	}
	if !net.Gross.Equal(d("217038.80")) || !net.IGST.Equal(d("33074.24")) {
		t.Errorf("net %+v", net)
	}
}

func totalsEqual(a, b invoice.Totals) bool {
	return a.Gross.Equal(b.Gross) && a.Taxable.Equal(b.Taxable) && a.CGST.Equal(b.CGST) && a.SGST.Equal(b.SGST) && a.IGST.Equal(b.IGST)
}
