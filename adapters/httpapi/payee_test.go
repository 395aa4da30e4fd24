package httpapi_test

import (
	"strings"
	"testing"
)

// TestPayeeDetailsForPayingIn: any signed-in account reads the platform's
// bank account and UPI address the admin saved (the account number as
// saved, no other supplier field), and a QR code of the UPI deep link
// without an amount; with nothing set the fields are "" and the QR is 404.
func TestPayeeDetailsForPayingIn(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const path = "/api/v1/panel/settings/payee"
		c := e.newCustomer("user", "starter", "0.00")
		e.must(e.do("GET", path, "", nil), 401)
		e.must(e.do("GET", path+"/upi-qr.png", "", nil), 401)
		empty := e.must(e.do("GET", path, c.token, nil), 200)
		for _, k := range []string{"legal_name", "bank_name", "account_name", "account_number", "ifsc", "upi"} {
			if v, ok := empty.body[k].(string); !ok || v != "" {
				t.Errorf("unset %s = %v", k, empty.body[k])
			}
		}
		e.must(e.do("GET", path+"/upi-qr.png", c.token, nil), 404)

		e.must(e.do("PUT", "/api/v1/panel/settings/billing", e.admin, map[string]any{
			"legal_name": "Paygate Technologies Private Limited", "address": "Mumbai 400051", "state": "27", "gstin": gstinMaharashtra,
			"bank_name": "HDFC Bank", "account_name": "Paygate Technologies", "account_number": "50200012345678",
			"ifsc": "HDFC0000240", "upi": "paygate@hdfcbank",
		}), 200)
		got := e.must(e.do("GET", path, c.token, nil), 200)
		want := map[string]string{"legal_name": "Paygate Technologies Private Limited", "bank_name": "HDFC Bank",
			"account_name": "Paygate Technologies", "account_number": "50200012345678", "ifsc": "HDFC0000240", "upi": "paygate@hdfcbank"}
		for k, v := range want {
			if got.str(k) != v {
				t.Errorf("%s = %q, want %q", k, got.str(k), v)
			}
		}
		if got.str("payee") != "platform" || got.str("name") != "Paygate Technologies Private Limited" || got.str("support_email") != "" ||
			got.body["payable"] != true || got.body["checkout"] != true || len(got.body) != len(want)+6 {
			t.Errorf("payee has other fields: %s", got.raw)
		}

		qr := e.raw("GET", path+"/upi-qr.png", c.token, "", nil)
		if qr.status != 200 || qr.header.Get("Content-Type") != "image/png" {
			t.Fatalf("QR %d %s", qr.status, qr.header.Get("Content-Type"))
		}
		if got, want := decodeQR(t, []byte(qr.raw)), "upi://pay?pa=paygate@hdfcbank&pn=Paygate%20Technologies%20Private%20Limited&cu=INR"; got != want {
			t.Errorf("QR reads %q, want %q", got, want)
		}
	})
}

// The checkout of a balance top-up links back to Add balance with the
// payment's id, for the panel to say how it went.
func TestBalanceCheckoutReturnsToAddBalanceWithThePayment(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		id := e.must(e.do("POST", "/api/v1/panel/balance/checkout", c.token, map[string]any{"amount": "500.00"}), 201).str("payment_id")
		page := e.page("GET", "/"+id, nil)
		if want := `/balance-requests?payment=` + id + `">Back to the merchant`; !strings.Contains(page.raw, want) {
			t.Fatalf("page %d without %q: %s", page.status, want, page.raw)
		}
	})
}
