package httpapi_test

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// reportWorld is two customers who made real metered calls through the
// fake upstream: alice 3 billed calls of rep-a, 1 of rep-b and 1 failed
// (refunded) call of rep-a; bob 2 billed calls of rep-a.
type reportWorld struct {
	alice, bob customer
	a, b       uint64 // service ids
}

func newReportWorld(t *testing.T, e *env) reportWorld {
	t.Helper()
	w := reportWorld{a: e.newService("rep-a", "0.5000"), b: e.newService("rep-b", "1.2500")}
	w.alice = e.newCustomer("user", "enterprise", "100.00")
	w.bob = e.newCustomer("reseller", "enterprise", "50.00")
	body := map[string]any{}
	for range 3 {
		e.must(e.call(w.alice, "rep-a", body), 200)
	}
	e.must(e.call(w.alice, "rep-b", body), 200)
	e.must(e.call(w.bob, "rep-a", body), 200)
	e.must(e.call(w.bob, "rep-a", body), 200)
	e.setUpstream(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	e.must(e.call(w.alice, "rep-a", body), 500)
	e.setUpstream(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"ok":true}`)) })
	return w
}

// rows returns the data of a list answer, failing on anything but 200.
func (e *env) rows(path, token string) ([]map[string]any, map[string]any) {
	e.t.Helper()
	r := e.must(e.do("GET", path, token, nil), 200)
	data, _ := r.body["data"].([]any)
	out := make([]map[string]any, len(data))
	for i, d := range data {
		out[i] = d.(map[string]any)
	}
	meta, _ := r.body["meta"].(map[string]any)
	return out, meta
}

func num(v any) uint64 { f, _ := v.(float64); return uint64(f) }

func TestHitLogFiltersAndScoping(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		w := newReportWorld(t, e)
		today := time.Now().In(e.app.History.Location()).Format("2006-01-02")
		tomorrow := time.Now().In(e.app.History.Location()).AddDate(0, 0, 1).Format("2006-01-02")
		cases := []struct {
			name, query, token string
			want               int
			each               func(map[string]any) bool
		}{
			{"alice sees her own", "", w.alice.token, 5, func(h map[string]any) bool { return num(h["user_id"]) == w.alice.id }},
			{"alice cannot ask for bob's", fmt.Sprintf("?user_id=%d", w.bob.id), w.alice.token, 5, func(h map[string]any) bool { return num(h["user_id"]) == w.alice.id }},
			{"bob", "", w.bob.token, 2, func(h map[string]any) bool { return num(h["user_id"]) == w.bob.id }},
			{"admin sees all", "", e.admin, 7, func(map[string]any) bool { return true }},
			{"admin picks bob", fmt.Sprintf("?user_id=%d", w.bob.id), e.admin, 2, func(h map[string]any) bool { return num(h["user_id"]) == w.bob.id }},
			{"service by slug", "?service=rep-a", w.alice.token, 4, func(h map[string]any) bool { return num(h["api_service_id"]) == w.a }},
			{"service by id", fmt.Sprintf("?service=%d", w.b), w.alice.token, 1, func(h map[string]any) bool { return num(h["api_service_id"]) == w.b }},
			{"service_id", fmt.Sprintf("?service_id=%d", w.b), e.admin, 1, func(h map[string]any) bool { return num(h["api_service_id"]) == w.b }},
			{"status", "?status=failed", w.alice.token, 1, func(h map[string]any) bool { return h["status"] == "failed" && h["charge_amount"] == "0.0000" }},
			{"key", fmt.Sprintf("?api_key_id=%d", w.bob.keyID), e.admin, 2, func(h map[string]any) bool { return num(h["api_key_id"]) == w.bob.keyID }},
			{"someone else's key", fmt.Sprintf("?api_key_id=%d", w.bob.keyID), w.alice.token, 0, nil},
			{"today (local date)", "?from=" + today + "&to=" + today, w.alice.token, 5, nil},
			{"from tomorrow", "?from=" + tomorrow, e.admin, 0, nil},
			{"RFC 3339 range", "?from=" + time.Now().Add(-time.Hour).UTC().Format(time.RFC3339) + "&to=" + time.Now().Add(time.Minute).Format(time.RFC3339), e.admin, 7, nil},
			{"combined", "?service=rep-a&status=success", w.alice.token, 3, func(h map[string]any) bool { return h["status"] == "success" && h["charge_amount"] == "0.5000" }},
		}
		for _, c := range cases {
			rows, meta := e.rows("/api/v1/panel/hit-logs"+c.query, c.token)
			if len(rows) != c.want || num(meta["total"]) != uint64(c.want) {
				t.Fatalf("%s: %d rows, total %v, want %d", c.name, len(rows), meta["total"], c.want)
			}
			if _, capped := meta["total_capped"]; capped {
				t.Fatalf("%s: total_capped set on a small list", c.name)
			}
			for i, h := range rows {
				if c.each != nil && !c.each(h) {
					t.Fatalf("%s: row %v does not belong", c.name, h)
				}
				if i > 0 && num(h["id"]) > num(rows[i-1]["id"]) {
					t.Fatalf("%s: not newest first", c.name)
				}
			}
		}
	})
}

func TestHistoryBadFiltersAre422(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		cases := []struct{ path, field string }{
			{"/api/v1/panel/hit-logs?status=done", "status"},
			{"/api/v1/panel/hit-logs?service=no-such-service", "service"},
			{"/api/v1/panel/hit-logs?service=x&service_id=1", "service"},
			{"/api/v1/panel/hit-logs?api_key_id=-1", "api_key_id"},
			{"/api/v1/panel/hit-logs?user_id=abc", "user_id"},
			{"/api/v1/panel/hit-logs?from=yesterday", "from"},
			{"/api/v1/panel/hit-logs?from=2026-11-21&to=2026-11-20", "to"},
			{"/api/v1/panel/hit-logs?format=xlsx", "format"},
			{"/api/v1/panel/hit-logs?page=501", "page"}, // 501 × 20 rows is past the 10,000-row window
			{"/api/v1/panel/hit-logs?page=101&per_page=100", "page"},
			{"/api/v1/panel/hit-logs?format=csv&status=done", "status"}, // a CSV request's error is JSON too
			{"/api/v1/panel/transactions?type=withdrawal", "type"},
			{"/api/v1/panel/transactions?reference_type=Api-Hit", "reference_type"},
			{"/api/v1/panel/transactions?to=2026-13-01", "to"},
			{"/api/v1/panel/transactions?format=csv&from=2026-11-21T10:00:00", "from"}, // RFC 3339 needs its offset
		}
		for _, tc := range cases {
			r := e.do("GET", tc.path, c.token, nil)
			if r.status != 422 || r.header.Get("Content-Type") != "application/json" || r.str("error") != "validation_failed" {
				t.Fatalf("%s: %d %s %s", tc.path, r.status, r.header.Get("Content-Type"), r.raw)
			}
			errsBody, _ := r.body["errors"].(map[string]any)
			if errsBody[tc.field] == nil {
				t.Fatalf("%s: no error for %s: %s", tc.path, tc.field, r.raw)
			}
		}
		// The last page of the window is fine (and empty here).
		e.must(e.do("GET", "/api/v1/panel/hit-logs?page=500", c.token, nil), 200)
		e.must(e.do("GET", "/api/v1/panel/hit-logs?page=100&per_page=100&format=csv", c.token, nil), 200)
		if r := e.do("GET", "/api/v1/panel/hit-logs", "", nil); r.status != 401 {
			t.Fatalf("unauthenticated: %d", r.status)
		}
	})
}

// readCSV checks a CSV answer's headers and parses it.
func readCSV(t *testing.T, r resp, kind string) [][]string {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("CSV export: %d %s", r.status, r.raw)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	wantName := fmt.Sprintf(`attachment; filename="%s-%s.csv"`, kind, time.Now().In(mustKolkata(t)).Format("2006-01-02"))
	if cd := r.header.Get("Content-Disposition"); cd != wantName {
		t.Fatalf("Content-Disposition %q, want %q", cd, wantName)
	}
	rows, err := csv.NewReader(strings.NewReader(r.raw)).ReadAll()
	if err != nil {
		t.Fatalf("the export is not valid CSV: %v\n%s", err, r.raw)
	}
	return rows
}

func mustKolkata(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestCSVExports(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		w := newReportWorld(t, e)
		// A description that a spreadsheet would run as a formula.
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", w.alice.id), e.admin,
			map[string]any{"type": "credit", "amount": "1.10", "description": `=HYPERLINK("http://evil.example","x")`}), 201)

		hits := readCSV(t, e.do("GET", fmt.Sprintf("/api/v1/panel/hit-logs?format=csv&user_id=%d", w.bob.id), w.alice.token, nil), "hit-logs")
		wantHeader := "id,request_id,created_at,user_id,user_email,user_name,api_service_id,api_service_name,api_key_id,api_key_name," +
			"status,charge_amount,response_time_ms,ip_address,request_payload,response_payload"
		if strings.Join(hits[0], ",") != wantHeader {
			t.Fatalf("header %v", hits[0])
		}
		if len(hits) != 1+5 {
			t.Fatalf("alice's export has %d rows, want her 5 (user_id of someone else ignored)", len(hits)-1)
		}
		statuses := map[string]int{}
		for i, row := range hits[1:] {
			if row[3] != fmt.Sprint(w.alice.id) {
				t.Fatalf("row %d belongs to user %s", i, row[3])
			}
			at, err := time.Parse(time.RFC3339, row[2])
			if err != nil || !strings.HasSuffix(row[2], "+05:30") || time.Since(at) > time.Hour {
				t.Fatalf("created_at %q is not RFC 3339 in Asia/Kolkata: %v", row[2], err)
			}
			if !strings.HasPrefix(row[1], "req_") || row[14] != "{}" {
				t.Fatalf("row %v", row)
			}
			// The names beside the ids.
			if row[4] != w.alice.email || row[5] != "User" || !strings.HasPrefix(row[7], "Service rep-") || row[9] != "test key" {
				t.Fatalf("row %d's names: %v", i, row)
			}
			statuses[row[10]+" "+row[11]]++
		}
		if statuses["success 0.5000"] != 3 || statuses["success 1.2500"] != 1 || statuses["failed 0.0000"] != 1 {
			t.Fatalf("statuses and charges: %v", statuses)
		}
		if strings.Contains(e.do("GET", "/api/v1/panel/hit-logs?format=csv", e.admin, nil).raw, "upstream-secret-value") {
			t.Fatal("the export carries a provider key")
		}

		// Filters apply to the export as to the list.
		failed := readCSV(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv&status=failed&service=rep-a", e.admin, nil), "hit-logs")
		if len(failed) != 2 || failed[1][10] != "failed" || !strings.Contains(failed[1][15], "upstream_error") {
			t.Fatalf("failed export: %v", failed)
		}
		all := readCSV(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv", e.admin, nil), "hit-logs")
		if len(all) != 1+7 {
			t.Fatalf("admin export: %d rows", len(all)-1)
		}
		none := readCSV(t, e.do("GET", "/api/v1/panel/hit-logs?format=csv&from=2000-01-01&to=2000-01-02", e.admin, nil), "hit-logs")
		if len(none) != 1 {
			t.Fatalf("an empty export is its header: %v", none)
		}

		txns := readCSV(t, e.do("GET", "/api/v1/panel/transactions?format=csv", w.alice.token, nil), "transactions")
		if strings.Join(txns[0], ",") != "id,txn_id,created_at,user_id,user_email,user_name,type,amount,balance_before,balance_after,reference_type,reference_id,description,status" {
			t.Fatalf("header %v", txns[0])
		}
		// credit 100.00, 5 debits, 1 refund, the credit 1.10: 8 rows, newest first.
		if len(txns) != 1+8 {
			t.Fatalf("alice's ledger export has %d rows, want 8", len(txns)-1)
		}
		newest := txns[1]
		if newest[4] != w.alice.email || newest[6] != "credit" || newest[7] != "1.10" || !strings.HasPrefix(newest[12], `'=HYPERLINK("http://evil.example","x")`) {
			t.Fatalf("newest row %v: amount and defused formula expected", newest)
		}
		if newest[9] != e.balance(w.alice) {
			t.Fatalf("balance_after %s, balance %s", newest[9], e.balance(w.alice))
		}
		hitRows := readCSV(t, e.do("GET", "/api/v1/panel/transactions?format=csv&reference_type=api_hit&type=refund", w.alice.token, nil), "transactions")
		if len(hitRows) != 2 || hitRows[1][6] != "refund" || hitRows[1][7] != "0.50" || hitRows[1][10] != "api_hit" {
			t.Fatalf("refunds: %v", hitRows)
		}
		bobs := readCSV(t, e.do("GET", fmt.Sprintf("/api/v1/panel/transactions?format=csv&user_id=%d", w.bob.id), e.admin, nil), "transactions")
		for _, row := range bobs[1:] {
			if row[3] != fmt.Sprint(w.bob.id) {
				t.Fatalf("admin's user_id filter leaked %v", row)
			}
		}
		if len(bobs) != 1+3 {
			t.Fatalf("bob's rows: %d", len(bobs)-1)
		}
	})
}

func TestDashboardAfterRealCalls(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		w := newReportWorld(t, e)
		// A pending balance request, counted for admins (the table exists; its routes come elsewhere).
		if err := e.store.DB().Exec("INSERT INTO balance_requests (user_id, amount, utr_number, status, created_at) VALUES (?, '25.00', 'UTR-DASH-1', 'pending', ?)",
			w.alice.id, time.Now().UTC()).Error; err != nil {
			t.Fatal(err)
		}
		today := time.Now().In(mustKolkata(t)).Format("2006-01-02")

		d := e.must(e.do("GET", "/api/v1/panel/dashboard", w.alice.token, nil), 200).body
		days := d["days"].([]any)
		if d["timezone"] != "Asia/Kolkata" || d["to"] != today || len(days) != 30 || days[29].(map[string]any)["date"] != today {
			t.Fatalf("window: %v %v %v, %d days", d["timezone"], d["from"], d["to"], len(days))
		}
		// alice: 3 × 0.50 + 1 × 1.25 billed, one failed and refunded.
		if d["balance"] != "97.25" || d["total_spent"] != "2.75" || d["spend"] != "2.7500" {
			t.Fatalf("alice's money: balance %v total_spent %v spend %v", d["balance"], d["total_spent"], d["spend"])
		}
		calls := d["calls"].(map[string]any)
		if num(calls["calls"]) != 5 || num(calls["success"]) != 4 || num(calls["failed"]) != 1 || num(calls["pending"]) != 0 {
			t.Fatalf("alice's calls %v", calls)
		}
		todayRow := days[29].(map[string]any)
		if num(todayRow["calls"]) != 5 || num(todayRow["billed_calls"]) != 4 || todayRow["spend"] != "2.7500" {
			t.Fatalf("today %v", todayRow)
		}
		for _, day := range days[:29] {
			if r := day.(map[string]any); num(r["calls"]) != 0 || r["spend"] != "0.0000" {
				t.Fatalf("a past day is not zero: %v", r)
			}
		}
		top := d["top_services"].([]any)
		first := top[0].(map[string]any)
		if len(top) != 2 || num(first["service_id"]) != w.a || first["slug"] != "rep-a" || num(first["calls"]) != 4 || first["spend"] != "1.5000" {
			t.Fatalf("top services %v", top)
		}
		if _, ok := d["platform"]; ok {
			t.Fatal("a user sees platform figures")
		}

		a := e.must(e.do("GET", "/api/v1/panel/dashboard", e.admin, nil), 200).body
		p, ok := a["platform"].(map[string]any)
		if !ok {
			t.Fatalf("no platform for the admin: %v", a)
		}
		// revenue 2.75 (alice) + 1.00 (bob); cost 0.2000 per billed call (6).
		if p["revenue"] != "3.7500" || p["cost"] != "1.2000" || p["margin"] != "2.5500" {
			t.Fatalf("platform money %v %v %v", p["revenue"], p["cost"], p["margin"])
		}
		pc := p["calls"].(map[string]any)
		if num(pc["calls"]) != 7 || num(pc["success"]) != 6 || num(pc["failed"]) != 1 {
			t.Fatalf("platform calls %v", pc)
		}
		pToday := p["days"].([]any)[29].(map[string]any)
		if pToday["date"] != today || pToday["revenue"] != "3.7500" || pToday["margin"] != "2.5500" {
			t.Fatalf("platform today %v", pToday)
		}
		if num(p["pending_balance_requests"]) != 1 {
			t.Fatalf("pending requests %v", p["pending_balance_requests"])
		}
		users := p["users_by_status"].(map[string]any)
		if num(users["active"]) != 3 { // the admin, alice, bob
			t.Fatalf("users by status %v", users)
		}
		if a["spend"] != "0.0000" || num(a["calls"].(map[string]any)["calls"]) != 0 {
			t.Fatalf("the admin's own figures: %v %v", a["spend"], a["calls"])
		}
		e.ledgerClean()
	})
}
