package statement_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/gateway/payment"
	"paygate/core/money/statement"
	"paygate/core/money/topup"
	"paygate/core/platform/errs"
)

func TestParseAmount(t *testing.T) {
	for in, want := range map[string]string{"1,00,000.00": "100000", "100,000.00": "100000", "₹ 2,500": "2500", "2500.50 Cr": "2500.5",
		"INR 10": "10", "0.00": "0"} {
		got, ok := statement.ParseAmount(in)
		if !ok || !got.Equal(decimal.RequireFromString(want)) {
			t.Errorf("ParseAmount(%q) = %v %v, want %s", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "-", "-5.00", "abc", "1.234"} {
		if _, ok := statement.ParseAmount(in); ok {
			t.Errorf("ParseAmount(%q) accepted", in)
		}
	}
}

func TestParseDate(t *testing.T) {
	for _, in := range []string{"02/04/2024", "02-04-2024", "2024-04-02", "02-Apr-2024", "02 Apr 2024", "02/04/24", "02-Apr-24", "02/04/2024 10:15:00"} {
		d, ok := statement.ParseDate(in)
		if !ok || d.Format("2006-01-02") != "2024-04-02" {
			t.Errorf("ParseDate(%q) = %v %v", in, d, ok)
		}
	}
	for _, in := range []string{"", "Total", "Opening Balance", "31/02/2024"} {
		if _, ok := statement.ParseDate(in); ok {
			t.Errorf("ParseDate(%q) accepted", in)
		}
	}
}

func TestUTROf(t *testing.T) {
	for _, c := range []struct{ ref, narration, want string }{
		{"412345678901", "", "412345678901"},
		{" n1232400 12345678 ", "", "N123240012345678"},
		{"000412345678901", "", "412345678901"},
		{"", "UPI/412345678901/PAYMENT/ravi@okaxis", "412345678901"},
		{"0", "UPI/412345678901/X", "412345678901"},
		{"", "NO REFERENCE HERE 1234", ""},
		{"", "ACCOUNT 9876543210123 IS TOO LONG", ""},
	} {
		if got := statement.UTROf(c.ref, c.narration); got != c.want {
			t.Errorf("UTROf(%q, %q) = %q, want %q", c.ref, c.narration, got, c.want)
		}
	}
	if ids := statement.PaymentIDsIn("UPI/4123/PAY_01J9Z8X4K3M2N1P0Q9R8S7T6V5/X"); len(ids) != 1 || ids[0] != "pay_01J9Z8X4K3M2N1P0Q9R8S7T6V5" {
		t.Errorf("PaymentIDsIn: %v", ids)
	}
}

// An HDFC-style export: synonyms for every column, a preamble, a
// blank debit cell, a quoted narration with a comma and a doubled quote.
const hdfc = `HDFC BANK Ltd.,,,,,,
Account Branch : MG ROAD,,,,,,
Date,Narration,Chq./Ref.No.,Value Dt,Withdrawal Amt.,Deposit Amt.,Closing Balance
01/04/24,"UPI-RAVI KUMAR-ravi@okaxis-412345678901-PAY ""A""",0000412345678901,01/04/24,,"1,500.00","1,01,500.00"
01/04/24,UPI-SAME-x@y-412345678901-PAY,0000412345678901,01/04/24,,"1,500.00","1,01,500.00"
02/04/24,NEFT DR-SOMEONE,N1234,02/04/24,"5,000.00",,"96,500.00"
,,,,,,
STATEMENT SUMMARY :-,,,,,,
Opening Balance,Dr Count,Cr Count,Debits,Credits,Closing Bal,
"1,00,000.00",1,2,"5,000.00","3,000.00","96,500.00",
`

func TestParseBankExport(t *testing.T) {
	p, err := statement.Parse(strings.NewReader(hdfc), statement.Mapping{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Lines) != 2 || p.Debits != 1 || p.Skipped != 4 {
		t.Fatalf("lines %d debits %d skipped %d", len(p.Lines), p.Debits, p.Skipped)
	}
	l := p.Lines[0]
	if l.UTR != "412345678901" || !l.Amount.Equal(decimal.RequireFromString("1500")) || l.Date.Format("2006-01-02") != "2024-04-01" ||
		!strings.Contains(l.Narration, `PAY "A"`) || l.Balance == nil || !l.Balance.Equal(decimal.RequireFromString("101500")) || l.LineNo != 4 {
		t.Errorf("line: %+v", l)
	}
	// Two lines alike but for the narration: two keys; the same file
	// parsed again gives the same keys.
	if p.Lines[0].Key == p.Lines[1].Key {
		t.Error("distinct lines share a key")
	}
	again, _ := statement.Parse(strings.NewReader(hdfc), statement.Mapping{})
	if again.Lines[0].Key != p.Lines[0].Key || again.Lines[1].Key != p.Lines[1].Key {
		t.Error("keys differ between parses")
	}
}

func TestParseIdenticalLinesKeepBoth(t *testing.T) {
	f := "Date,Narration,Ref No,Debit,Credit,Balance\n01/04/2024,CASH DEP,,,100.00,\n01/04/2024,CASH DEP,,,100.00,\n"
	p, err := statement.Parse(strings.NewReader(f), statement.Mapping{})
	if err != nil || len(p.Lines) != 2 || p.Lines[0].Key == p.Lines[1].Key {
		t.Fatalf("identical lines: %v %+v", err, p)
	}
}

func TestParseRefusesAFileWithoutHeader(t *testing.T) {
	for _, f := range []string{"", "a,b,c\n1,2,3\n", "Date,Credit\n01/04/2024,100\n"} {
		_, err := statement.Parse(strings.NewReader(f), statement.Mapping{})
		if e, ok := errs.As(err); !ok || e.Fields["file"] == nil {
			t.Errorf("%q: %v", f, err)
		}
	}
	_, err := statement.Parse(strings.NewReader("Date,Narration,Credit\n"), statement.Mapping{Ref: "UTR"})
	if e, ok := errs.As(err); !ok || e.Fields["ref_column"] == nil {
		t.Errorf("missing mapped column: %v", err)
	}
}

func TestPlan(t *testing.T) {
	amt := decimal.RequireFromString
	line := func(utr, amount string, ids ...string) statement.Line {
		return statement.Line{UTR: utr, Amount: amt(amount), PayIDs: ids}
	}
	c := statement.NewCandidates([]statement.PaymentRef{
		{ID: 1, PublicID: "pay_A", UTR: "111111111111", Amount: amt("100"), Status: payment.StatusPending},
		{ID: 2, PublicID: "pay_B", UTR: "222222222222", Amount: amt("50"), Status: payment.StatusPending},
		{ID: 3, PublicID: "pay_C", UTR: "333333333333", Amount: amt("10"), Status: payment.StatusSuccess},
		{ID: 4, PublicID: "pay_D", Amount: amt("70"), Status: payment.StatusCreated},
	}, []statement.TopUpRef{
		{ID: 7, UTR: "N777", Amount: amt("500"), Status: topup.StatusPending},
		{ID: 8, UTR: "N888", Amount: amt("500"), Status: topup.StatusApproved},
		{ID: 9, UTR: "N999", Amount: amt("500"), Status: topup.StatusRejected},
		{ID: 10, UTR: "N101", Amount: amt("300"), Status: topup.StatusPending, Customer: true},
		{ID: 11, UTR: "N102", Amount: amt("300"), Status: topup.StatusApproved, Customer: true},
	})
	lines := []statement.Line{
		line("111111111111", "100"),          // payment by UTR
		line("111111111111", "100"),          // the same payment again
		line("222222222222", "49.99"),        // mismatch
		line("333333333333", "10"),           // already paid
		line("", "70", "pay_D"),              // by id in the narration
		line("N777", "500"),                  // balance request
		line("N888", "500"),                  // approved by hand: confirmed
		line("N777", "400"),                  // mismatch on a request
		line("999999999999", "1"),            // nothing
		line("999999999999", "100", "pay_A"), // id of a payment already taken
		line("N999", "500"),                  // rejected
		line("N888", "500"),                  // the approved request again
		line("N101", "300"),                  // a reseller's customer's request: never the platform's
		line("N102", "300"),                  // nor one its reseller approved
	}
	want := []statement.Decision{
		{Target: statement.TargetPayment, TargetID: 1},
		{Reason: statement.ReasonTaken},
		{Reason: statement.ReasonAmountMismatch},
		{Reason: statement.ReasonNotOpen},
		{Target: statement.TargetPayment, TargetID: 4},
		{Target: statement.TargetTopUp, TargetID: 7},
		{Target: statement.TargetTopUpApproved, TargetID: 8},
		{Reason: statement.ReasonAmountMismatch},
		{Reason: statement.ReasonNoMatch},
		{Reason: statement.ReasonTaken},
		{Reason: statement.ReasonDecided},
		{Reason: statement.ReasonTaken},
		{Reason: statement.ReasonNoMatch},
		{Reason: statement.ReasonNoMatch},
	}
	got := statement.Plan(lines, c)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	// In batches of any size, as an import plans them, the decisions are
	// the same: a target an earlier batch took stays taken.
	for _, size := range []int{1, 3, 7} {
		pl := statement.NewPlanner()
		var batched []statement.Decision
		for start := 0; start < len(lines); start += size {
			batched = append(batched, pl.Plan(lines[start:min(start+size, len(lines))], c)...)
		}
		for i := range want {
			if batched[i] != want[i] {
				t.Errorf("batches of %d, line %d: %+v, want %+v", size, i, batched[i], want[i])
			}
		}
	}
}

func TestLineDecisions(t *testing.T) {
	l := statement.Line{Status: statement.StatusUnmatched}
	if err := l.Dismiss(1, " ", timeNow()); errs.KindOf(err) != errs.Invalid {
		t.Errorf("blank note: %v", err)
	}
	if err := l.Dismiss(1, "not ours", timeNow()); err != nil || l.Status != statement.StatusDismissed {
		t.Fatalf("dismiss: %v", err)
	}
	if err := l.Match(1, timeNow()); err != statement.ErrAlreadyDecided {
		t.Errorf("match after dismiss: %v", err)
	}
}

func timeNow() time.Time { return time.Date(2024, 4, 2, 10, 0, 0, 0, time.UTC) }
