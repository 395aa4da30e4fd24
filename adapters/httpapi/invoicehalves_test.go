package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"paygate/core/billing/plan"
	"paygate/core/billing/taxprofile"
	"paygate/internal/pdftext"
)

// TestEqualHalvesThroughTheServer: a customer in the supplier's state pays
// 25.00 for a call; the draft and the issued invoice split it 21.18 + CGST
// 1.91 + SGST 1.91 (the odd paisa in the taxable value, never in one head),
// on the line and in the totals; the PDF prints the same and says it was
// paid from the prepaid balance, with no bank block although the supplier
// has bank details. A document stored under the old rule (21.19, 1.90,
// 1.91) keeps its figures and the ledger check holds it clean: stored
// documents are proved as issued, never split again.
func TestEqualHalvesThroughTheServer(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		ctx := context.Background()
		st := e.store.Stores().TaxProfiles
		if err := st.SaveSupplier(ctx, &taxprofile.Supplier{LegalName: "Paygate Technologies Private Limited", Address: "1 Marine Drive\nMumbai",
			State: "27", GSTIN: "27AAPFU0939F1ZV", PAN: "AAPFU0939F", InvoicePrefix: "PG", SAC: "998319",
			BankName: "HDFC Bank", AccountName: "Paygate Technologies", AccountNumber: "50200012345678", IFSC: "HDFC0000123", UPI: "paygate@upi"}); err != nil {
			t.Fatal(err)
		}
		e.newService("halves", "25.00")
		c := e.newCustomer("user", "enterprise", "100.00")
		if err := st.SaveProfile(ctx, &taxprofile.Profile{UserID: c.id, LegalName: "Pune Traders", Address: "Pune", State: "27"}); err != nil {
			t.Fatal(err)
		}
		e.must(e.call(c, "halves", map[string]any{}), 200)

		halves := func(what string, m map[string]any) {
			t.Helper()
			if m["gross"] != "25.00" || m["taxable"] != "21.18" || m["cgst"] != "1.91" || m["sgst"] != "1.91" || m["igst"] != "0.00" {
				t.Fatalf("%s: %v, want 25.00 = 21.18 + 1.91 + 1.91", what, m)
			}
		}
		draft := e.must(e.do("GET", "/api/v1/panel/invoices/upcoming", c.token, nil), 200)
		halves("the draft's line", draft.body["lines"].([]any)[0].(map[string]any))
		halves("the draft's totals", draft.body["totals"].(map[string]any))

		month := plan.Month(time.Now(), mustIST())
		_, end, _ := plan.Bounds(month, mustIST())
		if res, err := e.app.Invoicing.Issue(ctx, month, end.Add(time.Minute)); err != nil || res.Invoices != 1 {
			t.Fatalf("issue %s: %+v %v", month, res, err)
		}
		id := uint64(e.must(e.do("GET", "/api/v1/panel/invoices", c.token, nil), 200).body["data"].([]any)[0].(map[string]any)["id"].(float64))
		doc := fmt.Sprintf("/api/v1/panel/invoices/%d", id)
		inv := e.must(e.do("GET", doc, c.token, nil), 200)
		halves("the invoice's line", inv.body["lines"].([]any)[0].(map[string]any))
		halves("the invoice's totals", inv.body["totals"].(map[string]any))
		if _, ok := inv.body["reason"]; ok {
			t.Fatalf("an invoice with a reason: %s", inv.raw)
		}
		pdf := e.do("GET", doc+"/pdf", c.token, nil)
		text := pdftext.Of(t, []byte(pdf.raw), "-layout")
		if !regexp.MustCompile(`21\.18\s+1\.91\s+1\.91\s+25\.00`).MatchString(text) || !strings.Contains(text, "Paid from prepaid balance") {
			t.Fatalf("the invoice's PDF:\n%s", text)
		}
		for _, bank := range []string{"Payment details", "HDFC", "50200012345678", "paygate@upi"} {
			if strings.Contains(text, bank) {
				t.Errorf("a prepaid invoice's PDF shows %q:\n%s", bank, text)
			}
		}
		e.ledgerClean()

		// Stored as an invoice issued under the old rule was: it is read,
		// printed and proved with its own figures.
		var stored []string // Pluck quotes the column: LINES is a keyword of MySQL
		if err := e.store.DB().Table("invoices").Where("id = ?", id).Pluck("lines", &stored).Error; err != nil || len(stored) != 1 {
			t.Fatal(stored, err)
		}
		var lines []map[string]any
		if err := json.Unmarshal([]byte(stored[0]), &lines); err != nil || len(lines) != 1 {
			t.Fatalf("stored lines %s: %v", stored, err)
		}
		lines[0]["taxable"], lines[0]["cgst"], lines[0]["sgst"] = "21.19", "1.90", "1.91"
		old, _ := json.Marshal(lines)
		if err := e.store.DB().Table("invoices").Where("id = ?", id).
			Updates(map[string]any{"lines": string(old), "taxable": "21.19", "cgst": "1.90", "sgst": "1.91"}).Error; err != nil {
			t.Fatal(err)
		}
		inv = e.must(e.do("GET", doc, c.token, nil), 200)
		if l, tt := inv.body["lines"].([]any)[0].(map[string]any), inv.body["totals"].(map[string]any); l["taxable"] != "21.19" ||
			l["cgst"] != "1.90" || l["sgst"] != "1.91" || tt["taxable"] != "21.19" || tt["cgst"] != "1.90" || tt["sgst"] != "1.91" {
			t.Fatalf("a document issued under the old rule changed: %s", inv.raw)
		}
		text = pdftext.Of(t, []byte(e.do("GET", doc+"/pdf", c.token, nil).raw), "-layout")
		if !regexp.MustCompile(`21\.19\s+1\.90\s+1\.91\s+25\.00`).MatchString(text) {
			t.Fatalf("the old document's PDF:\n%s", text)
		}
		e.ledgerClean()
	})
}
