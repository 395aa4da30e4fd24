package invoicepdf

import (
	"strconv"
	"strings"
	"time"

	"paygate/core/billing/invoice"
)

// drawStatement lays out an account statement: who issues it and whose
// account it is, the month and its balances, then every entry between the
// opening and the closing balance.
func drawStatement(d *doc, st *invoice.Statement) {
	month := monthLabel(st.Month)
	account := ascii(st.Account.LegalName, false)
	d.continuing = func() {
		d.font("B", bodySize)
		d.text(margin, margin, contentW/2, lineH, "Account statement "+month+" (continued)", "L")
		d.font("", bodySize)
		d.text(margin+contentW/2, margin, contentW/2, lineH, account, "R")
		d.pdf.SetXY(margin, margin+lineH+2)
	}
	d.titleBar("ACCOUNT STATEMENT")
	half := contentW / 2
	issuer := supplierBlock(st.Supplier)
	issuer.heading = "Issued by"
	d.blockRow([]block{issuer, accountBlock(st)}, []float64{half, half})
	d.strip([]field{
		{"Month", month},
		{"Period", period(st.From, st.To, d.loc)},
		{"Generated", st.GeneratedAt.In(d.loc).Format(dateTimeLayout)},
		{"Times in", d.loc.String()},
	})
	d.strip([]field{
		{"Opening balance", rupees(st.Opening)},
		{"Credits", rupees(st.Credits)},
		{"Debits", rupees(st.Debits)},
		{"Closing balance", rupees(st.Closing)},
	})

	d.pdf.SetY(d.pdf.GetY() + 3)
	d.font("", smallSize)
	d.muted()
	d.text(margin, d.pdf.GetY(), contentW, smallLineH, "Amounts in Indian rupees (INR)", "R")
	d.normal()
	d.pdf.SetY(d.pdf.GetY() + smallLineH + 0.5)

	t := &table{d: d, cols: statementColumns()}
	t.start()
	t.row([]string{"Opening balance", "", "", inr(st.Opening)}, rowStyle{shade: true, merge: 4})
	for _, e := range st.Entries {
		debit, credit := "", ""
		if e.Type == "debit" {
			debit = inr(e.Amount.Abs())
		} else {
			credit = inr(e.Amount.Abs())
		}
		t.row([]string{
			e.At.In(d.loc).Format(dateTimeLayout),
			entryType(e.Type),
			ascii(e.Reference, false),
			ascii(e.Description, false),
			debit, credit, inr(e.BalanceAfter),
		}, rowStyle{})
	}
	if len(st.Entries) == 0 {
		t.row([]string{"No entries in this month", "", "", ""}, rowStyle{merge: 4})
	}
	t.row([]string{"Total for the month", inr(st.Debits), inr(st.Credits), ""}, rowStyle{bold: true, merge: 4})
	t.row([]string{"Closing balance", "", "", inr(st.Closing)}, rowStyle{bold: true, shade: true, merge: 4})

	d.pdf.SetY(d.pdf.GetY() + 4)
	d.ensure(lineH)
	d.font("", smallSize+0.5)
	d.muted()
	d.text(margin, d.pdf.GetY(), contentW, lineH, "This is a computer generated statement and needs no signature.", "C")
	d.normal()
}

func accountBlock(st *invoice.Statement) block {
	b := recipientBlock(st.Account)
	b.heading = "Account"
	if st.AccountID != 0 {
		b.fields = append([]field{{"Account no.", strconv.FormatUint(st.AccountID, 10)}}, b.fields...)
	}
	if st.Account.Email != "" {
		b.fields = append(b.fields, field{"Email", ascii(st.Account.Email, false)})
	}
	return b
}

func statementColumns() []column {
	cols := []column{
		{"Date and time", 29, "L"},
		{"Type", 14, "L"},
		{"Reference", 24, "L"},
		{"Description", 0, "L"},
		{"Debit", 22, "R"},
		{"Credit", 22, "R"},
		{"Balance", 24, "R"},
	}
	rest := contentW
	for _, c := range cols {
		rest -= c.width
	}
	cols[3].width = rest
	return cols
}

// entryType writes a ledger entry's type as a word: "debit" → "Debit".
func entryType(t string) string {
	t = ascii(t, false)
	if t == "" {
		return ""
	}
	return strings.ToUpper(t[:1]) + t[1:]
}

// period writes a statement's range of dates in loc. To is the exclusive
// end, as a month's range is, so an end at local midnight prints as the
// day before: 1 Nov to 1 Dec 00:00 is "01 Nov 2026 to 30 Nov 2026".
func period(from, to time.Time, loc *time.Location) string {
	if from.IsZero() || to.IsZero() {
		return ""
	}
	end := to.In(loc)
	if end.Hour() == 0 && end.Minute() == 0 && end.Second() == 0 && end.Nanosecond() == 0 {
		end = end.AddDate(0, 0, -1)
	}
	return from.In(loc).Format(dateLayout) + " to " + end.Format(dateLayout)
}
