package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/core/catalog"
)

// sampleRunners run a sample file; a language whose tool is missing is
// skipped, except curl, Python and Node, which the samples test requires.
var sampleRunners = []struct {
	lang, file string
	cmd        []string
	required   bool
}{
	{catalog.SampleCurl, "call.sh", []string{"sh"}, true},
	{catalog.SamplePython, "call.py", []string{"python3"}, true},
	{catalog.SampleNode, "call.js", []string{"node"}, true},
	{catalog.SamplePHP, "call.php", []string{"php"}, false},
	{catalog.SampleGo, "call.go", []string{"go", "run"}, false},
}

// succeeded: the envelope's "success": true as curl (JSON), Python (a
// dict) and Node.js (an object) print it.
var succeeded = regexp.MustCompile(`['"]?success['"]?:\s*(true|True)\b`)

// TestServiceSamplesRunAndBill gets the samples of a POST and a GET service
// from GET /services/{id}/samples, runs the curl, Python (requests) and
// Node.js (fetch) ones, and the Go one (PHP too when php is installed), against the running
// server with a real key and secret in place of the placeholders, and
// checks each call reached the upstream with its parameters and was billed.
func TestServiceSamplesRunAndBill(t *testing.T) {
	for _, tool := range []string{"sh", "curl", "python3", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to run the samples: %v", tool, err)
		}
	}
	if out, err := exec.Command("python3", "-c", "import requests").CombinedOutput(); err != nil {
		t.Fatalf("the Python sample needs requests (pip install requests): %v\n%s", err, out)
	}
	each(t, func(t *testing.T, e *env) {
		var mu sync.Mutex
		var got []string // what the upstream received: method and query or body
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			got = append(got, r.Method+" "+r.URL.RawQuery+string(body))
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"ok":true}`)
		})

		post := e.newService("sample-sms", "0.50")
		e.must(e.do("PUT", fmt.Sprintf("/api/v1/panel/services/%d/docs", post), e.admin, map[string]any{
			"endpoint": "/api/v1/sample-sms", "method": "POST", "description": "Send an SMS",
			"request_params": map[string]any{
				"mobile":   map[string]any{"type": "string", "required": true, "pattern": "^[0-9]{10}$"},
				"message":  map[string]any{"type": "string", "required": true, "max_length": 160},
				"priority": map[string]any{"type": "integer", "required": true},
				"channel":  map[string]any{"type": "string", "required": true, "pattern": "^(sms|flash)$"},
				"note":     map[string]any{"type": "string", "required": false},
			},
			"response_example": map[string]any{"ok": true}, "error_codes": map[string]any{},
		}), 200)
		g := e.must(e.do("POST", "/api/v1/panel/services", e.admin, map[string]any{
			"name": "Weather", "slug": "sample-weather", "category": "test", "provider_url": e.upstream.URL + "/weather",
			"method": "GET", "parameters": map[string]string{"city": "string", "days": "integer"},
		}), 201)
		get := g.num("id")
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/services/%d/pricing", get), e.admin, map[string]any{
			"admin_cost": "0.1000", "user_price": "0.25", "reseller_price": "0.25", "minimum_hit_charge": "0.00",
		}), 201)

		c := e.newCustomer("user", "enterprise", "100.00")
		dir := t.TempDir()
		ran := 0
		for _, svc := range []struct {
			id             uint64
			slug, wantCall string
		}{
			{post, "sample-sms", `POST {"channel":"sms","message":"Hello from Paygate","mobile":"9876543210","priority":1}`},
			{get, "sample-weather", "GET city=example&days=1"},
		} {
			r := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/samples", svc.id), c.token, nil), 200)
			for _, lang := range catalog.SampleLanguages {
				code := r.str(lang)
				// The server's public address (PUBLIC_BASE_URL, the harness's default) and the service's endpoint.
				if !strings.Contains(code, "http://localhost:8080/api/v1/"+svc.slug) {
					t.Errorf("%s sample of %s does not call http://localhost:8080/api/v1/%s:\n%s", lang, svc.slug, svc.slug, code)
				}
				if !strings.Contains(code, catalog.SampleSecretPlaceholder) || strings.Contains(code, c.secret) {
					t.Errorf("%s sample of %s: the secret must be the placeholder:\n%s", lang, svc.slug, code)
				}
			}
			for _, run := range sampleRunners {
				if _, err := exec.LookPath(run.cmd[0]); err != nil {
					if run.required {
						t.Fatal(err)
					}
					t.Logf("%s not installed: the %s sample is not run", run.cmd[0], run.lang)
					continue
				}
				code := strings.NewReplacer("http://localhost:8080", e.url,
					catalog.SampleKeyPlaceholder, c.key, catalog.SampleSecretPlaceholder, c.secret).Replace(r.str(run.lang))
				file := filepath.Join(dir, svc.slug+"-"+run.file)
				if err := os.WriteFile(file, []byte(code), 0o600); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(run.cmd[0], append(run.cmd[1:], file)...)
				cmd.Env = append(os.Environ(), "NO_PROXY=*", "no_proxy=*", "GOWORK=off", "GOFLAGS=-buildvcs=false")
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				if err != nil || !succeeded.Match(out) {
					t.Fatalf("%s sample of %s: %v\n%s\n--- sample:\n%s", run.lang, svc.slug, err, out, code)
				}
				ran++
				mu.Lock()
				last := got[len(got)-1]
				mu.Unlock()
				if compact(last) != svc.wantCall {
					t.Errorf("%s sample of %s sent %q upstream, want %q", run.lang, svc.slug, last, svc.wantCall)
				}
			}
		}

		// Every run was one billed call: a success hit each, and its
		// price (0.50 for the POST service, 0.25 for the GET one) debited.
		if hits := e.hitStatuses(c); hits["success"] != ran || len(hits) != 1 {
			t.Errorf("hit logs %v, want %d successes", hits, ran)
		}
		want := decimal.NewFromInt(100).Sub(decimal.RequireFromString("0.75").Mul(decimal.NewFromInt(int64(ran / 2)))).StringFixed(2)
		if bal := e.balance(c); bal != want {
			t.Errorf("balance %s after %d billed calls, want %s", bal, ran, want)
		}
		e.ledgerClean()
	})
}

// compact is an upstream request with its JSON body compacted.
func compact(s string) string {
	method, rest, _ := strings.Cut(s, " ")
	if strings.HasPrefix(rest, "{") {
		var v any
		if json.Unmarshal([]byte(rest), &v) == nil {
			b, _ := json.Marshal(v)
			rest = string(b)
		}
	}
	return method + " " + rest
}

// TestGatewayServiceSamples: a built-in gateway service's samples call its
// gateway path with the secret as Bearer token, and a user sees no samples
// of an inactive service.
func TestGatewayServiceSamples(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		list := e.must(e.do("GET", "/api/v1/panel/services?q=payment&per_page=100", c.token, nil), 200)
		var id uint64
		for _, s := range list.body["data"].([]any) {
			if m := s.(map[string]any); m["slug"] == "payment-create" {
				id = uint64(m["id"].(float64))
			}
		}
		if id == 0 {
			t.Fatalf("no payment-create service: %s", list.raw)
		}
		r := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/samples", id), c.token, nil), 200)
		if code := r.str("curl"); !strings.Contains(code, "curl -sS -X POST 'http://localhost:8080/api/v1/payment/create'") ||
			!strings.Contains(code, "Authorization: Bearer YOUR_API_SECRET") || strings.Contains(code, "X-API-Key") ||
			!strings.Contains(code, `"amount": "100.00"`) || !strings.Contains(code, `"currency": "INR"`) {
			t.Errorf("payment-create curl sample:\n%s", code)
		}
		e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", id), e.admin, map[string]any{"status": "inactive"}), 200)
		e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/services/%d/samples", id), c.token, nil), 404)
	})
}
