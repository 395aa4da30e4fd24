package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"paygate/adapters/httpapi"
	"paygate/adapters/sandbox"
	"paygate/adapters/token"
	"paygate/adapters/upidirect"
	"paygate/core/app"
)

// useUPIDirect points e at a second instance on e's database whose payment
// provider is upi_direct (live UPI into paygate@okicici); every later
// request of the test goes there. Tokens of e stay valid (same key).
func (e *env) useUPIDirect() {
	e.t.Helper()
	tokens, err := token.NewJWT([]byte(strings.Repeat("s", 32)))
	if err != nil {
		e.t.Fatal(err)
	}
	live, err := upidirect.New("paygate@okicici", "Paygate Collections")
	if err != nil {
		e.t.Fatal(err)
	}
	loc, _ := time.LoadLocation("Asia/Kolkata")
	log := slog.New(slog.NewJSONHandler(e.logs, nil))
	a := app.New(app.Deps{Tx: e.store, Stores: e.store.Stores(), Names: e.store.Names(), Exports: e.store.Exports(), Tokens: tokens, EmailTokens: tokens, Mailer: e.mail,
		Config:   app.Config{Location: loc, PasswordCost: 4, PublicBaseURL: "http://localhost:8080"},
		Now:      func() time.Time { return time.Now().Add(time.Duration(e.skew.Load())) },
		Verifier: sandbox.Verifier{}, Recharger: sandbox.Recharger{}, Payments: live, Targets: envTargets{e},
		Log: log, Metrics: e.metrics})
	e.t.Cleanup(a.Wait)
	srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: a, Log: slog.New(slog.DiscardHandler), Ready: e.store.Ping,
		Metrics: e.metrics, MetricsToken: metricsToken}))
	e.t.Cleanup(srv.Close)
	e.url = srv.URL
}

// postForm posts a urlencoded form (a browser's form submission: same-origin
// unless headers say otherwise) without following redirects.
func (e *env) postForm(path string, values url.Values, headers map[string]string) resp {
	e.t.Helper()
	req, _ := http.NewRequest("POST", e.url+path, strings.NewReader(values.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	browserPost(req)
	return e.sendPage(req)
}

// importStatement uploads a statement file with optional mapping fields.
func (e *env) importStatement(token, name string, data []byte, fields map[string]string) resp {
	e.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	fw, _ := w.CreateFormFile("file", name)
	fw.Write(data)
	w.Close()
	return e.raw("POST", "/api/v1/panel/reconciliation/statements", token, w.FormDataContentType(), &body)
}

func (e *env) createPayment(c customer, amount string) string {
	e.t.Helper()
	r := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": amount, "currency": "INR",
		"customer_id": "cust-1", "callback_url": "https://shop.example/cb"}), 201)
	if r.body["livemode"] != true {
		e.t.Fatalf("upi_direct payment not live: %s", r.raw)
	}
	return r.str("payment_id")
}

func (e *env) paymentData(c customer, id string) map[string]any {
	e.t.Helper()
	return e.must(e.gw(c, "GET", "/api/v1/payment/status?payment_id="+id, nil), 200).body["data"].(map[string]any)
}

// TestUPIDirectCheckoutTakesTheUTR: the page's intent and QR pay the
// platform's VPA with tr = the payment id; the payer's UTR form works
// without script under the page's CSP; a bad UTR is 422 and one another
// payment holds 409, both the page again with the reason beside the field;
// a good one leaves the payment pending with its utr, idempotently.
func TestUPIDirectCheckoutTakesTheUTR(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		c := e.newCustomer("user", "starter", "0.00")
		id := e.createPayment(c, "1500.00")
		other := e.createPayment(c, "20.00")

		page := e.page("GET", "/"+id, nil)
		intent := "upi://pay?pa=paygate@okicici&amp;pn=Paygate%20Collections&amp;am=1500.00&amp;cu=INR&amp;tr=" + id
		if page.status != 200 || !strings.Contains(page.raw, intent) || !strings.Contains(page.raw, "data:image/png;base64,") {
			t.Fatalf("page %d: %s", page.status, page.raw)
		}
		for _, want := range []string{`<form method="post" action="/` + id + `/utr"`, `<label for="utr">`, `name="utr"`,
			`inputmode="numeric"`, `aria-describedby="utr-hint"`, `name="viewport"`} {
			if !strings.Contains(page.raw, want) {
				t.Errorf("page lacks %s", want)
			}
		}
		if strings.Contains(page.raw, "Test mode") || strings.Contains(page.raw, "/pay\"") {
			t.Error("a live page shows the sandbox banner or buttons")
		}
		csp := page.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "form-action 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
			!strings.Contains(csp, "script-src 'nonce-") || strings.Contains(csp, "script-src 'unsafe-inline'") ||
			page.header.Get("X-Content-Type-Options") != "nosniff" || page.header.Get("Referrer-Policy") == "" {
			t.Errorf("headers: %v", page.header)
		}
		if strings.Count(page.raw, "<script") != strings.Count(page.raw, "<script nonce=") {
			t.Error("a script without the CSP nonce")
		}
		if len(page.raw) > 30000 {
			t.Errorf("page is %d bytes", len(page.raw))
		}
		// The sandbox buttons do nothing for a live provider.
		e.page("POST", "/"+id+"/pay", nil)
		if d := e.paymentData(c, id); d["status"] != "pending" {
			t.Fatalf("live payment paid by the sandbox button: %v", d)
		}

		for _, bad := range []string{"", "12345", "41234567890a", "4123456789012", "4123 4567 8901"} {
			r := e.postForm("/"+id+"/utr", url.Values{"utr": {bad}}, nil)
			if r.status != 422 || !strings.Contains(r.raw, `role="alert"`) || !strings.Contains(r.raw, `aria-invalid="true" autofocus`) {
				t.Fatalf("utr %q: %d %s", bad, r.status, r.raw)
			}
		}
		if r := e.postForm("/"+id+"/utr", url.Values{"utr": {"412345678901"}}, map[string]string{"Origin": "https://evil.example"}); r.status != 403 {
			t.Fatalf("cross-site utr: %d", r.status)
		}
		for range 2 { // idempotent
			if r := e.postForm("/"+id+"/utr", url.Values{"utr": {"412345678901"}}, nil); r.status != 303 || r.header.Get("Location") != "/"+id {
				t.Fatalf("utr: %d %s", r.status, r.raw)
			}
		}
		d := e.paymentData(c, id)
		if d["status"] != "pending" || d["utr"] != "412345678901" {
			t.Fatalf("after utr: %v", d)
		}
		if exp, _ := time.Parse(time.RFC3339, d["expires_at"].(string)); time.Until(exp) < 6*24*time.Hour {
			t.Errorf("a payment awaiting confirmation expires at %v", exp)
		}
		if p := e.page("GET", "/"+id, nil); !strings.Contains(p.raw, "Awaiting confirmation") || !strings.Contains(p.raw, "412345678901") {
			t.Errorf("page after utr: %s", p.raw)
		}
		// Another payment cannot take the same UTR.
		r := e.postForm("/"+other+"/utr", url.Values{"utr": {"412345678901"}}, nil)
		if r.status != 409 || !strings.Contains(r.raw, "already given for another payment") {
			t.Fatalf("taken utr: %d %s", r.status, r.raw)
		}
		if d := e.paymentData(c, other); d["utr"] != nil {
			t.Fatalf("other payment got a utr: %v", d)
		}
		if r := e.postForm("/pay_01UNKNOWN/utr", url.Values{"utr": {"412345678902"}}, nil); r.status != 404 {
			t.Fatalf("unknown payment: %d", r.status)
		}
	})
}

// TestUTRFormIsNotOfferedBySandbox: the sandbox provider asks no UTR.
func TestUTRFormIsNotOfferedBySandbox(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		r := e.must(e.gw(c, "POST", "/api/v1/payment/create", map[string]any{"amount": "10.00", "currency": "INR",
			"customer_id": "c", "callback_url": "https://shop.example/cb"}), 201)
		id := r.str("payment_id")
		if p := e.page("GET", "/"+id, nil); strings.Contains(p.raw, `name="utr"`) {
			t.Fatal("sandbox page asks for a UTR")
		}
		if r := e.postForm("/"+id+"/utr", url.Values{"utr": {"412345678901"}}, nil); r.status != 404 {
			t.Fatalf("sandbox utr: %d", r.status)
		}
	})
}

// TestReconciliationImport: a bank's CSV export (preamble, quoted
// narrations, Indian digit grouping, blank debit cells, summary and footer
// rows) completes the payment whose UTR and amount it names, approves the
// balance request it pays, lists a mismatch and an unknown credit; a manual
// match and a dismissal resolve the rest; importing the file again changes
// nothing; every decision is audited.
func TestReconciliationImport(t *testing.T) {
	file, err := os.ReadFile("testdata/statement_april.csv")
	if err != nil {
		t.Fatal(err)
	}
	each(t, func(t *testing.T, e *env) {
		e.useUPIDirect()
		merchant := e.newCustomer("user", "starter", "0.00")
		payer := e.newCustomer("user", "starter", "0.00")
		paid := e.createPayment(merchant, "1500.00")
		short := e.createPayment(merchant, "1000.00") // the bank credit is 999.00
		manual := e.createPayment(merchant, "100000.00")
		for id, utr := range map[string]string{paid: "412345678901", short: "498765432109"} {
			e.page("GET", "/"+id, nil)
			if r := e.postForm("/"+id+"/utr", url.Values{"utr": {utr}}, nil); r.status != 303 {
				t.Fatalf("utr: %d", r.status)
			}
		}
		req := e.must(e.upload(payer.token, map[string]string{"amount": "25000.00", "utr_number": "n123240012345678", "payment_method": "neft"}), 201)
		reqID := req.num("id")

		// Only admins import.
		e.must(e.importStatement(payer.token, "april.csv", file, nil), 403)
		st := e.must(e.importStatement(e.admin, "april.csv", file, nil), 201)
		want := map[string]float64{"credit_lines": 5, "new_lines": 5, "duplicate_lines": 0, "debit_lines": 1, "skipped_lines": 3, "matched": 2, "unmatched": 3}
		for k, v := range want {
			if st.body[k] != v {
				t.Errorf("import %s = %v, want %v (%s)", k, st.body[k], v, st.raw)
			}
		}
		if d := e.paymentData(merchant, paid); d["status"] != "success" {
			t.Errorf("matched payment: %v", d)
		}
		if d := e.paymentData(merchant, short); d["status"] != "pending" {
			t.Errorf("mismatched payment: %v", d)
		}
		r := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/balance-requests/%d", reqID), e.admin, nil), 200)
		if r.str("status") != "approved" || !strings.Contains(r.str("admin_remarks"), "bank statement line") || r.body["approved_by"] == nil {
			t.Errorf("balance request: %s", r.raw)
		}
		if b := e.balance(payer); b != "25000.00" {
			t.Errorf("payer balance %s", b)
		}

		unmatched := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=unmatched", e.admin, nil), 200)
		lines := map[string]map[string]any{}
		for _, l := range unmatched.body["data"].([]any) {
			m := l.(map[string]any)
			lines[m["utr"].(string)] = m
		}
		if len(lines) != 3 || lines["498765432109"]["reason"] != "amount_mismatch" || lines["411111111111"]["reason"] != "no_match" ||
			lines["409999999999"]["reason"] != "no_match" || !strings.Contains(lines["411111111111"]["narration"].(string), `"GIFT"`) ||
			lines["411111111111"]["amount"] != "100000.00" {
			t.Fatalf("unmatched: %s", unmatched.raw)
		}
		matched := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=matched", e.admin, nil), 200)
		if matched.body["meta"].(map[string]any)["total"] != 2.0 {
			t.Fatalf("matched: %s", matched.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=lost", e.admin, nil), 422)

		// Re-importing the same file changes nothing.
		again := e.must(e.importStatement(e.admin, "april-again.csv", file, nil), 201)
		if again.body["new_lines"] != 0.0 || again.body["duplicate_lines"] != 5.0 || again.body["matched"] != 0.0 {
			t.Fatalf("re-import: %s", again.raw)
		}
		if all := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines", e.admin, nil), 200); all.body["meta"].(map[string]any)["total"] != 5.0 {
			t.Fatalf("lines after re-import: %s", all.raw)
		}

		// Manual match: the amount must equal; then the payment completes.
		gift, refund := uint64(lines["411111111111"]["id"].(float64)), uint64(lines["409999999999"]["id"].(float64))
		matchPath := fmt.Sprintf("/api/v1/panel/reconciliation/lines/%d/match", gift)
		if r := e.must(e.do("POST", matchPath, e.admin, map[string]any{"payment_id": short}), 409); r.str("error") != "amount_mismatch" {
			t.Fatalf("mismatch: %s", r.raw)
		}
		e.must(e.do("POST", matchPath, e.admin, map[string]any{}), 422)
		e.must(e.do("POST", matchPath, payer.token, map[string]any{"payment_id": manual}), 403)
		m := e.must(e.do("POST", matchPath, e.admin, map[string]any{"payment_id": manual}), 200)
		if m.str("status") != "matched" || m.str("payment_id") != manual {
			t.Fatalf("manual match: %s", m.raw)
		}
		if d := e.paymentData(merchant, manual); d["status"] != "success" {
			t.Fatalf("manually matched payment: %v", d)
		}
		e.must(e.do("POST", matchPath, e.admin, map[string]any{"payment_id": manual}), 409)

		// Dismiss needs a note.
		dismissPath := fmt.Sprintf("/api/v1/panel/reconciliation/lines/%d/dismiss", refund)
		e.must(e.do("POST", dismissPath, e.admin, map[string]any{"note": "  "}), 422)
		d := e.must(e.do("POST", dismissPath, e.admin, map[string]any{"note": "Vendor refund, not a collection"}), 200)
		if d.str("status") != "dismissed" || d.str("note") != "Vendor refund, not a collection" {
			t.Fatalf("dismiss: %s", d.raw)
		}
		e.must(e.do("POST", dismissPath, e.admin, map[string]any{"note": "again"}), 409)
		e.must(e.do("POST", "/api/v1/panel/reconciliation/lines/999999/dismiss", e.admin, map[string]any{"note": "x"}), 404)

		// Audit: two imports, two automatic and one manual match, one dismissal.
		for action, n := range map[string]float64{"reconciliation.import": 2, "reconciliation.match": 3, "reconciliation.dismiss": 1, "balance_request.approve": 1} {
			a := e.must(e.do("GET", "/api/v1/panel/audit-logs?action="+action, e.admin, nil), 200)
			if a.body["meta"].(map[string]any)["total"] != n {
				t.Errorf("audit %s: %s", action, a.raw)
			}
		}
	})
}

// TestReconciliationConfirmsAHandApproval: a balance request an admin
// approved by hand before the money showed is matched by the statement
// line that pays it (same UTR and amount) as its confirmation: the line is
// no exception to resolve, and nothing is credited twice.
func TestReconciliationConfirmsAHandApproval(t *testing.T) {
	file := []byte("Date,Narration,Ref No,Debit,Credit,Balance\n" +
		"01/04/2024,\"NEFT-N555240012345678-ASHA TRADERS\",N555240012345678,,\"2,000.00\",\"1,02,000.00\"\n")
	each(t, func(t *testing.T, e *env) {
		payer := e.newCustomer("user", "starter", "0.00")
		req := e.must(e.upload(payer.token, map[string]string{"amount": "2000.00", "utr_number": "N555240012345678", "payment_method": "neft"}), 201)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/balance-requests/%d/approve", req.num("id")), e.admin, map[string]any{}), 200)
		st := e.must(e.importStatement(e.admin, "confirm.csv", file, nil), 201)
		if st.body["matched"] != 1.0 || st.body["unmatched"] != 0.0 {
			t.Fatalf("import: %s", st.raw)
		}
		matched := e.must(e.do("GET", "/api/v1/panel/reconciliation/lines?status=matched", e.admin, nil), 200)
		rows := matched.body["data"].([]any)
		if len(rows) != 1 || rows[0].(map[string]any)["balance_request_id"] != float64(req.num("id")) {
			t.Fatalf("matched lines: %s", matched.raw)
		}
		if b := e.balance(payer); b != "2000.00" {
			t.Errorf("balance %s, want 2000.00 (credited once)", b)
		}
	})
}

// TestReconciliationMappingAndBadFiles: a mapping names other headers; a
// file without a usable header or a mapping naming a missing column is 422.
func TestReconciliationMappingAndBadFiles(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		custom := "Posted On,Details,Bank Reference,Paid Out,Paid In,Running Total\n" +
			"05-Apr-2024,\"UPI/455555555555/X\",455555555555,,\"2,500.00\",\"2,500.00\"\n"
		r := e.must(e.importStatement(e.admin, "custom.csv", []byte(custom), nil), 422)
		if r.body["errors"].(map[string]any)["file"] == nil {
			t.Fatalf("no header: %s", r.raw)
		}
		fields := map[string]string{"date_column": "posted on", "narration_column": "Details", "ref_column": "Bank Reference",
			"credit_column": "Paid In", "debit_column": "Paid Out", "balance_column": "Running Total"}
		r = e.must(e.importStatement(e.admin, "custom.csv", []byte(custom), fields), 201)
		if r.body["credit_lines"] != 1.0 || r.body["unmatched"] != 1.0 {
			t.Fatalf("mapped import: %s", r.raw)
		}
		fields["ref_column"] = "Nope"
		e.must(e.importStatement(e.admin, "custom.csv", []byte(custom), fields), 422)
		e.must(e.importStatement(e.admin, "x.csv", []byte(custom), map[string]string{"colour": "red"}), 422)
		e.must(e.raw("POST", "/api/v1/panel/reconciliation/statements", e.admin, "application/json", strings.NewReader("{}")), 400)
	})
}

// A statement upload above STATEMENT_IMPORT_MAX_BYTES is 413, whether its
// size is declared or not; a second import while one runs is 429.
func TestStatementImportIsCappedAndRunsOneAtATime(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		const maxBytes = 64 << 10
		srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: e.app, Log: slog.New(slog.NewJSONHandler(e.logs, nil)),
			Ready: e.store.Ping, StatementImportMaxBytes: maxBytes}))
		t.Cleanup(srv.Close)
		e.url = srv.URL

		header := "Date,Narration,Ref No,Debit,Credit,Balance\n"
		big := []byte(header + strings.Repeat("01/04/2024,CASH DEPOSIT AT BRANCH 0042,,,100.00,\n", 2*maxBytes/50))
		r := e.importStatement(e.admin, "big.csv", big, nil)
		if r.status != 413 || r.body["error"] != "body_too_large" || !strings.Contains(r.raw, "64 kB") {
			t.Fatalf("declared too large: %d %s", r.status, r.raw)
		}
		// Chunked: no Content-Length, cut by the reader.
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		fw, _ := w.CreateFormFile("file", "big.csv")
		fw.Write(big)
		w.Close()
		r = e.raw("POST", "/api/v1/panel/reconciliation/statements", e.admin, w.FormDataContentType(), io.MultiReader(&body))
		if r.status != 413 || r.body["error"] != "body_too_large" {
			t.Fatalf("chunked too large: %d %s", r.status, r.raw)
		}
		small := []byte(header + "01/04/2024,CASH DEPOSIT,,,100.00,\n")
		e.must(e.importStatement(e.admin, "small.csv", small, nil), 201)

		// An import whose body arrives slowly holds the instance's slot.
		pr, pw := io.Pipe()
		slow := multipart.NewWriter(pw)
		done := make(chan int, 1)
		go func() {
			req, _ := http.NewRequest("POST", e.url+"/api/v1/panel/reconciliation/statements", pr)
			req.Header.Set("Content-Type", slow.FormDataContentType())
			req.Header.Set("Authorization", "Bearer "+e.admin)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				done <- 0
				return
			}
			res.Body.Close()
			done <- res.StatusCode
		}()
		sw, _ := slow.CreateFormFile("file", "slow.csv")
		sw.Write([]byte(header))
		// Another import (a file without a header: 422 if it ran) is refused
		// while the slow one holds the slot.
		deadline := time.Now().Add(10 * time.Second)
		for {
			r = e.importStatement(e.admin, "other.csv", []byte("no header\n"), nil)
			if r.status == 429 {
				break
			}
			if r.status != 422 || time.Now().After(deadline) {
				t.Fatalf("import beside a running one: %d %s", r.status, r.raw)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if r.body["error"] != "import_in_progress" || r.header.Get("Retry-After") == "" {
			t.Fatalf("busy answer: %v %s", r.header, r.raw)
		}
		sw.Write([]byte("02/04/2024,CASH DEPOSIT,,,200.00,\n"))
		slow.Close()
		pw.Close()
		if code := <-done; code != 201 {
			t.Fatalf("slow import: %d", code)
		}
		// The slot is free again.
		e.must(e.importStatement(e.admin, "other.csv", []byte("no header\n"), nil), 422)
	})
}
