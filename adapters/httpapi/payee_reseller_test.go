package httpapi_test

import (
	"fmt"
	"testing"
)

// resellerBilling is a reseller's full record, unregistered for GST.
var resellerBilling = map[string]any{
	"legal_name": "Asha Digital Services", "address": "12 MG Road\nBengaluru 560001", "state": "29",
	"bank_name": "ICICI Bank", "account_name": "Asha Digital Services", "account_number": "123456789012",
	"ifsc": "ICIC0000123", "upi": "asha@icici",
}

// TestResellerBillingSettings: a reseller reads and saves its own billing
// and payee record through GET/PUT /settings/billing (the defaults, prefix
// IN, until it saves; no GSTIN needed), audited with the reseller as
// target; the platform's record and another reseller's stay as they were;
// its customer is refused (403).
func TestResellerBillingSettings(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const path = "/api/v1/panel/settings/billing"
		r := e.newCustomer("reseller", "starter", "0.00")
		other := e.newCustomer("reseller", "starter", "0.00")
		cust := e.resellersCustomer(r, "0.00")
		e.must(e.do("GET", path, cust.token, nil), 403)
		e.must(e.do("PUT", path, cust.token, resellerBilling), 403)

		def := e.must(e.do("GET", path, r.token, nil), 200)
		if def.str("invoice_prefix") != "IN" || def.str("sac_code") != "998319" || def.str("legal_name") != "" ||
			def.body["updated_at"] != nil {
			t.Fatalf("a reseller's defaults: %s", def.raw)
		}
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", e.admin, map[string]any{"legal_name": "Paygate Technologies",
			"address": "Mumbai", "state": "27", "upi": "paygate@hdfcbank"}), 200)

		saved := e.must(e.do("PUT", path, r.token, resellerBilling), 200)
		for _, got := range []resp{saved, e.must(e.do("GET", path, r.token, nil), 200)} {
			for k, v := range resellerBilling {
				if got.str(k) != v {
					t.Errorf("%s = %q, want %q", k, got.str(k), v)
				}
			}
			if got.str("gstin") != "" || got.str("invoice_prefix") != "IN" || got.str("updated_at") == "" ||
				len(got.body["missing"].([]any)) != 0 {
				t.Errorf("saved: %s", got.raw)
			}
		}
		if got := e.must(e.do("GET", path, e.admin, nil), 200); got.str("legal_name") != "Paygate Technologies" || got.str("upi") != "paygate@hdfcbank" {
			t.Fatalf("the platform's record: %s", got.raw)
		}
		if got := e.must(e.do("GET", path, other.token, nil), 200); got.str("legal_name") != "" || got.str("upi") != "" {
			t.Fatalf("another reseller's record: %s", got.raw)
		}
		entries := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/audit-logs?action=billing_settings.update&target_type=user&target_id=%d", r.id),
			e.admin, nil), 200).body["data"].([]any)
		if len(entries) != 1 {
			t.Fatalf("audit entries %v", entries)
		}
		entry := entries[0].(map[string]any)
		after, _ := entry["after"].(map[string]any)
		if entry["target_type"] != "user" || entry["target_id"] != float64(r.id) || entry["actor_id"] != float64(r.id) ||
			after["upi"] != "asha@icici" {
			t.Fatalf("audit entry %v", entry)
		}
		// A refusal names the field and changes nothing.
		bad := map[string]any{"legal_name": "X", "address": "Y", "state": "29", "gstin": gstinMaharashtra}
		e.must422(e.do("PUT", path, r.token, bad), "gstin")
		if got := e.must(e.do("GET", path, r.token, nil), 200); got.str("legal_name") != "Asha Digital Services" {
			t.Fatalf("after a refusal: %s", got.raw)
		}
		e.ledgerClean()
	})
}

// TestReconciliationLeavesCustomersRequests: a statement line of the
// platform's account with a reseller's customer's UTR and amount stays
// unmatched (no_match): the customer paid its reseller, not the platform;
// an admin can neither match it by hand nor approve or reject the request
// (409 reseller_decides); it stays pending for its reseller, whose approval
// is a transfer.
func TestReconciliationLeavesCustomersRequests(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		r := e.newCustomer("reseller", "starter", "500.00")
		cust := e.resellersCustomer(r, "0.00")
		req := e.must(e.upload(cust.token, map[string]string{"amount": "250.00", "utr_number": "412300004567", "payment_method": "upi"}), 201)
		path := fmt.Sprintf("/api/v1/panel/balance-requests/%d", req.num("id"))
		csv := "Date,Narration,Ref No,Debit,Credit,Balance\n" +
			"05/04/2024,\"UPI/412300004567/Payment from CUSTOMER/c@okaxis\",412300004567,,250.00,\"1,250.00\"\n"
		st := e.must(e.importStatement(e.admin, "customer.csv", []byte(csv), nil), 201)
		if st.body["matched"] != 0.0 || st.body["unmatched"] != 1.0 {
			t.Fatalf("import: %s", st.raw)
		}
		lines := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=unmatched", e.admin, nil), 200).body["data"].([]any)
		if len(lines) != 1 || lines[0].(map[string]any)["reason"] != "no_match" {
			t.Fatalf("unmatched lines: %v", lines)
		}
		if got := e.must(e.do("GET", path, e.admin, nil), 200); got.str("status") != "pending" {
			t.Fatalf("the customer's request: %s", got.raw)
		}
		if b := e.balance(cust); b != "0.00" {
			t.Fatalf("the customer was credited %s by the platform's statement", b)
		}
		line := uint64(lines[0].(map[string]any)["id"].(float64))
		m := e.do("POST", fmt.Sprintf("/api/v1/panel/reconciliation/lines/%d/match", line), e.admin,
			map[string]any{"balance_request_id": req.num("id")})
		if m.status != 409 || m.str("error") != "reseller_decides" {
			t.Fatalf("a hand match to a customer's request: %d %s", m.status, m.raw)
		}
		if got := e.must(e.do("GET", path, e.admin, nil), 200); got.str("status") != "pending" || e.balance(cust) != "0.00" {
			t.Fatalf("after a refused hand match: %s", got.raw)
		}
		// Nor does an admin decide it by hand: only its reseller does.
		for _, d := range []string{"/approve", "/reject"} {
			if got := e.do("POST", path+d, e.admin, map[string]any{"admin_remarks": "not ours"}); got.status != 409 || got.str("error") != "reseller_decides" {
				t.Fatalf("an admin's %s of a customer's request: %d %s", d, got.status, got.raw)
			}
		}
		e.must(e.do("POST", path+"/approve", r.token, map[string]any{"admin_remarks": "received in my UPI"}), 200)
		if e.balance(cust) != "250.00" || e.balance(r) != "250.00" {
			t.Fatalf("after its reseller's approval: customer %s, reseller %s", e.balance(cust), e.balance(r))
		}
		e.ledgerClean()
	})
}

// TestCustomerPaysItsReseller: a reseller's customer is shown its reseller
// as the payee (brand name, the reseller's own UPI address and bank account,
// its support contacts), never the platform's, and its QR pays the
// reseller's UPI address. While the reseller has no payee details the
// customer is told whom to ask (payable false) and its checkout top-up is
// 409 reseller_payee_missing; with them, the checkout is still refused
// (409 pay_reseller_directly): the customer pays its reseller directly. A
// reseller and a plain user keep the platform's payee and checkout.
func TestCustomerPaysItsReseller(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const path = "/api/v1/panel/settings/payee"
		const checkout = "/api/v1/panel/balance/checkout"
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", e.admin, map[string]any{
			"legal_name": "Paygate Technologies Private Limited", "address": "Mumbai 400051", "state": "27",
			"bank_name": "HDFC Bank", "account_name": "Paygate Technologies", "account_number": "50200012345678",
			"ifsc": "HDFC0000240", "upi": "paygate@hdfcbank",
		}), 200)
		r := e.newCustomer("reseller", "starter", "0.00")
		e.must(e.do("PUT", "/api/v1/panel/brand", r.token, map[string]any{"brand_name": "Asha Cloud",
			"support_email": "help@ashacloud.in", "support_phone": "+919812345678"}), 200)
		cust := e.resellersCustomer(r, "0.00")

		// No payee details yet: ask the reseller; no checkout.
		none := e.must(e.do("GET", path, cust.token, nil), 200)
		if none.str("payee") != "reseller" || none.str("name") != "Asha Cloud" || none.str("upi") != "" ||
			none.str("account_number") != "" || none.body["payable"] != false || none.body["checkout"] != false ||
			none.str("support_email") != "help@ashacloud.in" || none.str("support_phone") != "+919812345678" {
			t.Fatalf("payee without the reseller's details: %s", none.raw)
		}
		e.must(e.do("GET", path+"/upi-qr.png", cust.token, nil), 404)
		if got := e.do("POST", checkout, cust.token, map[string]any{"amount": "500.00"}); got.status != 409 ||
			got.str("error") != "reseller_payee_missing" {
			t.Fatalf("checkout without the reseller's details: %d %s", got.status, got.raw)
		}

		// With them: the reseller's, never the platform's.
		e.must(e.do("PUT", "/api/v1/panel/settings/billing", r.token, resellerBilling), 200)
		got := e.must(e.do("GET", path, cust.token, nil), 200)
		want := map[string]string{"payee": "reseller", "name": "Asha Cloud", "legal_name": "Asha Digital Services",
			"bank_name": "ICICI Bank", "account_name": "Asha Digital Services", "account_number": "123456789012",
			"ifsc": "ICIC0000123", "upi": "asha@icici", "support_email": "help@ashacloud.in"}
		for k, v := range want {
			if got.str(k) != v {
				t.Errorf("%s = %q, want %q", k, got.str(k), v)
			}
		}
		if got.body["payable"] != true || got.body["checkout"] != false {
			t.Errorf("payee: %s", got.raw)
		}
		qr := e.raw("GET", path+"/upi-qr.png", cust.token, "", nil)
		if got, want := decodeQR(t, []byte(qr.raw)), "upi://pay?pa=asha@icici&pn=Asha%20Cloud&cu=INR"; got != want {
			t.Errorf("QR reads %q, want %q", got, want)
		}
		if got := e.do("POST", checkout, cust.token, map[string]any{"amount": "500.00"}); got.status != 409 ||
			got.str("error") != "pay_reseller_directly" {
			t.Fatalf("a customer's checkout: %d %s", got.status, got.raw)
		}

		// The reseller itself and a plain user pay the platform, by checkout too.
		plain := e.newCustomer("user", "starter", "0.00")
		for _, c := range []customer{r, plain} {
			p := e.must(e.do("GET", path, c.token, nil), 200)
			if p.str("payee") != "platform" || p.str("upi") != "paygate@hdfcbank" || p.body["checkout"] != true {
				t.Errorf("%d's payee: %s", c.id, p.raw)
			}
			e.must(e.do("POST", checkout, c.token, map[string]any{"amount": "500.00"}), 201)
		}
		e.ledgerClean()
	})
}
