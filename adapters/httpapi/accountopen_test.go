package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"paygate/core/gateway/accountopen"
)

// The applicant's identifiers in these tests: no stored, shown, logged or
// sent copy may hold them in full.
const (
	openAadhaar, openAadhaarMasked = "234567890123", "XXXXXXXX0123"
	openPAN, openPANMasked         = "AQZPK7421M", "XXXXXX421M"
)

func openBody(ref, name string) map[string]any {
	return map[string]any{"name": name, "dob": "1991-02-03", "pan": strings.ToLower(openPAN), "aadhaar": openAadhaar,
		"mobile": "9123456780", "email": "applicant@example.com", "address": "4 Park Street, Kolkata", "product": "savings",
		"reference_id": ref}
}

func (e *env) openingData(r resp) map[string]any {
	e.t.Helper()
	d, ok := r.body["data"].(map[string]any)
	if !ok {
		e.t.Fatalf("no data: %s", r.raw)
	}
	return d
}

// checkOpenings runs one round of the account-opening worker.
func (e *env) checkOpenings() int {
	e.t.Helper()
	n, err := e.app.Gateway.CheckAccountOpenings(context.Background(), 100)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// TestGatewayAccountOpening: the whole flow through the real server on
// each database: create (kyc_pending), replay and reuse, 422, the worker
// opening one application and rejecting another, the events, the status
// (another user's reference is 404) and the panel lists (each user their
// own, the admin all). Every answer is checked against api/openapi.yaml.
func TestGatewayAccountOpening(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "50.00")
		hooks := newReceiver(t)
		e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{"webhook_url": hooks.srv.URL + "/hooks"}), 200)
		var answers strings.Builder

		// Create: kyc_pending at once (the sandbox's Submit), masked, not live, free.
		r := e.must(e.gw(c, "POST", "/api/v1/account/open", openBody("ao-1", "Asha Rao")), 200)
		answers.WriteString(r.raw)
		d := e.openingData(r)
		id, _ := d["opening_id"].(string)
		app := d["applicant"].(map[string]any)
		if !strings.HasPrefix(id, "aco_") || d["status"] != "kyc_pending" || d["kyc_url"] != "https://sandbox.example/kyc/"+id ||
			app["pan"] != openPANMasked || app["aadhaar"] != openAadhaarMasked || d["livemode"] != false ||
			d["account_number"] != nil || r.str("charged") != "0.0000" || r.header.Get("Idempotent-Replayed") != "" {
			t.Fatalf("create: %s", r.raw)
		}

		// The same request again: the same opening, not billed; another request with the reference: 409.
		again := e.must(e.gw(c, "POST", "/api/v1/account/open", openBody("ao-1", "Asha Rao")), 200)
		answers.WriteString(again.raw)
		if e.openingData(again)["opening_id"] != id || again.header.Get("Idempotent-Replayed") != "true" {
			t.Fatalf("replay: %s %v", again.raw, again.header)
		}
		other := openBody("ao-1", "Asha Rao")
		other["address"] = "elsewhere"
		if r := e.must(e.gw(c, "POST", "/api/v1/account/open", other), 409); r.str("error") != "reference_id_reused" {
			t.Fatalf("reuse: %s", r.raw)
		}

		// 422 with per-field errors; a wrong type and an unknown field too.
		bad := openBody("ao-bad", "")
		bad["dob"], bad["pan"], bad["aadhaar"], bad["product"], bad["mobile"], bad["extra"] = "2015-01-01", "ABC", "1"+openAadhaar[1:], "current", true, 1
		e.must422(e.gw(c, "POST", "/api/v1/account/open", bad), "name", "dob", "pan", "aadhaar", "product", "mobile", "extra")
		e.must(e.gw(c, "POST", "/api/v1/account/open", `{"name": }`), 400)

		// An applicant the sandbox rejects.
		rej := e.must(e.gw(c, "POST", "/api/v1/account/open", openBody("ao-2", "Please Reject Me")), 200)
		answers.WriteString(rej.raw)

		// Before the first check is due nothing moves; then the worker opens one and rejects the other.
		if n := e.checkOpenings(); n != 0 {
			t.Fatalf("round before due: %d", n)
		}
		e.skew.Store(int64(accountopen.FirstCheck + time.Second))
		if n := e.checkOpenings(); n != 2 {
			t.Fatalf("worker finished %d, want 2", n)
		}
		st := e.must(e.gw(c, "GET", "/api/v1/account/open/status?reference_id=ao-1", nil), 200)
		answers.WriteString(st.raw)
		d = e.openingData(st)
		acct, _ := d["account_number"].(string)
		if d["status"] != "opened" || d["kyc_url"] != nil || !strings.HasPrefix(acct, "XXXXXXXXXX") || len(acct) != 14 ||
			d["ifsc"] != "SBOX0000001" || d["reject_reason"] != nil {
			t.Fatalf("opened: %s", st.raw)
		}
		st = e.must(e.gw(c, "GET", "/api/v1/account/open/status?reference_id=ao-2", nil), 200)
		answers.WriteString(st.raw)
		if d := e.openingData(st); d["status"] != "rejected" || d["reject_reason"] == nil || d["account_number"] != nil {
			t.Fatalf("rejected: %s", st.raw)
		}
		if n := e.checkOpenings(); n != 0 {
			t.Fatalf("finished openings checked again: %d", n)
		}
		m := e.scrape() // each end state counted once (paygate_account_openings_total)
		wantSample(t, m, `paygate_account_openings_total{state="opened"}`, 1)
		wantSample(t, m, `paygate_account_openings_total{state="rejected"}`, 1)

		// Events: one per end state, masked, livemode false.
		for e.deliver() > 0 {
		}
		types := map[string]map[string]any{}
		var hookBodies strings.Builder
		for _, h := range hooks.take() {
			hookBodies.Write(h.body)
			var ev map[string]any
			_ = json.Unmarshal(h.body, &ev)
			if ev["livemode"] != false {
				t.Errorf("event not in test mode: %s", h.body)
			}
			types[ev["type"].(string)] = ev["data"].(map[string]any)
		}
		if o := types["account_opening.opened"]; o == nil || o["opening_id"] != id || o["livemode"] != false ||
			o["applicant"].(map[string]any)["aadhaar"] != openAadhaarMasked || o["account_number"] != acct {
			t.Fatalf("opened event: %v", types)
		}
		if o := types["account_opening.rejected"]; o == nil || o["status"] != "rejected" {
			t.Fatalf("rejected event: %v", types)
		}

		// Status: another user's reference is not found; the reference is required.
		d2 := e.newCustomer("user", "starter", "0.00")
		e.must(e.gw(d2, "GET", "/api/v1/account/open/status?reference_id=ao-1", nil), 404)
		e.must422(e.gw(d2, "GET", "/api/v1/account/open/status", nil), "reference_id")
		// The other user may use the same reference for their own applicant.
		e.must(e.gw(d2, "POST", "/api/v1/account/open", openBody("ao-1", "Ravi Kumar")), 200)

		// Lists: each user their own, the admin all or one user's.
		admin := e.login(adminEmail, adminPassword) // a fresh token: the clock moved
		c.token = e.login(c.email, "user-password-1")
		d2.token = e.login(d2.email, "user-password-1")
		total := func(path, token string) float64 {
			l := e.must(e.do("GET", path, token, nil), 200)
			answers.WriteString(l.raw)
			return l.body["meta"].(map[string]any)["total"].(float64)
		}
		if n := total("/api/v1/panel/account-openings", c.token); n != 2 {
			t.Fatalf("own list: %v", n)
		}
		if n := total(fmt.Sprintf("/api/v1/panel/account-openings?user_id=%d", d2.id), c.token); n != 2 {
			t.Fatalf("a user's user_id filter reached another user: %v", n)
		}
		if n := total("/api/v1/panel/account-openings", d2.token); n != 1 {
			t.Fatalf("other's list: %v", n)
		}
		l := e.must(e.do("GET", "/api/v1/panel/account-openings?per_page=100", admin, nil), 200)
		if n := l.body["meta"].(map[string]any)["total"].(float64); n < 3 {
			t.Fatalf("admin list: %s", l.raw)
		}
		if n := total(fmt.Sprintf("/api/v1/panel/account-openings?user_id=%d&status=opened", c.id), admin); n != 1 {
			t.Fatalf("admin filtered: %v", n)
		}
		if n := total("/api/v1/panel/account-openings?status=rejected", c.token); n != 1 {
			t.Fatalf("status filter: %v", n)
		}
		today := time.Now().In(mustKolkata(t)).Format(time.DateOnly) // the filter reads dates in the business zone
		if n := total("/api/v1/panel/account-openings?from="+today+"&to="+today, c.token); n != 2 {
			t.Fatalf("date filter: %v", n)
		}
		e.must422(e.do("GET", "/api/v1/panel/account-openings?status=closed", c.token, nil), "status")

		// The hit log: every call logged, the identifiers masked.
		hits := e.must(e.do("GET", "/api/v1/panel/hit-logs?per_page=100", c.token, nil), 200)
		answers.WriteString(hits.raw)
		if !strings.Contains(hits.raw, openAadhaarMasked) || !strings.Contains(hits.raw, openPANMasked) {
			t.Fatalf("hit log lacks the masks: %s", hits.raw)
		}

		// Nowhere in full: the database (every table), answers, events, logs.
		dump := dumpDatabase(t, e.store)
		for where, text := range map[string]string{
			"database": dump, "answers": answers.String(), "webhooks": hookBodies.String(), "logs": e.logs.String(),
		} {
			for _, full := range []string{openAadhaar, openPAN, strings.ToLower(openPAN), "1" + openAadhaar[1:]} {
				if i := strings.Index(text, full); i >= 0 {
					t.Errorf("%s holds %s: …%s…", where, full, text[max(0, i-200):min(len(text), i+100)])
				}
			}
		}
		for _, want := range []string{openAadhaarMasked, openPANMasked, id} {
			if !strings.Contains(dump, want) {
				t.Errorf("database lacks %s", want)
			}
		}
		e.ledgerClean()
	})
}

// TestGatewayAccountOpeningWorkerResubmits: an opening whose Submit never
// answered (put back to initiated here, due after the request's grace) is
// left alone until then, and then submitted again by the worker (the
// sandbox answers the same without the identifiers), checked, and opened.
func TestGatewayAccountOpeningWorkerResubmits(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		r := e.must(e.gw(c, "POST", "/api/v1/account/open", openBody("ao-9", "Meera Iyer")), 200)
		id := e.openingData(r)["opening_id"].(string)
		// Put it back to initiated, as if the provider had never answered.
		grace := time.Now().Add(accountopen.SubmitGrace(2 * time.Second)).UTC()
		if err := e.store.DB().Exec("UPDATE account_openings SET status = 'initiated', kyc_url = NULL, next_check_at = ? WHERE public_id = ?",
			grace, id).Error; err != nil {
			t.Fatal(err)
		}
		e.skew.Store(int64(accountopen.FirstCheck + time.Second))
		if n := e.checkOpenings(); n != 0 {
			t.Fatalf("round: %d", n)
		}
		st := e.openingData(e.must(e.gw(c, "GET", "/api/v1/account/open/status?reference_id=ao-9", nil), 200))
		if st["status"] != "initiated" {
			t.Fatalf("taken before the grace: %v", st)
		}
		e.skew.Store(int64(accountopen.SubmitGrace(2*time.Second) + time.Second))
		e.checkOpenings() // re-submitted: kyc_pending (the sandbox's KYC delay has passed, but Submit only starts it)
		st = e.openingData(e.must(e.gw(c, "GET", "/api/v1/account/open/status?reference_id=ao-9", nil), 200))
		if st["status"] != "kyc_pending" || st["kyc_url"] != "https://sandbox.example/kyc/"+id {
			t.Fatalf("after re-submission: %v", st)
		}
		e.skew.Store(int64(accountopen.SubmitGrace(2*time.Second) + time.Second + accountopen.MaxCheckInterval))
		if n := e.checkOpenings(); n != 1 {
			t.Fatalf("round after re-submission: %d", n)
		}
		st = e.openingData(e.must(e.gw(c, "GET", "/api/v1/account/open/status?reference_id=ao-9", nil), 200))
		if st["status"] != "opened" {
			t.Fatalf("finally: %v", st)
		}
	})
}

// TestGatewayAccountOpeningConcurrentRetries: the same application sent
// eight times at once makes one opening; every caller gets it (the losers
// of the unique reference as replays) and the provider's KYC page once.
func TestGatewayAccountOpeningConcurrentRetries(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "enterprise", "10.00")
		const n = 8
		ids := make(chan string, n)
		replays := make(chan bool, n)
		done := make(chan struct{})
		for range n {
			go func() {
				defer func() { done <- struct{}{} }()
				r := e.gw(c, "POST", "/api/v1/account/open", openBody("ao-race", "Kiran Shah"))
				if r.status != 200 {
					t.Errorf("status %d: %s", r.status, r.raw)
					return
				}
				d, _ := r.body["data"].(map[string]any)
				id, _ := d["opening_id"].(string)
				ids <- id
				replays <- r.header.Get("Idempotent-Replayed") == "true"
			}()
		}
		for range n {
			<-done
		}
		close(ids)
		close(replays)
		seen := map[string]bool{}
		for id := range ids {
			seen[id] = true
		}
		fresh := 0
		for r := range replays {
			if !r {
				fresh++
			}
		}
		if len(seen) != 1 || fresh != 1 {
			t.Fatalf("opening ids %v, %d answered as new", seen, fresh)
		}
		var count int64
		if err := e.store.DB().Raw("SELECT COUNT(*) FROM account_openings").Scan(&count).Error; err != nil || count != 1 {
			t.Fatalf("%d rows (%v)", count, err)
		}
	})
}
