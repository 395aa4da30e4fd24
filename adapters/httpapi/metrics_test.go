package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// scrape reads GET /metrics with the operators' token.
func (e *env) scrape() string {
	e.t.Helper()
	r := e.must(e.do("GET", "/metrics", metricsToken, nil), 200)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		e.t.Fatalf("Content-Type %q", ct)
	}
	return r.raw
}

// sample is the value of the series named exactly series (name and labels
// as exposed), and whether it is there.
func sample(text, series string) (float64, bool) {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f, err == nil
		}
	}
	return 0, false
}

// settledScrape scrapes /metrics once no reservation is in flight (at most
// 5 s): successful calls settle right after their answer.
func (e *env) settledScrape() string {
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		text := e.scrape()
		if v, _ := sample(text, "paygate_reservations_in_flight"); v == 0 || time.Now().After(deadline) {
			return text
		}
	}
}

func wantSample(t *testing.T, text, series string, want float64) {
	t.Helper()
	got, ok := sample(text, series)
	if !ok {
		t.Fatalf("no series %s in:\n%s", series, text)
	}
	if got != want {
		t.Fatalf("%s = %v, want %v", series, got, want)
	}
}

func TestMetricsEndpointNeedsTheToken(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.must(e.do("GET", "/metrics", "", nil), 401)
		r := e.must(e.do("GET", "/metrics", "not-the-token", nil), 401)
		if r.str("error") != "unauthenticated" || !strings.Contains(r.header.Get("WWW-Authenticate"), "Bearer") {
			t.Fatalf("401 body %s, WWW-Authenticate %q", r.raw, r.header.Get("WWW-Authenticate"))
		}
		// The panel's admin token is not the metrics token.
		e.must(e.do("GET", "/metrics", e.admin, nil), 401)
		e.scrape()
	})
}

// TestMetricsAfterCalls: real calls through the server show up by route
// pattern and status, upstream latency by service and outcome, and the
// reservations gauge is back to 0 once the calls have settled.
func TestMetricsAfterCalls(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("sms", "0.5000")
		c := e.newCustomer("user", "enterprise", "100.00")
		for range 3 {
			e.must(e.call(c, "sms", map[string]any{"phone": "9876543210"}), 200)
		}
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
		e.must(e.call(c, "sms", map[string]any{"phone": "9876543210"}), 500)
		e.must(e.call(c, "sms", "[not an object"), 422)

		text := e.settledScrape()
		call := `paygate_http_requests_total{method="POST",route="/api/v1/:slug",status="%d"}`
		wantSample(t, text, fmt.Sprintf(call, 200), 3)
		wantSample(t, text, fmt.Sprintf(call, 500), 1)
		wantSample(t, text, fmt.Sprintf(call, 422), 1)
		wantSample(t, text, `paygate_http_request_duration_seconds_count{method="POST",route="/api/v1/:slug",status="200"}`, 3)
		wantSample(t, text, `paygate_http_requests_total{method="POST",route="/api/v1/panel/services",status="201"}`, 1)
		wantSample(t, text, `paygate_upstream_duration_seconds_count{outcome="ok",service="sms"}`, 3)
		wantSample(t, text, `paygate_upstream_duration_seconds_count{outcome="error",service="sms"}`, 1)
		if sum, ok := sample(text, `paygate_upstream_duration_seconds_sum{outcome="ok",service="sms"}`); !ok || sum <= 0 {
			t.Fatalf("upstream latency sum %v (%v)", sum, ok)
		}
		wantSample(t, text, `paygate_upstream_duration_seconds_bucket{outcome="ok",service="sms",le="+Inf"}`, 3)
		wantSample(t, text, "paygate_reservations_in_flight", 0)
		wantSample(t, text, "paygate_outbox_backlog", 0)
		if open, ok := sample(text, "paygate_db_connections_open"); !ok || open < 1 {
			t.Fatalf("db pool: open connections %v (%v)", open, ok)
		}
		for _, s := range []string{"# TYPE paygate_http_request_duration_seconds histogram", "# TYPE paygate_reservations_in_flight gauge", "go_goroutines "} {
			if !strings.Contains(text, s) {
				t.Fatalf("no %q in:\n%s", s, text)
			}
		}
		e.ledgerClean()
	})
}

// TestMetricsReservationsInFlight: a call waiting on its upstream holds a
// committed reservation and the gauge counts it; settled, it is gone.
func TestMetricsReservationsInFlight(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("slow", "1.0000")
		c := e.newCustomer("user", "enterprise", "100.00")
		release := make(chan struct{})
		var arrived sync.WaitGroup
		arrived.Add(2)
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) {
			arrived.Done()
			<-release
			io.WriteString(w, `{"ok":true}`)
		})
		var done sync.WaitGroup
		for range 2 {
			done.Add(1)
			go func() {
				defer done.Done()
				if r := e.call(c, "slow", map[string]any{}); r.status != 200 {
					t.Errorf("call: %d %s", r.status, r.raw)
				}
			}()
		}
		arrived.Wait() // both reservations committed, both calls at the upstream
		wantSample(t, e.scrape(), "paygate_reservations_in_flight", 2)
		close(release)
		done.Wait()
		wantSample(t, e.settledScrape(), "paygate_reservations_in_flight", 0)
		wantSample(t, e.scrape(), `paygate_upstream_duration_seconds_count{outcome="ok",service="slow"}`, 2)
	})
}

// TestMetricsCardinalityOfUnknownPaths: unknown slugs, unmatched paths and
// odd methods never become labels.
func TestMetricsCardinalityOfUnknownPaths(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "enterprise", "10.00")
		for i := range 25 {
			e.must(e.call(c, fmt.Sprintf("no-such-service-%d", i), map[string]any{}), 404)
			e.must(e.doUnknown("GET", fmt.Sprintf("/no/such/path-%d", i), "", nil), 404)
		}
		e.doUnknown("BREW", "/api/v1/no-such-service-x", "", nil)
		text := e.scrape()
		if strings.Contains(text, "no-such") || strings.Contains(text, "path-") || strings.Contains(text, "BREW") {
			t.Fatalf("a raw path or method became a label:\n%s", text)
		}
		wantSample(t, text, `paygate_http_requests_total{method="POST",route="/api/v1/:slug",status="404"}`, 25)
		wantSample(t, text, `paygate_http_requests_total{method="GET",route="unmatched",status="404"}`, 25)
		if _, ok := sample(text, `paygate_upstream_duration_seconds_count{outcome="error",service="no-such-service-0"}`); ok {
			t.Fatal("an unknown service has upstream series")
		}
	})
}

// TestMetricsPassPromtool: /metrics of a server that served calls passes
// `promtool check metrics` (help texts, naming conventions). promtool comes
// from scripts/ensure-promtool.sh; missing, it fails under CI=true.
func TestMetricsPassPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("promtool not found (CI=true): run scripts/ensure-promtool.sh")
		}
		t.Skip("promtool not found: scripts/ensure-promtool.sh installs it")
	}
	each(t, func(t *testing.T, e *env) {
		e.newService("sms", "0.5000")
		c := e.newCustomer("user", "enterprise", "100.00")
		e.must(e.call(c, "sms", map[string]any{"phone": "9876543210"}), 200)
		e.must(e.call(c, "sms", "[not an object"), 422)
		text := e.settledScrape()
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = strings.NewReader(text)
		if out, err := cmd.CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Fatalf("promtool check metrics: %v\n%s", err, out)
		}
		for _, family := range []string{"paygate_http_requests_total", "paygate_upstream_duration_seconds", "paygate_db_connections_open"} {
			if !strings.Contains(text, "# HELP "+family+" ") {
				t.Errorf("no help text for %s", family)
			}
		}
	})
}

// TestMetricsMeteredCallsAndMoneyCharged: calls through the real server
// count by service and outcome (charged, or the error code answered) and
// add up the money charged; calls refused before authentication do not count.
func TestMetricsMeteredCallsAndMoneyCharged(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		e.newService("sms", "0.5000")
		c := e.newCustomer("user", "enterprise", "1.20")
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
		e.must(e.call(c, "sms", map[string]any{"phone": "9876543210"}), 500)
		e.setUpstream(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"ok":true}`) })
		for range 2 {
			e.must(e.call(c, "sms", map[string]any{"phone": "9876543210"}), 200)
		}
		e.must(e.call(c, "sms", map[string]any{"phone": "9876543210"}), 402)
		e.must(e.call(customer{key: c.key, secret: "wrong"}, "sms", map[string]any{}), 401)
		// A gateway operation counts under its slug; a replay is not billed again.
		rich := e.newCustomer("user", "enterprise", "100.00")
		pay := map[string]any{"amount": "499.50", "currency": "INR", "customer_id": "cust-1", "callback_url": "https://shop.example/cb"}
		e.must(e.gw(rich, "POST", "/api/v1/payment/create", pay, "Idempotency-Key", "order-1"), 201)
		e.must(e.gw(rich, "POST", "/api/v1/payment/create", pay, "Idempotency-Key", "order-1"), 201)

		text := e.settledScrape()
		wantSample(t, text, `paygate_metered_calls_total{outcome="charged",service="sms"}`, 2)
		wantSample(t, text, `paygate_metered_calls_total{outcome="upstream_error",service="sms"}`, 1)
		wantSample(t, text, `paygate_metered_calls_total{outcome="insufficient_balance",service="sms"}`, 1)
		wantSample(t, text, `paygate_charged_inr_total{service="sms"}`, 1)
		wantSample(t, text, `paygate_metered_calls_total{outcome="charged",service="payment-create"}`, 1)
		if strings.Contains(text, `outcome="invalid_credentials"`) || strings.Contains(text, `outcome="unauthenticated"`) {
			t.Fatalf("a call refused before authentication was counted:\n%s", text)
		}
		e.ledgerClean()
	})
}
