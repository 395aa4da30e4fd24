package httpapi_test

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"paygate/internal/testdb"
)

// The Grafana dashboard (deploy/grafana/paygate.json) may only ask for
// metric families this server exports: every name in every PromQL
// expression is checked against a real /metrics scrape.

// promQLWords are PromQL's functions, aggregations and keywords the
// dashboard may use; any other bare name is a metric.
var promQLWords = map[string]bool{
	"sum": true, "min": true, "max": true, "avg": true, "count": true, "topk": true, "bottomk": true, "quantile": true,
	"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
	"and": true, "or": true, "unless": true, "bool": true, "offset": true,
	"rate": true, "irate": true, "increase": true, "delta": true, "deriv": true, "histogram_quantile": true,
	"clamp_min": true, "clamp_max": true, "abs": true, "sum_over_time": true, "max_over_time": true, "avg_over_time": true,
	"e": true, // 1e-9
}

var (
	promQLStrings   = regexp.MustCompile(`"[^"]*"`)
	promQLMatchers  = regexp.MustCompile(`\{[^}]*\}`)
	promQLRanges    = regexp.MustCompile(`\[[^\]]*\]`)
	promQLGrouping  = regexp.MustCompile(`\b(by|without|on|ignoring)\s*\([^)]*\)`)
	promQLNames     = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	exposedFamilies = regexp.MustCompile(`(?m)^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\w+)$`)
)

// metricNames are the metric names expr selects.
func metricNames(expr string) []string {
	expr = promQLStrings.ReplaceAllString(expr, `""`)
	expr = promQLMatchers.ReplaceAllString(expr, " ")
	expr = promQLRanges.ReplaceAllString(expr, " ")
	expr = promQLGrouping.ReplaceAllString(expr, " ")
	var out []string
	for _, n := range promQLNames.FindAllString(expr, -1) {
		if !promQLWords[n] {
			out = append(out, n)
		}
	}
	return out
}

// dashboardExprs walks the dashboard JSON for every "expr".
func dashboardExprs(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "expr" {
				*out = append(*out, s)
			} else {
				dashboardExprs(x, out)
			}
		}
	case []any:
		for _, x := range v {
			dashboardExprs(x, out)
		}
	}
}

func TestDashboardNamesOnlyExportedMetrics(t *testing.T) {
	raw, err := os.ReadFile("../../deploy/grafana/paygate.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash map[string]any
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatalf("deploy/grafana/paygate.json is not JSON: %v", err)
	}
	var exprs []string
	dashboardExprs(dash, &exprs)
	if len(exprs) < 10 {
		t.Fatalf("only %d expressions in the dashboard", len(exprs))
	}
	// The datasource is a variable: the dashboard imports into any Grafana.
	if !strings.Contains(string(raw), `"uid": "${datasource}"`) {
		t.Error("panels do not use the ${datasource} variable")
	}

	// A real server's families, after traffic that makes every labelled
	// family show (a metered call reaches the upstream).
	e := newEnv(t, testdb.OpenSQLite(t))
	c := e.newCustomer("user", "starter", "100.00")
	e.newService("dash-sms", "0.5000")
	e.must(e.call(c, "dash-sms", map[string]any{"to": "x"}), 200)
	exported := map[string]bool{}
	for _, m := range exposedFamilies.FindAllStringSubmatch(e.settledScrape(), -1) {
		exported[m[1]] = true
		if m[2] == "histogram" || m[2] == "summary" {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				exported[m[1]+suffix] = true
			}
		}
	}
	used := map[string]bool{}
	for _, expr := range exprs {
		names := metricNames(expr)
		if len(names) == 0 {
			t.Errorf("expression names no metric: %s", expr)
		}
		for _, n := range names {
			used[n] = true
			if !exported[n] {
				t.Errorf("the dashboard asks for %s, which /metrics does not export (in %s)", n, expr)
			}
		}
	}
	// The business families are on the dashboard.
	for _, want := range []string{"paygate_http_requests_total", "paygate_http_request_duration_seconds_bucket",
		"paygate_upstream_duration_seconds_bucket", "paygate_charged_inr_total", "paygate_payments_total",
		"paygate_payouts_total", "paygate_refunds_total", "paygate_webhook_deliveries_total", "paygate_outbox_backlog",
		"paygate_db_connections_in_use"} {
		if !used[want] {
			t.Errorf("the dashboard does not show %s", want)
		}
	}
}

// The check can fail: a misspelt family is a name it reports.
func TestDashboardCheckFindsNames(t *testing.T) {
	got := metricNames(`histogram_quantile(0.95, sum by (le, route) (rate(paygate_http_request_duration_secs_bucket{status=~"5..", route!="x"}[$__rate_interval]))) / clamp_min(up, 1e-9)`)
	if strings.Join(got, ",") != "paygate_http_request_duration_secs_bucket,up" {
		t.Fatalf("names %v", got)
	}
}
