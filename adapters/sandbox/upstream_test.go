package sandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"paygate/core/catalog"
)

func call(t *testing.T, h http.Handler, method, path, body string) (int, map[string]any) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s %s: Content-Type %q", method, path, ct)
	}
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s %s: body %q is not a JSON object", method, path, w.Body)
	}
	return w.Code, m
}

func keys(m map[string]any) []string {
	var k []string
	for name := range m {
		k = append(k, name)
	}
	slices.Sort(k)
	return k
}

func TestServices(t *testing.T) {
	h := NewUpstream()
	tests := []struct {
		name, method, path, body string
		status                   int
		want                     map[string]any // fields checked exactly
		fields                   []string       // all the fields, sorted
	}{
		{"aadhaar print", "POST", "/aadhaar-print", `{"aadhaar_number":"123412341234","name":"Asha","phone":"9876543210"}`,
			200, map[string]any{"status": "queued", "estimated_time": "48 hours"}, []string{"estimated_time", "print_id", "status"}},
		{"pan print", "POST", "/pan-card-print", `{"pan_number":"ABCDE1234F","name":"Asha","dob":"1990-04-01","father_name":"Ravi"}`,
			200, map[string]any{"status": "queued", "estimated_time": "72 hours"}, []string{"estimated_time", "print_id", "status"}},
		{"sms", "POST", "/sms-gateway", `{"phone":"9876543210","message":"hello","template_id":"T1"}`,
			200, map[string]any{"status": "queued", "delivery_status": "pending"}, []string{"delivery_status", "message_id", "status"}},
		{"upi verified", "GET", "/upi-verification?upi_id=rahul.sharma@okaxis", "",
			200, map[string]any{"upi_id": "rahul.sharma@okaxis", "account_holder": "Rahul Sharma", "bank_name": "Axis Bank", "verified": true},
			[]string{"account_holder", "bank_name", "upi_id", "verified"}},
		{"upi not verified", "GET", "/upi-verification?upi_id=failing.user@oksbi", "",
			200, map[string]any{"account_holder": "", "bank_name": "State Bank of India", "verified": false},
			[]string{"account_holder", "bank_name", "upi_id", "verified"}},
		{"error500 in a body value", "POST", "/sms-gateway", `{"phone":"9876543210","message":"please ERROR500","template_id":"T1"}`,
			500, map[string]any{"message": "Sandbox provider error"}, []string{"message"}},
		{"error500 in the query", "GET", "/upi-verification?upi_id=error500@okaxis", "",
			500, map[string]any{"message": "Sandbox provider error"}, []string{"message"}},
		{"bad aadhaar number", "POST", "/aadhaar-print", `{"aadhaar_number":"1234","name":"Asha","phone":"9876543210"}`,
			422, map[string]any{"message": "aadhaar_number must be 12 digits"}, []string{"message"}},
		{"bad pan", "POST", "/pan-card-print", `{"pan_number":"abcde1234f","name":"Asha","dob":"1990-04-01"}`,
			422, nil, []string{"message"}},
		{"bad dob", "POST", "/pan-card-print", `{"pan_number":"ABCDE1234F","name":"Asha","dob":"01/04/1990"}`,
			422, map[string]any{"message": "dob must be a date as YYYY-MM-DD"}, []string{"message"}},
		{"sms too long", "POST", "/sms-gateway", `{"phone":"9876543210","message":"` + strings.Repeat("x", 161) + `","template_id":"T1"}`,
			422, map[string]any{"message": "message must be at most 160 characters"}, []string{"message"}},
		{"sms without template", "POST", "/sms-gateway", `{"phone":"9876543210","message":"hi"}`,
			422, map[string]any{"message": "template_id is required"}, []string{"message"}},
		{"upi missing", "GET", "/upi-verification", "", 422, map[string]any{"message": "upi_id is required"}, []string{"message"}},
		{"not JSON", "POST", "/sms-gateway", `phone=1`, 400, nil, []string{"message"}},
		{"number instead of string", "POST", "/sms-gateway", `{"phone":9876543210}`, 400, map[string]any{"message": "phone must be a string"}, []string{"message"}},
		{"wrong method", "GET", "/sms-gateway", "", 405, nil, []string{"message"}},
		{"unknown service", "POST", "/nope", `{}`, 404, nil, []string{"message"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, got := call(t, h, tt.method, tt.path, tt.body)
			if status != tt.status {
				t.Fatalf("status %d, want %d (%v)", status, tt.status, got)
			}
			if k := keys(got); !slices.Equal(k, tt.fields) {
				t.Fatalf("fields %v, want %v", k, tt.fields)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %#v, want %#v", k, got[k], v)
				}
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	h := NewUpstream()
	body := `{"aadhaar_number":"123412341234","name":"Asha","phone":"9876543210"}`
	_, a := call(t, h, "POST", "/aadhaar-print", body)
	_, b := call(t, h, "POST", "/aadhaar-print", body)
	_, c := call(t, h, "POST", "/aadhaar-print", strings.Replace(body, "Asha", "Ravi", 1))
	if a["print_id"] != b["print_id"] || a["print_id"] == c["print_id"] {
		t.Fatalf("print ids: same input %v %v, other input %v", a["print_id"], b["print_id"], c["print_id"])
	}
	if !regexp.MustCompile(`^PRN[0-9A-F]{12}$`).MatchString(a["print_id"].(string)) {
		t.Fatalf("print_id %v", a["print_id"])
	}
	_, u1 := call(t, h, "GET", "/upi-verification?upi_id="+url.QueryEscape("9876543210@ybl"), "")
	_, u2 := call(t, h, "GET", "/upi-verification?upi_id="+url.QueryEscape("9876543210@ybl"), "")
	if u1["account_holder"] != u2["account_holder"] || u1["account_holder"] == "" {
		t.Fatalf("holder %v / %v", u1["account_holder"], u2["account_holder"])
	}
}

func TestBadJSONAndTimeout(t *testing.T) {
	h := NewUpstream()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/upi-verification?upi_id=badjson@okaxis", nil))
	if w.Code != 200 || json.Valid(w.Body.Bytes()) {
		t.Fatalf("badjson: %d %q", w.Code, w.Body)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/upi-verification?upi_id=timeout504@okaxis", nil).WithContext(ctx))
	if w.Code != http.StatusGatewayTimeout || time.Since(start) > 5*time.Second {
		t.Fatalf("timeout: %d after %v", w.Code, time.Since(start))
	}
}

// TestDemoServices checks the records the server registers: the seed's
// slugs and methods, docs that pass the catalog's own validation, examples
// the sandbox really answers, and prices that parse.
func TestDemoServices(t *testing.T) {
	h := NewUpstream()
	want := map[string]string{"aadhaar-print-api": "POST", "pan-card-print-api": "POST", "sms-gateway-api": "POST", "upi-verification-api": "GET"}
	examples := map[string]string{
		"aadhaar-print-api":    `{"aadhaar_number":"123412341234","name":"Asha","phone":"9876543210","address":"1 MG Road"}`,
		"pan-card-print-api":   `{"pan_number":"ABCDE1234F","name":"Asha","dob":"1990-04-01"}`,
		"sms-gateway-api":      `{"phone":"9876543210","message":"hi","template_id":"T1"}`,
		"upi-verification-api": `upi_id=asha@okaxis`,
	}
	ds := DemoServices()
	if len(ds) != len(want) {
		t.Fatalf("%d services", len(ds))
	}
	for _, d := range ds {
		t.Run(d.Slug, func(t *testing.T) {
			if want[d.Slug] != d.Method || d.Doc.Method != d.Method || d.Doc.Endpoint != "/api/v1/"+d.Slug {
				t.Fatalf("slug %s method %s doc %s %s", d.Slug, d.Method, d.Doc.Method, d.Doc.Endpoint)
			}
			svc := catalog.Service{Name: d.Name, Slug: d.Slug, Category: d.Category, Method: d.Method, ProviderURL: d.ProviderURL, Parameters: d.Parameters}
			if err := svc.Validate(); err != nil {
				t.Fatalf("service: %v", err)
			}
			doc := catalog.Doc{Endpoint: d.Doc.Endpoint, Method: d.Doc.Method, Description: d.Doc.Description,
				RequestParams: d.Doc.RequestParams, ResponseExample: d.Doc.ResponseExample, ErrorCodes: d.Doc.ErrorCodes}
			if err := doc.Validate(); err != nil {
				t.Fatalf("doc: %v", err)
			}
			if len(d.Parameters) != len(d.Doc.RequestParams) {
				t.Fatalf("parameters %v vs request_params", d.Parameters)
			}
			if d.Doc.ErrorCodes["401"] != "Invalid API credentials" || d.Doc.ErrorCodes["402"] != "Insufficient balance" {
				t.Fatalf("error codes %v", d.Doc.ErrorCodes)
			}

			// The example parameters pass the documented rules, and the
			// sandbox answers exactly the documented data fields.
			var params map[string]any
			path := "/" + strings.TrimPrefix(d.ProviderURL, "sandbox://")
			body := examples[d.Slug]
			if d.Method == "GET" {
				q, _ := url.ParseQuery(body)
				params = map[string]any{"upi_id": q.Get("upi_id")}
				path += "?" + body
				body = ""
			} else {
				json.Unmarshal([]byte(body), &params)
			}
			if err := catalog.ValidateParams(d.Doc.RequestParams, params); err != nil {
				t.Fatalf("example params rejected: %v", err)
			}
			status, got := call(t, h, d.Method, path, body)
			example := d.Doc.ResponseExample["data"].(map[string]any)
			if status != 200 || !slices.Equal(keys(got), keys(example)) {
				t.Fatalf("sandbox answered %d %v; documented data %v", status, keys(got), keys(example))
			}
			if !slices.Equal(keys(d.Doc.ResponseExample), []string{"balance_left", "charged", "data", "request_id", "success"}) {
				t.Fatalf("envelope %v", keys(d.Doc.ResponseExample))
			}
			for _, p := range []string{d.UserPrice, d.ResellerPrice, d.AdminCost} {
				if !regexp.MustCompile(`^[0-9]+\.[0-9]{4}$`).MatchString(p) {
					t.Fatalf("price %q", p)
				}
			}
			if !regexp.MustCompile(`^[0-9]+\.[0-9]{2}$`).MatchString(d.MinimumHitCharge) {
				t.Fatalf("minimum %q", d.MinimumHitCharge)
			}
		})
	}
}
