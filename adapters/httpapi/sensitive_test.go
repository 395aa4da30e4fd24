package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"paygate/adapters/sqlstore"
	"paygate/core/gateway/verification"
)

// dumpDatabase is every text of every row of every table, one line per row:
// what a full copy of the database would let someone read.
func dumpDatabase(t *testing.T, store *sqlstore.Store) string {
	t.Helper()
	db := store.DB()
	var tables []string
	q := "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
	if store.Dialect() == sqlstore.DialectSQLite {
		q = "SELECT name FROM sqlite_master WHERE type = 'table'"
	}
	if err := db.Raw(q).Scan(&tables).Error; err != nil {
		t.Fatal(err)
	}
	if len(tables) < 10 {
		t.Fatalf("only %d tables: %v", len(tables), tables)
	}
	var b strings.Builder
	for _, table := range tables {
		rows, err := db.Raw("SELECT * FROM " + table).Rows()
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("%s: %v", table, err)
			}
			b.WriteString(table)
			for _, v := range vals {
				switch x := v.(type) {
				case []byte:
					b.WriteString("\t" + string(x))
				default:
					fmt.Fprintf(&b, "\t%v", x)
				}
			}
			b.WriteString("\n")
		}
		rows.Close()
	}
	return b.String()
}

// A sensitive parameter goes upstream in full and is kept only masked: in
// the hit log (request and the upstream's echo of it), the CSV exports,
// webhook payloads, logs and every other row of the database. Account
// verification masks Aadhaar and PAN numbers the same way.
func TestSensitiveParametersAreNeverStoredInFull(t *testing.T) {
	base := "98765432109"
	aadhaar := base + strconv.Itoa(verification.VerhoeffDigit(base)) // valid for account verification too
	masked := "XXXXXXXX" + aadhaar[8:]
	const pan, maskedPAN = "ABCPE1234F", "XXXXXX234F"

	each(t, func(t *testing.T, e *env) {
		// The upstream records what it got and echoes the number back.
		var mu sync.Mutex
		var upstreamGot []string
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			upstreamGot = append(upstreamGot, string(b))
			mu.Unlock()
			var in map[string]any
			_ = json.Unmarshal(b, &in)
			w.Header().Set("Content-Type", "application/json")
			if in["name"] == "fail" {
				w.WriteHeader(400)
				fmt.Fprintf(w, `{"message":"no card for %v"}`, in["aadhaar_number"])
				return
			}
			fmt.Fprintf(w, `{"print_id":"PRN1","aadhaar_number":%q,"status":"queued"}`, in["aadhaar_number"])
		})
		id := e.newService("aadhaar-print", "1.00")
		r := e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/services/%d/docs", id), e.admin, map[string]any{
			"endpoint": "/api/v1/aadhaar-print", "method": "POST", "description": "Print an Aadhaar card",
			"request_params": map[string]any{
				"aadhaar_number": map[string]any{"type": "string", "required": true, "sensitive": true, "pattern": "^[0-9]{12}$"},
				"name":           map[string]any{"type": "string", "required": true},
			},
			"response_example": map[string]any{"success": true}, "error_codes": map[string]string{"422": "Invalid parameters"},
		}), 200)
		if p := r.body["request_params"].(map[string]any)["aadhaar_number"].(map[string]any); p["sensitive"] != true {
			t.Fatalf("docs answer without sensitive: %s", r.raw)
		}
		hooks := newReceiver(t)
		var customers []customer
		for _, plan := range []string{"enterprise", "starter"} { // on a hold, and per call
			c := e.newCustomer("user", plan, "10.00")
			e.must(e.do("PATCH", "/api/v1/panel/auth/me", c.token, map[string]any{
				"webhook_url": hooks.srv.URL + "/hooks", "low_balance_alert": "9.50"}), 200)
			r := e.must(e.call(c, "aadhaar-print", map[string]any{"aadhaar_number": aadhaar, "name": "Asha"}), 200)
			if !strings.Contains(r.raw, aadhaar) { // the caller gets the upstream's answer as it came
				t.Fatalf("answer: %s", r.raw)
			}
			e.must(e.call(c, "aadhaar-print", map[string]any{"aadhaar_number": aadhaar, "name": "fail"}), 500)
			e.must(e.call(c, "aadhaar-print", map[string]any{"aadhaar_number": aadhaar, "name": "Asha", "extra": 1}), 422)
			e.must(e.call(c, "aadhaar-print", `{"aadhaar_number": "`+aadhaar+`", "name": }`), 422)
			// The gateway's account verification, Aadhaar and PAN.
			v := e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "aadhaar", "aadhaar": aadhaar}), 200)
			if v.body["data"].(map[string]any)["identifier"] != masked || strings.Contains(v.raw, aadhaar) {
				t.Fatalf("verify aadhaar: %s", v.raw)
			}
			v = e.must(e.gw(c, "POST", "/api/v1/account/verify", map[string]any{"type": "pan", "pan": pan}), 200)
			if v.body["data"].(map[string]any)["identifier"] != maskedPAN || strings.Contains(v.raw, pan) {
				t.Fatalf("verify pan: %s", v.raw)
			}
			customers = append(customers, c)
		}
		mu.Lock()
		for _, got := range upstreamGot {
			if !strings.Contains(got, `"aadhaar_number":"`+aadhaar+`"`) {
				t.Errorf("upstream got %s, want the full number", got)
			}
		}
		if len(upstreamGot) != 4 {
			t.Errorf("upstream called %d times, want 4", len(upstreamGot))
		}
		mu.Unlock()

		// Every event is out (balance.low of each customer) before looking.
		for e.deliver() > 0 {
		}
		var hookBodies strings.Builder
		got := hooks.take()
		if len(got) < 2 {
			t.Fatalf("webhooks received: %d", len(got))
		}
		for _, h := range got {
			hookBodies.Write(h.body)
		}

		// What the panel shows and exports, to the owner and to the admin.
		var shown strings.Builder
		for _, c := range customers {
			for _, path := range []string{"/api/v1/panel/hit-logs?per_page=100", "/api/v1/panel/hit-logs?format=csv",
				"/api/v1/panel/transactions?format=csv", "/api/v1/panel/webhooks/deliveries?per_page=100"} {
				shown.WriteString(e.must(e.do("GET", path, c.token, nil), 200).raw)
			}
		}
		adminCSV := e.must(e.do("GET", "/api/v1/panel/hit-logs?format=csv", e.admin, nil), 200).raw
		shown.WriteString(adminCSV)
		dump := dumpDatabase(t, e.store)

		for where, text := range map[string]string{
			"database": dump, "panel and exports": shown.String(), "webhooks": hookBodies.String(), "logs": e.logs.String(),
		} {
			if strings.Contains(text, aadhaar) || strings.Contains(text, pan) {
				i := max(strings.Index(text, aadhaar), strings.Index(text, pan))
				t.Errorf("%s holds a full number: …%s…", where, text[max(0, i-300):min(len(text), i+100)])
			}
		}
		// The masks are what is kept: the requests, the echo, the error, the
		// body that was not JSON, the verifications.
		for _, want := range []string{
			`"aadhaar_number":"` + masked + `"`, `"print_id":"PRN1","aadhaar_number":"` + masked + `"`,
			"no card for " + masked, maskedPAN,
		} {
			if !strings.Contains(dump, want) {
				t.Errorf("database lacks %s", want)
			}
		}
		if !strings.Contains(adminCSV, masked) {
			t.Errorf("export lacks the mask: %s", adminCSV)
		}
		e.ledgerClean()
	})
}

// A service with a sensitive parameter stores no parameter it does not
// document, and matches a sensitive name whatever its case, separators or
// width: no spelling of the name keeps the number in full anywhere.
func TestMisspeltSensitiveNamesAreNeverStoredInFull(t *testing.T) {
	const aadhaar = "234567890124"
	const masked = "XXXXXXXX0124"
	hostile := []string{"Aadhaar_Number", "aadhaar-number", "AADHAAR NUMBER", "AadhaarNumber", "aadhaar.number",
		"ａａｄｈａａｒ＿ｎｕｍｂｅｒ", "aadhaar", "uid", "aadhar_no", aadhaar}
	each(t, func(t *testing.T, e *env) {
		for _, method := range []string{"POST", "GET"} {
			slug := "aadhaar-print-" + strings.ToLower(method)
			id := e.newService(slug, "1.00")
			e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", id), e.admin, map[string]any{"method": method}), 200)
			e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/services/%d/docs", id), e.admin, map[string]any{
				"endpoint": "/api/v1/" + slug, "method": method, "description": "Print an Aadhaar card",
				"request_params": map[string]any{
					"aadhaar_number": map[string]any{"type": "string", "required": true, "sensitive": true},
					"name":           map[string]any{"type": "string"},
				},
				"response_example": map[string]any{"success": true}, "error_codes": map[string]string{"422": "Invalid parameters"},
			}), 200)
		}
		c := e.newCustomer("user", "enterprise", "10.00")
		for _, name := range hostile {
			value := aadhaar
			if name == aadhaar {
				value = "x"
			}
			// Alone (aadhaar_number missing), and beside a valid call's parameters.
			e.must(e.call(c, "aadhaar-print-post", map[string]any{name: value}), 422)
			e.must(e.call(c, "aadhaar-print-post", map[string]any{"aadhaar_number": "123412341234", "name": "Asha", name: value}), 422)
			q := url.Values{name: {value}, "name": {"Asha"}}
			e.must(e.do("GET", "/api/v1/aadhaar-print-get?"+q.Encode(), "", nil, "X-API-Key", c.key, "X-API-Secret", c.secret), 422)
		}

		var shown strings.Builder
		for _, path := range []string{"/api/v1/panel/hit-logs?per_page=100", "/api/v1/panel/hit-logs?format=csv"} {
			shown.WriteString(e.must(e.do("GET", path, c.token, nil), 200).raw)
			shown.WriteString(e.must(e.do("GET", path, e.admin, nil), 200).raw)
		}
		dump := dumpDatabase(t, e.store)
		for where, text := range map[string]string{"database": dump, "panel and exports": shown.String(), "logs": e.logs.String()} {
			if i := strings.Index(text, aadhaar); i >= 0 {
				t.Errorf("%s holds the full number: …%s…", where, text[max(0, i-300):min(len(text), i+100)])
			}
		}
		// The sensitive spellings are kept masked (the operator sees the
		// typo), the other names not at all.
		for _, want := range []string{`"Aadhaar_Number":"` + masked + `"`, `"aadhaar-number":"` + masked + `"`,
			`"AADHAAR NUMBER":"` + masked + `"`, `"name":"Asha"`} {
			if !strings.Contains(dump, want) {
				t.Errorf("database lacks %s", want)
			}
		}
		for _, line := range strings.Split(dump, "\n") {
			if strings.HasPrefix(line, "hit_") && (strings.Contains(line, `"uid":"`) || strings.Contains(line, `"aadhaar":"`) ||
				strings.Contains(line, `"aadhar_no":"`)) {
				t.Errorf("an undocumented parameter was stored: %s", line)
			}
		}
		if n := strings.Count(shown.String(), masked); n == 0 {
			t.Error("the CSV and list show no mask")
		}
	})
}
