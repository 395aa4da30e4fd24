package invoicepdf_test

import (
	"fmt"
	"time"
	_ "time/tzdata" // Asia/Kolkata on machines without a zoneinfo database

	"github.com/shopspring/decimal"

	"paygate/core/billing/gst"
	"paygate/core/billing/invoice"
)

var (
	kolkata, _ = time.LoadLocation("Asia/Kolkata")
	rate18     = decimal.RequireFromString("18.00")
	// issuedAt: the billing worker's run on the 1st, for November.
	issuedAt = time.Date(2026, 12, 1, 0, 5, 0, 0, kolkata)
)

func supplier() invoice.Party {
	return invoice.Party{
		LegalName: "Paygate Technologies Private Limited",
		Address:   "4th Floor, Kamala Mills Compound\nSenapati Bapat Marg, Lower Parel\nMumbai, Maharashtra 400013",
		State:     "27",
		GSTIN:     "27AAPFU0939F1ZV",
		PAN:       "AAPFU0939F",
	}
}

// mumbaiBuyer is in the supplier's state: CGST and SGST.
func mumbaiBuyer() invoice.Party {
	return invoice.Party{
		LegalName: "Sahyadri Lending Services Private Limited",
		Address:   "Unit 702, Boomerang, Chandivali Farm Road\nAndheri East\nMumbai, Maharashtra 400072",
		State:     "27",
		GSTIN:     "27AASCS2460H1Z0",
		Email:     "accounts@sahyadrilending.example",
	}
}

// bengaluruBuyer is in another state: IGST.
func bengaluruBuyer() invoice.Party {
	return invoice.Party{
		LegalName: "Bengaluru Fintech Solutions Private Limited",
		Address:   "No. 42, 3rd Cross, Koramangala 5th Block\nBengaluru, Karnataka 560095",
		State:     "29",
		GSTIN:     "29AAGCB7383J1Z4",
		Email:     "finance@blrfintech.example",
	}
}

func payee() invoice.Payee {
	return invoice.Payee{
		BankName:      "HDFC Bank, Lower Parel branch",
		AccountName:   "Paygate Technologies Private Limited",
		AccountNumber: "50200012345678",
		IFSC:          "HDFC0000123",
		UPI:           "paygate@hdfcbank",
	}
}

// supply is a line before the split: what the ledger moved for it.
type supply struct {
	desc  string
	qty   int64
	unit  string // "" when the items had different prices
	gross string
}

// novemberSupplies are a month of a busy account: the plan fee, metered
// calls and gateway charges, one with a description long enough to wrap.
var novemberSupplies = []supply{
	{"Plan fee: Growth, November 2026", 1, "4999.00", "4999.00"},
	{"PAN verification API calls", 12480, "0.50", "6240.00"},
	{"Bank account verification (penny drop) API calls, billed net of 214 calls refunded after upstream timeouts at the partner bank", 3214, "2.50", "8035.00"},
	{"GSTIN lookup API calls", 2875, "0.25", "718.75"},
	{"UPI collection fee", 8732, "", "15384.26"},
	{"Payout fee (IMPS)", 1150, "5.90", "6785.00"},
	{"Mobile recharge fee", 96, "1.18", "113.28"},
}

// newInvoice builds an issued document from supplies the way the issuing
// use case does: each gross split at rate with gst.Heads, the
// totals the sums of the lines.
func newInvoice(kind invoice.Kind, number string, recipient invoice.Party, rate decimal.Decimal, supplies []supply) *invoice.Invoice {
	inv := &invoice.Invoice{
		ID: 1, UserID: 42, Kind: kind, Number: number, Month: "2026-11",
		IssuedAt: issuedAt, Rate: rate,
		Supplier: supplier(), Recipient: recipient, PlaceOfSupply: recipient.State,
		Payee: payee(), CreatedAt: issuedAt,
	}
	intra := inv.IntraState()
	for _, s := range supplies {
		gross := decimal.RequireFromString(s.gross)
		taxable, cgst, sgst, igst := gst.Heads(gross, rate, intra)
		l := invoice.Line{
			Description: s.desc, SAC: "998319", Quantity: s.qty,
			Gross: gross, Taxable: taxable, CGST: cgst, SGST: sgst, IGST: igst,
		}
		if s.unit != "" {
			u := decimal.RequireFromString(s.unit)
			l.UnitPrice = &u
		}
		inv.Lines = append(inv.Lines, l)
		inv.Totals.Gross = inv.Totals.Gross.Add(gross)
		inv.Totals.Taxable = inv.Totals.Taxable.Add(taxable)
		inv.Totals.CGST = inv.Totals.CGST.Add(cgst)
		inv.Totals.SGST = inv.Totals.SGST.Add(sgst)
		inv.Totals.IGST = inv.Totals.IGST.Add(igst)
	}
	return inv
}

func intraStateInvoice() *invoice.Invoice {
	return newInvoice(invoice.KindInvoice, "PG/26-27/000001", mumbaiBuyer(), rate18, novemberSupplies)
}

func interStateInvoice() *invoice.Invoice {
	return newInvoice(invoice.KindInvoice, "PG/26-27/000002", bengaluruBuyer(), rate18, novemberSupplies)
}

func billOfSupply() *invoice.Invoice {
	return newInvoice(invoice.KindInvoice, "PG/26-27/000003", bengaluruBuyer(), decimal.Zero, novemberSupplies)
}

func creditNote() *invoice.Invoice {
	inv := newInvoice(invoice.KindCreditNote, "PGC/26-27/000001", mumbaiBuyer(), rate18, []supply{
		{"Refund of PAN verification API calls billed in October 2026", 120, "0.50", "60.00"},
	})
	inv.Month = "2026-11"
	corrects := uint64(7)
	correctsAt := time.Date(2026, 11, 1, 0, 5, 0, 0, kolkata)
	inv.CorrectsID, inv.CorrectsNumber, inv.CorrectsIssuedAt = &corrects, "PG/26-27/000007", &correctsAt
	inv.Reason = "Refund of 120 calls to PAN verification API"
	return inv
}

// manyLines is an invoice of 60 lines, more than a page holds.
func manyLines() *invoice.Invoice {
	var ss []supply
	for i := 1; i <= 60; i++ {
		ss = append(ss, supply{fmt.Sprintf("Metered API calls: service-%02d", i), int64(100 * i), "1.50", decimal.NewFromInt(150 * int64(i)).StringFixed(2)})
	}
	return newInvoice(invoice.KindInvoice, "PG/26-27/000060", bengaluruBuyer(), rate18, ss)
}

// novemberStatement is a month of ledger entries whose balances follow
// from the opening balance.
func novemberStatement(entries int) *invoice.Statement {
	st := &invoice.Statement{
		Month:       "2026-11",
		From:        time.Date(2026, 11, 1, 0, 0, 0, 0, kolkata),
		To:          time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata),
		Supplier:    supplier(),
		Account:     mumbaiBuyer(),
		AccountID:   42,
		Opening:     decimal.RequireFromString("25000.00"),
		GeneratedAt: time.Date(2026, 12, 2, 10, 30, 0, 0, kolkata),
	}
	balance := st.Opening
	at := st.From.Add(9 * time.Hour)
	for i := 1; i <= entries; i++ {
		e := invoice.StatementEntry{At: at}
		switch i % 5 {
		case 0:
			e.Type, e.Reference, e.Description = "credit", fmt.Sprintf("topup %d", 300+i), "Balance top-up approved (UTR HDFCN52026110"+fmt.Sprintf("%05d", i)+")"
			e.Amount = decimal.RequireFromString("10000.00")
		case 3:
			e.Type, e.Reference, e.Description = "refund", fmt.Sprintf("api_hit %d", 9000+i), "Refund: upstream timeout on PAN verification"
			e.Amount = decimal.RequireFromString("0.50")
		default:
			e.Type, e.Reference, e.Description = "debit", fmt.Sprintf("api_hit %d", 9000+i), "PAN verification API call"
			e.Amount = decimal.RequireFromString("0.50")
		}
		if e.Type == "debit" {
			balance = balance.Sub(e.Amount)
			st.Debits = st.Debits.Add(e.Amount)
		} else {
			balance = balance.Add(e.Amount)
			st.Credits = st.Credits.Add(e.Amount)
		}
		e.BalanceAfter = balance
		st.Entries = append(st.Entries, e)
		at = at.Add(4*time.Hour + 31*time.Minute)
	}
	st.Closing = balance
	return st
}
