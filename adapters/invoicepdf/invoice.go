package invoicepdf

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/billing/invoice"
)

// documentTitle names what an invoice document is, as its page heads it.
func documentTitle(inv *invoice.Invoice) string {
	switch {
	case inv.Kind == invoice.KindCreditNote:
		return "Credit Note"
	case inv.BillOfSupply():
		return "Bill of Supply"
	default:
		return "Tax Invoice"
	}
}

// drawInvoice lays out an invoice: title, supplier and recipient, the
// document's details, the lines, the totals with the amount in words, the
// settlement (paid from, or credited to, the prepaid balance) and the notes.
func drawInvoice(d *doc, inv *invoice.Invoice) {
	title := documentTitle(inv)
	number := ascii(inv.Number, false)
	supplierName := ascii(inv.Supplier.LegalName, false)
	d.continuing = func() {
		d.font("B", bodySize)
		d.text(margin, margin, contentW/2, lineH, title+" "+number+" (continued)", "L")
		d.font("", bodySize)
		d.text(margin+contentW/2, margin, contentW/2, lineH, supplierName, "R")
		d.pdf.SetXY(margin, margin+lineH+2)
	}
	d.titleBar(strings.ToUpper(title))
	half := contentW / 2
	d.blockRow([]block{supplierBlock(inv.Supplier), recipientBlock(inv.Recipient)}, []float64{half, half})
	d.strip(invoiceDetails(d, inv))
	if inv.Kind == invoice.KindCreditNote {
		d.strip(creditNoteDetails(d, inv))
	}

	d.pdf.SetY(d.pdf.GetY() + 3)
	d.font("", smallSize)
	d.muted()
	d.text(margin, d.pdf.GetY(), contentW, smallLineH, "Amounts in Indian rupees (INR)", "R")
	d.normal()
	d.pdf.SetY(d.pdf.GetY() + smallLineH + 0.5)

	t := &table{d: d, cols: lineColumns(inv)}
	t.start()
	for i, l := range inv.Lines {
		t.row(lineCells(inv, i+1, l), rowStyle{})
	}
	t.row(totalCells(inv), rowStyle{bold: true, shade: true, merge: 5})

	d.pdf.SetY(d.pdf.GetY() + 3)
	drawSummary(d, inv)
	drawIRN(d, inv)
	drawNotes(d, inv)
}

// supplierBlock is the issuer's: the platform's, or a reseller's for its
// customers' documents (unregistered when it has no GSTIN).
func supplierBlock(p invoice.Party) block {
	gstin := ascii(p.GSTIN, false)
	if gstin == "" {
		gstin = "Unregistered"
	}
	b := block{heading: "Supplier", name: ascii(p.LegalName, false), lines: lines(p.Address), labelW: 20}
	b.fields = append(b.fields, field{"State", stateLabel(p.State)}, field{"GSTIN", gstin})
	if p.PAN != "" {
		b.fields = append(b.fields, field{"PAN", ascii(p.PAN, false)})
	}
	return b
}

func recipientBlock(p invoice.Party) block {
	gstin := ascii(p.GSTIN, false)
	if gstin == "" {
		gstin = "Unregistered"
	}
	b := block{heading: "Bill to", name: ascii(p.LegalName, false), lines: lines(p.Address), labelW: 20}
	if p.State != "" {
		b.fields = append(b.fields, field{"State", stateLabel(p.State)})
	}
	b.fields = append(b.fields, field{"GSTIN", gstin})
	return b
}

// invoiceDetails are the document's particulars, printed in a strip under
// the parties.
func invoiceDetails(d *doc, inv *invoice.Invoice) []field {
	label := "Invoice no."
	switch {
	case inv.Kind == invoice.KindCreditNote:
		label = "Credit note no."
	case inv.BillOfSupply():
		label = "Bill no."
	}
	fs := []field{{label, ascii(inv.Number, false)}}
	fs = append(fs,
		field{"Date of issue", inv.IssuedAt.In(d.loc).Format(dateLayout)},
		field{"Period", monthLabel(inv.Month)},
		field{"Place of supply", stateLabel(inv.PlaceOfSupply)},
		field{"Reverse charge", "No"},
	)
	return fs
}

// creditNoteDetails name the invoice a credit note corrects, its number and
// date side by side (CGST rule 53), and why the note was issued; a note
// stored before reasons were says what every credit note is.
func creditNoteDetails(d *doc, inv *invoice.Invoice) []field {
	date := ""
	if inv.CorrectsIssuedAt != nil {
		date = inv.CorrectsIssuedAt.In(d.loc).Format(dateLayout)
	}
	reason := inv.Reason
	if reason == "" {
		reason = "Refund of charges the original invoice billed"
	}
	return []field{
		{"Original invoice no.", ascii(inv.CorrectsNumber, false)},
		{"Original invoice date", date},
		{"Reason", ascii(reason, false)},
	}
}

// settlement says how the document's amount was settled: every charge is
// debited from the recipient's prepaid balance when it is made, and a
// credit note's amount is credited back to it, so no document asks for a
// payment (no bank details).
func settlement(inv *invoice.Invoice) block {
	if inv.Kind == invoice.KindCreditNote {
		return block{heading: "Settlement", name: "Credited to prepaid balance",
			lines: []string{"The amount was credited back to the recipient's prepaid balance when the charges were refunded. No payment is due."}}
	}
	return block{heading: "Payment", name: "Paid from prepaid balance",
		lines: []string{"Debited from the recipient's prepaid balance as each charge was made. No payment is due."}}
}

// Widths of the lines table's fixed columns; the description takes the
// rest of the page.
const (
	colNo     = 7.0
	colSAC    = 13.0
	colQty    = 15.0
	colPrice  = 18.0
	colAmount = 23.0 // taxable value and line total
	colHalf   = 19.0 // CGST, SGST
	colIGST   = 21.0
)

func lineColumns(inv *invoice.Invoice) []column {
	unit := "Unit price\n(incl. GST)"
	total := "Total\n(incl. GST)"
	if inv.BillOfSupply() {
		unit, total = "Unit price", "Amount"
	}
	cols := []column{
		{"#", colNo, "C"},
		{"Description", 0, "L"},
		{"SAC", colSAC, "C"},
		{"Qty", colQty, "R"},
		{unit, colPrice, "R"},
	}
	switch {
	case inv.BillOfSupply():
		cols = append(cols, column{total, colAmount + 4, "R"})
	case inv.IntraState():
		h := percent(halfRate(inv.Rate))
		cols = append(cols,
			column{"Taxable value", colAmount, "R"},
			column{"CGST " + h, colHalf, "R"},
			column{"SGST " + h, colHalf, "R"},
			column{total, colAmount, "R"})
	default:
		cols = append(cols,
			column{"Taxable value", colAmount, "R"},
			column{"IGST " + percent(inv.Rate), colIGST, "R"},
			column{total, colAmount, "R"})
	}
	rest := contentW
	for _, c := range cols {
		rest -= c.width
	}
	cols[1].width = rest
	return cols
}

func lineCells(inv *invoice.Invoice, n int, l invoice.Line) []string {
	unit := "various"
	if l.UnitPrice != nil {
		unit = price(*l.UnitPrice)
	}
	cells := []string{strconv.Itoa(n), ascii(l.Description, false), ascii(l.SAC, false), quantity(l.Quantity), unit}
	return append(cells, amountCells(inv, l.Taxable, l.CGST, l.SGST, l.IGST, l.Gross)...)
}

func totalCells(inv *invoice.Invoice) []string {
	t := inv.Totals
	return append([]string{"Total"}, amountCells(inv, t.Taxable, t.CGST, t.SGST, t.IGST, t.Gross)...)
}

// amountCells are a row's amount columns, as lineColumns heads them.
func amountCells(inv *invoice.Invoice, taxable, cgst, sgst, igst, gross decimal.Decimal) []string {
	switch {
	case inv.BillOfSupply():
		return []string{inr(gross)}
	case inv.IntraState():
		return []string{inr(taxable), inr(cgst), inr(sgst), inr(gross)}
	default:
		return []string{inr(taxable), inr(igst), inr(gross)}
	}
}

const summaryW = 78.0 // the tax summary box, right of the amount in words

// drawSummary prints, side by side, the amount in words with how it was
// settled (settlement), and the tax summary ending with the document's total.
func drawSummary(d *doc, inv *invoice.Invoice) {
	t := inv.Totals
	var rows []field
	switch {
	case inv.BillOfSupply():
		rows = []field{{"Value of supplies", rupees(t.Gross)}, {"GST", "Nil (bill of supply)"}}
	case inv.IntraState():
		h := percent(halfRate(inv.Rate))
		rows = []field{{"Taxable value", rupees(t.Taxable)}, {"CGST @ " + h, rupees(t.CGST)}, {"SGST @ " + h, rupees(t.SGST)}}
	default:
		rows = []field{{"Taxable value", rupees(t.Taxable)}, {"IGST @ " + percent(inv.Rate), rupees(t.IGST)}}
	}
	totalLabel := "Total (incl. GST)"
	switch {
	case inv.Kind == invoice.KindCreditNote:
		totalLabel = "Total credit"
	case inv.BillOfSupply():
		totalLabel = "Total"
	}
	summaryH := 1.5 + float64(len(rows))*lineH + 1.5 + lineH + 2.5

	leftW := contentW - summaryW
	left := block{heading: "Amount in words", labelW: 26}
	words := ascii(gst.InWords(t.Gross), false)
	payment := settlement(inv)
	d.font("B", bodySize)
	wordLines := d.wrap(words, leftW)
	leftH := d.blockHeight(left, leftW) + float64(len(wordLines))*lineH + d.blockHeight(payment, leftW)
	h := max(leftH, summaryH)
	d.ensure(h)
	x, y := margin, d.pdf.GetY()

	// Left: the amount in words, then how to pay.
	used := d.drawBlock(left, x, y, leftW) - 1.5
	d.font("B", bodySize)
	for i, l := range wordLines {
		d.text(x, y+used+float64(i)*lineH, leftW, lineH, l, "L")
	}
	used += float64(len(wordLines))*lineH + 1.5
	d.pdf.Line(x, y+used, x+leftW, y+used)
	d.drawBlock(payment, x, y+used, leftW)
	d.pdf.Rect(x, y, leftW, h, "D")

	// Right: the tax summary, amounts right-aligned, the total in bold.
	sx := x + leftW
	ry := y + 1.5
	for _, r := range rows {
		d.font("", bodySize)
		d.text(sx, ry, summaryW/2, lineH, r.label, "L")
		d.text(sx+summaryW/2, ry, summaryW/2, lineH, r.value, "R")
		ry += lineH
	}
	ry += 0.8
	d.pdf.Line(sx, ry, sx+summaryW, ry)
	ry += 0.8
	d.font("B", bodySize+1)
	d.text(sx, ry, summaryW/2, lineH+1, totalLabel, "L")
	d.text(sx+summaryW/2, ry, summaryW/2, lineH+1, rupees(t.Gross), "R")
	d.pdf.Rect(sx, y, summaryW, h, "D")
	d.pdf.SetXY(margin, y+h)
}

// drawNotes ends the document: why there is no tax on a bill of supply, and
// who signed the document or that it needs no signature.
func drawNotes(d *doc, inv *invoice.Invoice) {
	var notes []string
	if inv.BillOfSupply() {
		notes = append(notes, "Bill of supply: no GST is charged on these supplies.")
	}
	if inv.Kind == invoice.KindCreditNote {
		if inv.CorrectsNumber != "" {
			of := ""
			if inv.CorrectsIssuedAt != nil {
				of = " of " + inv.CorrectsIssuedAt.In(d.loc).Format(dateLayout)
			}
			notes = append(notes, "Issued against invoice "+ascii(inv.CorrectsNumber, false)+of+": it reduces the value and the tax that invoice charged.")
		}
		notes = append(notes, generatedNote(d, "credit note"))
	} else {
		notes = append(notes, generatedNote(d, "invoice"))
	}
	d.pdf.SetY(d.pdf.GetY() + 4)
	d.ensure(float64(len(notes)) * lineH)
	d.font("", smallSize+0.5)
	d.muted()
	for _, n := range notes {
		d.text(margin, d.pdf.GetY(), contentW, lineH, n, "C")
		d.pdf.SetY(d.pdf.GetY() + lineH)
	}
	d.normal()
}

// generatedNote says who digitally signed the document, or, when nobody
// signs it, that it is computer generated and needs no signature.
func generatedNote(d *doc, what string) string {
	if d.signedBy != "" {
		return "This " + what + " is digitally signed by " + d.signedBy + "."
	}
	return "This is a computer generated " + what + " and needs no signature."
}
