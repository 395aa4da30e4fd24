package invoicepdf

import (
	"fmt"

	qrcode "github.com/yeqown/go-qrcode/v2"

	"paygate/core/billing/invoice"
)

// The e-invoice block (docs/decisions.md, "Tax invoices, credit notes and
// statements"): a document whose issuer recorded its registration prints
// the IRN, the acknowledgement number and date, and the portal's signed
// QR code as a QR code (the same library as the checkout pages', drawn as
// vector squares so it stays sharp at any zoom and the bytes stay
// deterministic).

const (
	irnQRSize  = 46.0 // the QR code's side, quiet zone included, in mm
	qrQuiet    = 4    // the blank border QR readers need, in modules (ISO/IEC 18004)
	irnLabelW  = 22.0
	irnHeading = "E-invoice (registered with the Invoice Registration Portal)"
)

// drawIRN prints inv's e-invoice block under the summary; nothing without
// an IRN. A signed QR code is at most invoice.MaxSignedQR characters, which
// a QR code always holds; were it ever refused, the block says so instead
// of drawing a code.
func drawIRN(d *doc, inv *invoice.Invoice) {
	if inv.IRN == nil {
		return
	}
	irn := inv.IRN
	bits, err := qrModules(irn.SignedQR)
	note := "Scan the QR code to verify the signed e-invoice."
	if err != nil {
		bits, note = nil, "The signed QR code could not be drawn: verify the IRN on the portal."
	}
	b := block{heading: irnHeading, labelW: irnLabelW, fields: []field{
		{"IRN", irn.IRN},
		{"Ack. no.", ascii(irn.AckNo, false)},
		{"Ack. date", irn.AckDate.In(d.loc).Format(dateLayout + " 15:04")},
	}}
	leftW := contentW - irnQRSize - 2
	h := max(d.blockHeight(b, leftW), irnQRSize+2)
	d.pdf.SetY(d.pdf.GetY() + 3)
	d.ensure(h)
	x, y := margin, d.pdf.GetY()
	d.drawBlock(b, x, y, leftW)
	d.font("", smallSize)
	d.muted()
	d.text(x, y+h-smallLineH-1.5, leftW, smallLineH, note, "L")
	d.normal()
	d.pdf.Rect(x, y, contentW, h, "D")

	// The QR code, right, black squares on the page's white.
	modules := len(bits) + 2*qrQuiet
	m := irnQRSize / float64(modules)
	qx, qy := margin+contentW-irnQRSize-1, y+(h-irnQRSize)/2
	d.pdf.SetFillColor(0, 0, 0)
	for r, row := range bits {
		for c := 0; c < len(row); {
			if !row[c] {
				c++
				continue
			}
			run := c
			for run < len(row) && row[run] {
				run++
			}
			// One rectangle per run of dark modules in a row: fewer
			// operators, and no hairline gaps between neighbours.
			d.pdf.Rect(qx+float64(c+qrQuiet)*m, qy+float64(r+qrQuiet)*m, float64(run-c)*m, m, "F")
			c = run
		}
	}
	d.pdf.SetFillColor(255, 255, 255)
	d.pdf.SetXY(margin, y+h)
}

// qrModules is text as a QR code's modules (rows of dark or light), medium
// error correction, as the checkout pages encode theirs.
func qrModules(text string) ([][]bool, error) {
	code, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, fmt.Errorf("invoicepdf: encode the signed QR code: %w", err)
	}
	var bits [][]bool
	if err := code.Save(moduleWriter{&bits}); err != nil {
		return nil, fmt.Errorf("invoicepdf: encode the signed QR code: %w", err)
	}
	return bits, nil
}

// moduleWriter takes the code's modules from the encoder, which writes
// through a Writer.
type moduleWriter struct{ bits *[][]bool }

func (w moduleWriter) Write(m qrcode.Matrix) error {
	*w.bits = m.Bitmap()
	return nil
}

func (moduleWriter) Close() error { return nil }
