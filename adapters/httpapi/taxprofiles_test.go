package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
)

// Real-format GSTINs: Maharashtra (27) and Karnataka (29).
const (
	gstinMaharashtra = "27AAPFU0939F1ZV"
	gstinKarnataka   = "29AAGCB7383J1Z4"
)

// fieldErrors are the per-field messages of a 422.
func fieldErrors(r resp) map[string]any {
	fe, _ := r.body["errors"].(map[string]any)
	return fe
}

// TestTaxProfileSupplierSettings: the platform's supplier details are
// admins' only (403 for users; a reseller has its own, TestResellerBilling
// Settings); until saved they are the defaults; a PUT
// replaces the whole record, normalised, and is audited; every refusal is
// a 422 naming the field and changes nothing; the bank account number
// never reaches the log.
func TestTaxProfileSupplierSettings(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const path = "/api/v1/panel/settings/billing"
		c := e.newCustomer("user", "starter", "0.00")
		e.must(e.do("GET", path, c.token, nil), 403)
		e.must(e.do("PUT", path, c.token, map[string]any{"legal_name": "X", "address": "Y", "state": "27"}), 403)
		def := e.must(e.do("GET", path, e.admin, nil), 200)
		if def.str("invoice_prefix") != "PG" || def.str("sac_code") != "998319" || def.str("legal_name") != "" ||
			def.body["updated_at"] != nil || def.body["state_name"] != nil {
			t.Fatalf("defaults: %s", def.raw)
		}

		full := map[string]any{
			"legal_name": "Paygate Technologies Private Limited", "address": "4th Floor, Tower B\r\n  Bandra Kurla Complex \nMumbai 400051",
			"state": "27", "gstin": strings.ToLower(gstinMaharashtra), "invoice_prefix": "pg", "sac_code": "998314",
			"bank_name": "HDFC Bank", "account_name": "Paygate Technologies Private Limited", "account_number": "5020 0012 3456 78",
			"ifsc": "hdfc0000240", "upi": "Paygate@HDFCBank",
		}
		saved := e.must(e.do("PUT", path, e.admin, full), 200)
		want := map[string]string{"legal_name": "Paygate Technologies Private Limited",
			"address": "4th Floor, Tower B\nBandra Kurla Complex\nMumbai 400051", "state": "27", "state_name": "Maharashtra",
			"gstin": gstinMaharashtra, "pan": "AAPFU0939F", "invoice_prefix": "PG", "sac_code": "998314", "bank_name": "HDFC Bank",
			"account_name": "Paygate Technologies Private Limited", "account_number": "50200012345678", "ifsc": "HDFC0000240",
			"upi": "paygate@hdfcbank"}
		for _, got := range []resp{saved, e.must(e.do("GET", path, e.admin, nil), 200)} {
			for k, v := range want {
				if got.str(k) != v {
					t.Errorf("%s = %q, want %q", k, got.str(k), v)
				}
			}
			if got.str("updated_at") == "" {
				t.Errorf("updated_at not set: %s", got.raw)
			}
		}
		entries := e.must(e.do("GET", "/api/v1/panel/audit-logs?action=billing_settings.update", e.admin, nil), 200).body["data"].([]any)
		if len(entries) != 1 {
			t.Fatalf("audit entries %v", entries)
		}
		entry := entries[0].(map[string]any)
		before, _ := entry["before"].(map[string]any)
		after, _ := entry["after"].(map[string]any)
		if entry["target_type"] != "billing_settings" || entry["target_id"] != nil || before["gstin"] != "" ||
			after["gstin"] != gstinMaharashtra || after["account_number"] != "50200012345678" {
			t.Fatalf("audit entry %v", entry)
		}

		// Refusals: 422 with the field named, nothing changed.
		for _, tc := range []struct {
			name, field string
			edit        map[string]any
		}{
			{"wrong check character", "gstin", map[string]any{"gstin": "27AAPFU0939F1ZW"}},
			{"unknown state code in the GSTIN", "gstin", map[string]any{"gstin": "28AAPFU0939F1ZV"}},
			{"GSTIN of another state", "gstin", map[string]any{"gstin": gstinKarnataka}},
			{"GSTIN bad shape", "gstin", map[string]any{"gstin": "27AAPFU0939F"}},
			{"unknown state", "state", map[string]any{"state": "99", "gstin": ""}},
			{"missing state", "state", map[string]any{"state": nil, "gstin": ""}},
			{"missing legal name", "legal_name", map[string]any{"legal_name": nil}},
			{"PAN not the GSTIN's", "pan", map[string]any{"pan": "AAGCB7383J"}},
			{"prefix too long", "invoice_prefix", map[string]any{"invoice_prefix": "PGX"}},
			{"SAC outside chapter 99", "sac_code", map[string]any{"sac_code": "123456"}},
			{"IFSC", "ifsc", map[string]any{"ifsc": "HDFC1000240"}},
			{"bank account without IFSC", "ifsc", map[string]any{"ifsc": nil}},
			{"UPI", "upi", map[string]any{"upi": "paygate"}},
			{"a number for a text", "legal_name", map[string]any{"legal_name": 5}},
			{"unknown field", "gst_rate", map[string]any{"gst_rate": "18"}},
		} {
			body := map[string]any{}
			for k, v := range full {
				body[k] = v
			}
			for k, v := range tc.edit {
				if v == nil {
					delete(body, k)
				} else {
					body[k] = v
				}
			}
			res := e.do("PUT", path, e.admin, body)
			if res.status != 422 || fieldErrors(res)[tc.field] == nil {
				t.Errorf("%s: %d %s, want 422 naming %s", tc.name, res.status, res.raw, tc.field)
			}
		}
		if got := e.must(e.do("GET", path, e.admin, nil), 200); got.str("gstin") != gstinMaharashtra || got.str("upi") != "paygate@hdfcbank" {
			t.Fatalf("refused PUTs changed the settings: %s", got.raw)
		}

		// The whole record is replaced: what is left out is cleared or back
		// to its default.
		bare := e.must(e.do("PUT", path, e.admin, map[string]any{"legal_name": "Paygate", "address": "Pune", "state": "27"}), 200)
		if bare.str("gstin") != "" || bare.str("pan") != "" || bare.str("invoice_prefix") != "PG" || bare.str("sac_code") != "998319" ||
			bare.str("account_number") != "" || bare.str("upi") != "" {
			t.Fatalf("a bare PUT: %s", bare.raw)
		}
		if strings.Contains(e.logs.String(), "50200012345678") {
			t.Fatal("the bank account number reached the log")
		}
	})
}

// TestTaxProfileBillingProfile: a customer's billing profile in GET/PATCH
// /auth/me: null until set; saved normalised; refused with billing.<field>
// errors before anything of the account changes; kept by a PATCH without
// it; removed by null; never shown in other user views.
func TestTaxProfileBillingProfile(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const me = "/api/v1/panel/auth/me"
		c := e.newCustomer("user", "starter", "0.00")
		other := e.newCustomer("user", "starter", "0.00")
		got := e.must(e.do("GET", me, c.token, nil), 200)
		if v, ok := got.body["billing"]; !ok || v != nil {
			t.Fatalf("before a profile: billing %v (present %v)", v, ok)
		}

		profile := map[string]any{"legal_name": " Asha Traders ", "address": "12 MG Road\r\nBengaluru 560001", "state": "29",
			"gstin": " " + strings.ToLower(gstinKarnataka)}
		patched := e.must(e.do("PATCH", me, c.token, map[string]any{"name": "Asha", "billing": profile}), 200)
		want := map[string]any{"legal_name": "Asha Traders", "address": "12 MG Road\nBengaluru 560001", "state": "29",
			"state_name": "Karnataka", "gstin": gstinKarnataka}
		for _, r := range []resp{patched, e.must(e.do("GET", me, c.token, nil), 200)} {
			b, _ := r.body["billing"].(map[string]any)
			for k, v := range want {
				if b[k] != v {
					t.Errorf("billing.%s = %v, want %v (%s)", k, b[k], v, r.raw)
				}
			}
			if r.str("name") != "Asha" {
				t.Errorf("name %q", r.str("name"))
			}
		}

		// Refusals name billing.<field>, and the account is not changed
		// either.
		for _, tc := range []struct {
			name, field string
			billing     any
		}{
			{"wrong check digit", "billing.gstin", map[string]any{"legal_name": "A", "address": "B", "state": "29", "gstin": "29AAGCB7383J1Z5"}},
			{"unknown state code", "billing.gstin", map[string]any{"legal_name": "A", "address": "B", "state": "29", "gstin": "39AAPFU0939F1ZV"}},
			{"state mismatch", "billing.gstin", map[string]any{"legal_name": "A", "address": "B", "state": "27", "gstin": gstinKarnataka}},
			{"bad shape", "billing.gstin", map[string]any{"legal_name": "A", "address": "B", "state": "29", "gstin": "29AAGCB7383J1Z"}},
			{"unknown state", "billing.state", map[string]any{"legal_name": "A", "address": "B", "state": "00"}},
			{"no legal name", "billing.legal_name", map[string]any{"address": "B", "state": "29"}},
			{"unknown field", "billing.pan", map[string]any{"legal_name": "A", "address": "B", "state": "29", "pan": "AAGCB7383J"}},
			{"a number for a text", "billing.state", map[string]any{"legal_name": "A", "address": "B", "state": 29}},
			{"not an object", "billing", "Asha Traders"},
		} {
			res := e.do("PATCH", me, c.token, map[string]any{"name": "Renamed", "billing": tc.billing})
			if res.status != 422 || fieldErrors(res)[tc.field] == nil {
				t.Errorf("%s: %d %s, want 422 naming %s", tc.name, res.status, res.raw, tc.field)
			}
		}
		kept := e.must(e.do("GET", me, c.token, nil), 200)
		if kept.str("name") != "Asha" || kept.body["billing"].(map[string]any)["gstin"] != gstinKarnataka {
			t.Fatalf("refused PATCHes changed the account: %s", kept.raw)
		}

		// A PATCH without billing keeps it; an unregistered profile has
		// gstin ""; null removes it.
		if r := e.must(e.do("PATCH", me, c.token, map[string]any{"phone": "9876512345"}), 200); r.body["billing"] == nil {
			t.Fatalf("a PATCH without billing dropped it: %s", r.raw)
		}
		r := e.must(e.do("PATCH", me, c.token, map[string]any{"billing": map[string]any{"legal_name": "Asha Verma", "address": "Pune", "state": "27"}}), 200)
		if b := r.body["billing"].(map[string]any); b["gstin"] != "" || b["state_name"] != "Maharashtra" {
			t.Fatalf("unregistered profile: %s", r.raw)
		}
		if v := e.must(e.do("GET", me, other.token, nil), 200).body["billing"]; v != nil {
			t.Fatalf("another account's billing: %v", v)
		}
		if u := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/users/%d", c.id), e.admin, nil), 200); u.body["billing"] != nil {
			t.Fatalf("the admin's user view carries billing: %s", u.raw)
		}
		login := e.must(e.do("POST", "/api/v1/panel/auth/login", "", map[string]any{"email": c.email, "password": "user-password-1"}), 200)
		if _, ok := login.body["user"].(map[string]any)["billing"]; ok {
			t.Fatalf("the login's user carries billing: %s", login.raw)
		}
		r = e.must(e.do("PATCH", me, c.token, map[string]any{"billing": nil}), 200)
		if v, ok := r.body["billing"]; !ok || v != nil {
			t.Fatalf("after null: %s", r.raw)
		}
		if v := e.must(e.do("GET", me, c.token, nil), 200).body["billing"]; v != nil {
			t.Fatalf("after null, GET: %v", v)
		}
	})
}

// TestTaxProfileServiceSACAndStates: a service's own SAC code, shown to
// admins only, null for the supplier's default, checked; the state list.
func TestTaxProfileServiceSACAndStates(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		body := map[string]any{"name": "GST lookup", "slug": "gst-lookup", "category": "kyc", "provider_url": e.upstream.URL,
			"sac_code": " 998314 "}
		svc := e.must(e.do("POST", "/api/v1/panel/services", e.admin, body), 201)
		if svc.str("sac_code") != "998314" {
			t.Fatalf("created: %s", svc.raw)
		}
		path := fmt.Sprintf("/api/v1/panel/services/%d", svc.num("id"))
		if u := e.must(e.do("GET", path, c.token, nil), 200); u.body["sac_code"] != nil || strings.Contains(u.raw, "sac_code") {
			t.Fatalf("a user sees sac_code: %s", u.raw)
		}
		r := e.do("PATCH", path, e.admin, map[string]any{"sac_code": "123456"})
		if r.status != 422 || fieldErrors(r)["sac_code"] == nil {
			t.Fatalf("SAC outside chapter 99: %d %s", r.status, r.raw)
		}
		if got := e.must(e.do("PATCH", path, e.admin, map[string]any{"name": "GST lookup 2"}), 200); got.str("sac_code") != "998314" {
			t.Fatalf("a PATCH without sac_code: %s", got.raw)
		}
		cleared := e.must(e.do("PATCH", path, e.admin, map[string]any{"sac_code": nil}), 200)
		if v, ok := cleared.body["sac_code"]; !ok || v != nil {
			t.Fatalf("cleared: %s", cleared.raw)
		}
		plain := e.must(e.do("POST", "/api/v1/panel/services", e.admin, map[string]any{"name": "Plain", "slug": "plain-svc",
			"category": "kyc", "provider_url": e.upstream.URL}), 201)
		if v, ok := plain.body["sac_code"]; !ok || v != nil {
			t.Fatalf("a service without one: %s", plain.raw)
		}
		updates := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/audit-logs?action=service.update&target_id=%d", svc.num("id")), e.admin, nil), 200).body["data"].([]any)
		if len(updates) != 2 || updates[0].(map[string]any)["before"].(map[string]any)["sac_code"] != "998314" {
			t.Fatalf("service audit %v", updates)
		}

		states := e.must(e.do("GET", "/api/v1/panel/gst/states", c.token, nil), 200).body["data"].([]any)
		first := states[0].(map[string]any)
		if len(states) != 37 || first["code"] != "01" || first["name"] != "Jammu and Kashmir" {
			t.Fatalf("states %v", states)
		}
		e.must(e.do("GET", "/api/v1/panel/gst/states", "", nil), 401)
	})
}
