package metrics_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/metrics"
)

func exposition(r *metrics.Registry) string {
	var b bytes.Buffer
	r.WritePrometheus(&b)
	return b.String()
}

// Beyond MaxServices distinct slugs, upstream calls share the "other" label.
func TestUpstreamServicesAreBounded(t *testing.T) {
	r := metrics.New()
	for i := range metrics.MaxServices + 50 {
		r.UpstreamDone(fmt.Sprintf("svc-%d", i), time.Millisecond, true)
	}
	r.UpstreamDone("svc-0", time.Millisecond, false) // a known service keeps its label
	text := exposition(r)
	if n := strings.Count(text, "paygate_upstream_duration_seconds_count{"); n != metrics.MaxServices+2 {
		t.Fatalf("%d upstream series, want %d", n, metrics.MaxServices+2)
	}
	if !strings.Contains(text, `paygate_upstream_duration_seconds_count{outcome="ok",service="other"} 50`) {
		t.Fatal("the calls beyond the bound are not counted as other")
	}
	if !strings.Contains(text, `paygate_upstream_duration_seconds_count{outcome="error",service="svc-0"} 1`) {
		t.Fatal("a known service lost its label")
	}
	if strings.Contains(text, fmt.Sprintf(`service="svc-%d"`, metrics.MaxServices)) {
		t.Fatal("a slug beyond the bound became a label")
	}
}

func TestLabelValuesAreEscaped(t *testing.T) {
	r := metrics.New()
	r.ObserveRequest("GET", "/a\"b\\c\nd", 200, time.Millisecond)
	if !strings.Contains(exposition(r), `route="/a\"b\\c\nd"`) {
		t.Fatalf("not escaped:\n%s", exposition(r))
	}
}

func TestReservationsGauge(t *testing.T) {
	r := metrics.New()
	r.ReservationStarted()
	r.ReservationStarted()
	r.ReservationSettled()
	if !strings.Contains(exposition(r), "\npaygate_reservations_in_flight 1\n") || r.InFlight() != 1 {
		t.Fatalf("gauge:\n%s", exposition(r))
	}
}

// The hot path allocates nothing once a series exists.
func TestRecordingDoesNotAllocate(t *testing.T) {
	r := metrics.New()
	r.ObserveRequest("POST", "/api/v1/:slug", 200, time.Millisecond)
	r.UpstreamDone("sms", time.Millisecond, true)
	allocs := testing.AllocsPerRun(1000, func() {
		r.ObserveRequest("POST", "/api/v1/:slug", 200, time.Millisecond)
		r.UpstreamDone("sms", time.Millisecond, true)
		r.ReservationStarted()
		r.ReservationSettled()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per call", allocs)
	}
}

func BenchmarkObserveRequest(b *testing.B) {
	r := metrics.New()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r.ObserveRequest("POST", "/api/v1/:slug", 200, time.Millisecond)
		}
	})
}

// Metered calls count by service and outcome; the money charged adds up
// exactly for amounts a float holds.
func TestCallsMeteredAndMoneyCharged(t *testing.T) {
	r := metrics.New()
	r.CallMetered("sms", "charged", decimal.RequireFromString("0.5000"))
	r.CallMetered("sms", "charged", decimal.RequireFromString("0.2500"))
	r.CallMetered("sms", "insufficient_balance", decimal.Zero)
	text := exposition(r)
	for _, want := range []string{
		`paygate_metered_calls_total{outcome="charged",service="sms"} 2`,
		`paygate_metered_calls_total{outcome="insufficient_balance",service="sms"} 1`,
		`paygate_charged_inr_total{service="sms"} 0.75`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Fatalf("no %q in:\n%s", want, text)
		}
	}
}

// Payments, refunds and account openings count by end state, every state
// exported at 0 from the start; open or unknown states are not counted.
func TestBusinessStatesCounted(t *testing.T) {
	r := metrics.New()
	text := exposition(r)
	for _, want := range []string{
		`paygate_payments_total{state="success"} 0`, `paygate_payments_total{state="failed"} 0`,
		`paygate_payments_total{state="expired"} 0`, `paygate_refunds_total{state="processed"} 0`,
		`paygate_refunds_total{state="failed"} 0`, `paygate_account_openings_total{state="opened"} 0`,
		`paygate_account_openings_total{state="rejected"} 0`,
		"# HELP paygate_payments_total ", "# HELP paygate_refunds_total ", "# HELP paygate_account_openings_total ",
	} {
		if !strings.Contains(text, want) {
			t.Fatalf("no %q in:\n%s", want, text)
		}
	}
	r.PaymentEnded("success")
	r.PaymentEnded("success")
	r.PaymentEnded("expired")
	r.PaymentEnded("pending") // not an end state: ignored
	r.RefundEnded("processed")
	r.RefundEnded("failed")
	r.OpeningEnded("rejected")
	r.SubscriptionsBilled("renewed", 3)
	r.SubscriptionsBilled("past_due", 1)
	r.SubscriptionsBilled("nonsense", 1) // not an outcome: ignored
	r.DocumentIssued("invoice")
	r.DocumentIssued("credit_note")
	r.DocumentIssued("credit_note")
	text = exposition(r)
	for _, want := range []string{
		`paygate_payments_total{state="success"} 2`, `paygate_payments_total{state="expired"} 1`,
		`paygate_payments_total{state="failed"} 0`, `paygate_refunds_total{state="processed"} 1`,
		`paygate_refunds_total{state="failed"} 1`, `paygate_account_openings_total{state="rejected"} 1`,
		`paygate_account_openings_total{state="opened"} 0`,
		`paygate_subscription_fees_total{outcome="renewed"} 3`, `paygate_subscription_fees_total{outcome="past_due"} 1`,
		`paygate_subscription_fees_total{outcome="downgraded"} 0`, `paygate_tax_documents_issued_total{kind="invoice"} 1`,
		`paygate_tax_documents_issued_total{kind="credit_note"} 2`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Fatalf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, `state="pending"}`) && strings.Contains(text, `paygate_payments_total{state="pending"}`) {
		t.Fatalf("an open state was counted:\n%s", text)
	}
}
