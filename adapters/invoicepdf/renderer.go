// Package invoicepdf draws tax invoices, credit notes and account statements
// as A4 PDF pages with github.com/go-pdf/fpdf (docs/decisions.md, "Tax
// invoices, credit notes and statements").
//
// The text uses the PDF core font Helvetica, so no font file is embedded and
// every reader shows the same glyphs; those fonts have no ₹ and fpdf measures
// them in one byte a character, so every string is first made ASCII
// (accents dropped) and amounts read "Rs. 1,20,500.50" in the Indian digit
// grouping. The output is deterministic: the same document and location
// give the same bytes (the PDF's dates are the document's own, its
// resources are written in a fixed order and no ID is written).
//
// With a Signer (NewSigned), the renderer signs each finished invoice and
// credit note, appending the signature as an incremental update: the text
// stays the same for the same document, and the signature adds the signing
// time. Signing belongs here, not behind a port of the core: it changes the
// file, not the document, and the same adapter prints who signed it.
package invoicepdf

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/go-pdf/fpdf"

	"paygate/core/billing/invoice"
)

// Renderer implements invoice.Renderer. It holds nothing it changes: one
// Renderer serves any number of goroutines.
type Renderer struct {
	signer *Signer // nil: documents are not signed
}

var _ invoice.Renderer = (*Renderer)(nil)

// New returns a Renderer whose documents say they are computer generated.
func New() *Renderer { return &Renderer{} }

// NewSigned returns a Renderer that signs every invoice and credit note the
// platform issues with s, its certificate; the document says who signed it.
// A reseller's documents are not signed in the platform's name, and
// statements are no tax documents: both stay unsigned. A nil s is New().
func NewSigned(s *Signer) *Renderer { return &Renderer{signer: s} }

// Invoice draws a tax invoice, a bill of supply (rate 0) or a credit note.
// Dates print in loc (UTC when nil).
func (r *Renderer) Invoice(ctx context.Context, inv *invoice.Invoice, loc *time.Location) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if inv == nil {
		return nil, fmt.Errorf("invoicepdf: no invoice")
	}
	title := documentTitle(inv) + " " + ascii(inv.Number, false)
	d := newDoc(title, inv.Supplier.LegalName, inv.IssuedAt, orUTC(loc))
	signs := r.signer != nil && inv.IssuerID == nil
	if signs {
		d.signedBy = ascii(r.signer.Name(), false)
	}
	drawInvoice(d, inv)
	out, err := d.output()
	if err != nil || !signs {
		return out, err
	}
	return r.signer.Sign(out, title)
}

// Statement draws an account statement. Dates and times print in loc (UTC
// when nil).
func (r *Renderer) Statement(ctx context.Context, st *invoice.Statement, loc *time.Location) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if st == nil {
		return nil, fmt.Errorf("invoicepdf: no statement")
	}
	d := newDoc("Account statement "+monthLabel(st.Month), st.Supplier.LegalName, st.GeneratedAt, orUTC(loc))
	drawStatement(d, st)
	return d.output()
}

func orUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// Page geometry, in millimetres (A4 portrait).
const (
	pageW        = 210.0
	pageH        = 297.0
	margin       = 12.0
	contentW     = pageW - 2*margin
	bottomLimit  = pageH - 18 // content ends here; the footer is below
	footerY      = pageH - 12
	bodySize     = 8.5 // points
	smallSize    = 7.5
	lineH        = 4.0 // a line of body text
	smallLineH   = 3.4
	cellPad      = 1.6 // inside a box or table cell, left and right
	cellPadY     = 1.2 // inside a table cell, top and bottom
	ruleWidth    = 0.2
	headerShade  = 236 // grey level of headings' background
	ruleShade    = 150 // grey level of the box lines
	mutedShade   = 90  // grey level of labels
	titleBarSize = 13
)

// doc is one PDF being drawn: fpdf, the location its dates print in, and
// the line drawn at the top of every page after the first.
type doc struct {
	pdf        *fpdf.Fpdf
	loc        *time.Location
	title      string // "Tax Invoice PG/26-27/000001", for the footer
	signedBy   string // who signs the finished file; "" when nobody does
	continuing func()
}

func newDoc(title, author string, at time.Time, loc *time.Location) *doc {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(false, 0) // rows are placed by hand, to repeat the table header
	pdf.SetCellMargin(cellPad)
	pdf.SetLineWidth(ruleWidth)
	pdf.SetDrawColor(ruleShade, ruleShade, ruleShade)
	// Deterministic bytes: the document's own date instead of the clock,
	// sorted resource catalogs, a fixed producer; fpdf writes no /ID for
	// an unencrypted file.
	if at.IsZero() {
		at = time.Unix(0, 0)
	}
	pdf.SetCreationDate(at.In(loc))
	pdf.SetModificationDate(at.In(loc))
	pdf.SetCatalogSort(true)
	pdf.SetCompression(true)
	pdf.SetProducer("paygate", false)
	pdf.SetCreator("paygate", false)
	pdf.SetTitle(title, false)
	pdf.SetAuthor(ascii(author, false), false)
	pdf.AliasNbPages("{nb}")
	d := &doc{pdf: pdf, loc: loc, title: title}
	pdf.SetFooterFunc(d.footer)
	pdf.AddPage()
	return d
}

func (d *doc) output() ([]byte, error) {
	var buf bytes.Buffer
	if err := d.pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("invoicepdf: %w", err)
	}
	return buf.Bytes(), nil
}

// footer prints the document and the page number on every page.
func (d *doc) footer() {
	p := d.pdf
	p.SetFont("Helvetica", "", smallSize)
	p.SetTextColor(mutedShade, mutedShade, mutedShade)
	p.SetXY(margin, footerY)
	p.CellFormat(contentW/2, smallLineH, d.title, "", 0, "L", false, 0, "")
	p.CellFormat(contentW/2, smallLineH, fmt.Sprintf("Page %d of {nb}", p.PageNo()), "", 0, "R", false, 0, "")
	p.SetTextColor(0, 0, 0)
}

// ensure starts a new page when h millimetres do not fit below the current
// position; it reports whether it did.
func (d *doc) ensure(h float64) bool {
	if d.pdf.GetY()+h <= bottomLimit {
		return false
	}
	d.pdf.AddPage()
	d.pdf.SetXY(margin, margin)
	if d.continuing != nil {
		d.continuing()
	}
	return true
}

// font sets Helvetica: style "" or "B", size in points.
func (d *doc) font(style string, size float64) { d.pdf.SetFont("Helvetica", style, size) }

func (d *doc) muted()  { d.pdf.SetTextColor(mutedShade, mutedShade, mutedShade) }
func (d *doc) normal() { d.pdf.SetTextColor(0, 0, 0) }

// text prints one line of ASCII text at (x, y) in a box w wide.
func (d *doc) text(x, y, w, h float64, s, align string) {
	d.pdf.SetXY(x, y)
	d.pdf.CellFormat(w, h, s, "", 0, align, false, 0, "")
}

// titleBar draws the document's title across the page, in a shaded box.
func (d *doc) titleBar(title string) {
	p := d.pdf
	y := p.GetY()
	p.SetFillColor(headerShade, headerShade, headerShade)
	p.Rect(margin, y, contentW, 9, "FD")
	d.font("B", titleBarSize)
	d.text(margin, y, contentW, 9, title, "C")
	p.SetXY(margin, y+9)
}

// field is a labelled value in a block: "GSTIN" "27AAPFU0939F1ZV".
type field struct{ label, value string }

// block is the content of a box: a heading, a bold first line (a name),
// plain lines (an address) and labelled fields.
type block struct {
	heading string
	name    string
	lines   []string
	fields  []field
	labelW  float64 // width of the fields' labels; 0 for the default
}

// wrap splits s into the lines a cell w wide holds at the current font
// (fpdf leaves the cell margin free on both sides).
func (d *doc) wrap(s string, w float64) []string {
	if s == "" {
		return []string{""}
	}
	return d.pdf.SplitText(s, w)
}

// drawBlock prints b in the box at (x, y) w wide, without its border, and
// returns the height it took.
func (d *doc) drawBlock(b block, x, y, w float64) float64 {
	top := y
	y += 1.5
	if b.heading != "" {
		d.font("B", smallSize)
		d.muted()
		d.text(x, y, w, smallLineH, b.heading, "L")
		d.normal()
		y += smallLineH + 0.6
	}
	if b.name != "" {
		d.font("B", bodySize+1)
		for _, l := range d.wrap(b.name, w) {
			d.text(x, y, w, lineH+0.4, l, "L")
			y += lineH + 0.4
		}
	}
	d.font("", bodySize)
	for _, raw := range b.lines {
		for _, l := range d.wrap(raw, w) {
			d.text(x, y, w, lineH, l, "L")
			y += lineH
		}
	}
	labelW := b.labelW
	if labelW == 0 {
		labelW = 24
	}
	for _, f := range b.fields {
		d.font("", smallSize+0.5)
		d.muted()
		d.text(x, y, labelW, lineH, f.label, "L")
		d.normal()
		d.font("B", bodySize)
		vals := d.wrap(f.value, w-labelW+cellPad)
		for i, l := range vals {
			d.pdf.SetXY(x+labelW-cellPad, y)
			d.pdf.CellFormat(w-labelW+cellPad, lineH, l, "", 0, "L", false, 0, "")
			if i < len(vals)-1 {
				y += lineH
			}
		}
		y += lineH
	}
	return y + 1.5 - top
}

// blockHeight measures b without drawing it.
func (d *doc) blockHeight(b block, w float64) float64 {
	h := 3.0
	if b.heading != "" {
		h += smallLineH + 0.6
	}
	if b.name != "" {
		d.font("B", bodySize+1)
		h += float64(len(d.wrap(b.name, w))) * (lineH + 0.4)
	}
	d.font("", bodySize)
	for _, raw := range b.lines {
		h += float64(len(d.wrap(raw, w))) * lineH
	}
	labelW := b.labelW
	if labelW == 0 {
		labelW = 24
	}
	d.font("B", bodySize)
	for _, f := range b.fields {
		h += float64(len(d.wrap(f.value, w-labelW+cellPad))) * lineH
	}
	return h
}

// blockRow draws blocks side by side in boxes of the given widths, all as
// tall as the tallest, from the current position, and moves below them.
func (d *doc) blockRow(blocks []block, widths []float64) {
	h := 0.0
	for i, b := range blocks {
		h = max(h, d.blockHeight(b, widths[i]))
	}
	d.ensure(h)
	y := d.pdf.GetY()
	x := margin
	for i, b := range blocks {
		d.drawBlock(b, x, y, widths[i])
		d.pdf.Rect(x, y, widths[i], h, "D")
		x += widths[i]
	}
	d.pdf.SetXY(margin, y+h)
}

// strip prints labelled values side by side in boxes, each label small
// above its value. The boxes line up with the two halves of the page above
// them: the first half of the fields (one more when odd) share the left
// half, the rest the right.
func (d *doc) strip(fs []field) {
	left := (len(fs) + 1) / 2
	widths := make([]float64, len(fs))
	for i := range fs {
		if i < left {
			widths[i] = contentW / 2 / float64(left)
		} else {
			widths[i] = contentW / 2 / float64(len(fs)-left)
		}
	}
	d.font("B", bodySize)
	vals := make([][]string, len(fs))
	n := 1
	for i, f := range fs {
		vals[i] = d.wrap(f.value, widths[i])
		n = max(n, len(vals[i]))
	}
	h := 1.5 + smallLineH + 0.4 + float64(n)*lineH + 1.2
	d.ensure(h)
	x, y := margin, d.pdf.GetY()
	for i, f := range fs {
		w := widths[i]
		d.pdf.Rect(x, y, w, h, "D")
		d.font("", smallSize)
		d.muted()
		d.text(x, y+1.5, w, smallLineH, f.label, "L")
		d.normal()
		d.font("B", bodySize)
		for j, l := range vals[i] {
			d.text(x, y+1.5+smallLineH+0.4+float64(j)*lineH, w, lineH, l, "L")
		}
		x += w
	}
	d.pdf.SetXY(margin, y+h)
}
