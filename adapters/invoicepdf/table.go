package invoicepdf

import "strings"

const (
	tableSize  = 8.0 // points
	tableLineH = 3.7
)

// column is a table column: its header ("\n" separates the header's
// lines), width in millimetres and alignment ("L", "C", "R": amounts are
// right-aligned so their digits line up). Text in a left-aligned column
// wraps; in the others (numbers and codes) it stays on one line, in a
// smaller size when it would not fit, so a large amount is never broken.
type column struct {
	title string
	width float64
	align string
}

// table draws rows that wrap within their cells and flow onto further
// pages, repeating the header at the top of each.
type table struct {
	d    *doc
	cols []column
}

// rowStyle: a bold row (totals), a shaded one (opening and closing
// balances), and merge, how many leading columns the first cell spans.
type rowStyle struct {
	bold, shade bool
	merge       int
}

func (t *table) headerHeight() float64 {
	n := 1
	for _, c := range t.cols {
		n = max(n, strings.Count(c.title, "\n")+1)
	}
	return float64(n)*(tableLineH-0.3) + 2*cellPadY
}

// start draws the header where the table begins, on a new page when the
// header and a first row would not fit.
func (t *table) start() {
	t.d.ensure(t.headerHeight() + tableLineH + 2*cellPadY)
	t.header()
}

func (t *table) header() {
	p := t.d.pdf
	h := t.headerHeight()
	x, y := margin, p.GetY()
	p.SetFillColor(headerShade, headerShade, headerShade)
	t.d.font("B", tableSize-0.5)
	for _, c := range t.cols {
		p.Rect(x, y, c.width, h, "FD")
		ls := strings.Split(c.title, "\n")
		// Header lines sit at the bottom of the cell, over the values.
		ty := y + h - cellPadY - float64(len(ls))*(tableLineH-0.3)
		for _, l := range ls {
			t.d.text(x, ty, c.width, tableLineH-0.3, l, c.align)
			ty += tableLineH - 0.3
		}
		x += c.width
	}
	p.SetXY(margin, y+h)
}

// row draws one row of len(t.cols)-merge+1 cells (merged columns take one
// cell), starting a new page with the header when it does not fit.
func (t *table) row(cells []string, st rowStyle) {
	cols := t.cols
	if st.merge > 1 {
		merged := column{width: 0, align: "L"}
		for _, c := range cols[:st.merge] {
			merged.width += c.width
		}
		cols = append([]column{merged}, cols[st.merge:]...)
	}
	style := ""
	if st.bold {
		style = "B"
	}
	t.d.font(style, tableSize)
	wrapped := make([][]string, len(cols))
	n := 1
	for i, c := range cols {
		switch {
		case i >= len(cells):
		case c.align == "L":
			wrapped[i] = t.d.wrap(cells[i], c.width)
		default:
			wrapped[i] = []string{cells[i]}
		}
		n = max(n, len(wrapped[i]))
	}
	h := float64(n)*tableLineH + 2*cellPadY
	if t.d.ensure(h) {
		t.header()
		t.d.font(style, tableSize)
	}
	p := t.d.pdf
	x, y := margin, p.GetY()
	mode := "D"
	if st.shade {
		mode = "FD"
		p.SetFillColor(248, 248, 248)
	}
	for i, c := range cols {
		p.Rect(x, y, c.width, h, mode)
		for j, l := range wrapped[i] {
			size := tableSize
			for size > 4 && p.GetStringWidth(l) > c.width-2*cellPad {
				size -= 0.25
				t.d.font(style, size)
			}
			t.d.text(x, y+cellPadY+float64(j)*tableLineH, c.width, tableLineH, l, c.align)
			if size != tableSize {
				t.d.font(style, tableSize)
			}
		}
		x += c.width
	}
	p.SetXY(margin, y+h)
}
