package invoicepdf_test

import (
	"context"
	"strings"
	"testing"

	"paygate/adapters/invoicepdf"
	"paygate/core/billing/invoice"
)

func renderStatement(t *testing.T, st *invoice.Statement) []byte {
	t.Helper()
	pdf, err := invoicepdf.New().Statement(context.Background(), st, kolkata)
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

// entryText is an entry's row as the flat text reads it.
func entryText(e invoice.StatementEntry) string {
	debit, credit := "", inr(e.Amount)
	if e.Type == "debit" {
		debit, credit = inr(e.Amount), ""
	}
	cells := []string{e.At.In(kolkata).Format("02 Jan 2006 15:04"), strings.ToUpper(e.Type[:1]) + e.Type[1:], e.Reference, e.Description, debit, credit, inr(e.BalanceAfter)}
	return strings.Join(strings.Fields(strings.Join(cells, " ")), " ")
}

func TestStatementShowsOpeningEveryEntryAndClosing(t *testing.T) {
	st := novemberStatement(12)
	layout, flat := pdfText(t, "statement", renderStatement(t, st))
	mustContain(t, layout,
		"ACCOUNT STATEMENT", "Paygate Technologies Private Limited", "27AAPFU0939F1ZV",
		"Sahyadri Lending Services Private Limited", "27AASCS2460H1Z0",
		"November 2026", "01 Nov 2026 to 30 Nov 2026", "Asia/Kolkata",
	)
	mustContain(t, flat,
		"Opening balance "+inr(st.Opening),
		"Total for the month "+inr(st.Debits)+" "+inr(st.Credits),
		"Closing balance "+inr(st.Closing),
		"Opening balance Rs. "+inr(st.Opening), "Credits Rs. "+inr(st.Credits),
		"Debits Rs. "+inr(st.Debits), "Closing balance Rs. "+inr(st.Closing),
	)
	for _, e := range st.Entries {
		mustContain(t, flat, entryText(e))
	}
	if last := st.Entries[len(st.Entries)-1]; !last.BalanceAfter.Equal(st.Closing) {
		t.Fatal("fixture: closing balance is not the balance after the last entry")
	}
}

func TestLongStatementFlowsOntoFurtherPages(t *testing.T) {
	st := novemberStatement(150)
	layout, flat := pdfText(t, "statement-long", renderStatement(t, st))
	n := pages(layout)
	if n < 3 {
		t.Fatalf("150 entries on %d page(s)", n)
	}
	if got := strings.Count(layout, "Description"); got != n {
		t.Errorf("table header printed %d times on %d pages", got, n)
	}
	mustContain(t, layout, "Account statement November 2026 (continued)")
	for _, e := range st.Entries {
		mustContain(t, flat, entryText(e))
	}
	mustContain(t, flat, "Closing balance "+inr(st.Closing))
}

func TestEmptyStatement(t *testing.T) {
	st := novemberStatement(0)
	st.Closing = st.Opening
	_, flat := pdfText(t, "statement-empty", renderStatement(t, st))
	mustContain(t, flat, "No entries in this month", "Opening balance "+inr(st.Opening), "Closing balance "+inr(st.Closing))
}
