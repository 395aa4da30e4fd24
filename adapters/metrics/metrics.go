// Package metrics exports the service's operational measurements in the
// Prometheus text format, on github.com/prometheus/client_golang: every
// family has its help text, which `promtool check metrics` requires
// (docs/decisions.md, "Metrics").
//
// Series are created once per label set and kept in maps read under a
// read lock, so recording a request or an upstream call costs a map lookup
// and a few atomic adds: no allocation once a series exists. Labels are
// bounded: route is the matched pattern or "unmatched", method a standard
// one or "OTHER", upstream series exist only for found services, and past
// 1,000 slugs a slug is "other". The outbox backlog is counted every 10 s
// by each instance's worker; the pool and runtime figures at scrape.
// GET /metrics needs Authorization: Bearer <METRICS_TOKEN>, compared in
// constant time, and is 404 when the token is unset.
//
// Business counters: metered calls by service and outcome, and rupees
// charged by service, counted where a metered call (a service or a gateway
// operation) answers, past authentication: "charged" with its amount, else
// the error's code (an idempotent replay is not billed again, so not
// counted); money is a float here only, for operators' totals. A webhook
// delivery counts once, when it reaches delivered or failed (a retried
// attempt is not an outcome). A payout counts once per state it enters,
// after the transaction that moved it committed (pending with the call's
// reservation; a replay is not counted).
package metrics

import (
	"database/sql"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"
	"github.com/shopspring/decimal"

	"paygate/core/app"
)

// OtherService labels the upstream calls of services beyond MaxServices
// distinct slugs, so the series count stays bounded whatever the catalog does.
const OtherService = "other"

// MaxServices bounds the distinct service labels of upstream series.
const MaxServices = 1000

// latencyBuckets (seconds) span a cached panel read to the 15 s upstream timeout.
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 15, 30}

// Registry holds the series. Its zero value is not usable: call New.
type Registry struct {
	reg      *prometheus.Registry
	inFlight atomic.Int64
	backlog  atomic.Int64
	keep     atomic.Int64 // hit payload retention, seconds
	removed  prometheus.Counter
	held     prometheus.Counter

	requestCount    *prometheus.CounterVec
	requestDuration *prometheus.HistogramVec
	upstreamVec     *prometheus.HistogramVec
	callVec         *prometheus.CounterVec
	chargedVec      *prometheus.CounterVec
	webhooks        map[string]prometheus.Counter // by outcome, made in New: read without a lock
	payouts         map[string]prometheus.Counter // by state, made in New: read without a lock
	payments        map[string]prometheus.Counter // by end state, made in New: read without a lock
	refunds         map[string]prometheus.Counter // likewise
	openings        map[string]prometheus.Counter // likewise
	subscriptions   map[string]prometheus.Counter // by outcome, likewise
	documents       map[string]prometheus.Counter // by kind, likewise

	mu       sync.RWMutex
	requests map[requestKey]*requestSeries
	upstream map[upstreamKey]prometheus.Observer
	calls    map[callKey]prometheus.Counter
	charged  map[string]prometheus.Counter
	services map[string]struct{}
}

type callKey struct{ service, outcome string }

type requestKey struct {
	method, route string
	status        int
}

type requestSeries struct {
	count    prometheus.Counter
	duration prometheus.Observer
}

type upstreamKey struct {
	service string
	ok      bool
}

var _ app.Metrics = (*Registry)(nil)

// New makes a registry with every family, the Go runtime's (go_*) and the
// process's (process_*).
func New() *Registry {
	r := &Registry{
		reg:      prometheus.NewRegistry(),
		requests: map[requestKey]*requestSeries{},
		upstream: map[upstreamKey]prometheus.Observer{},
		calls:    map[callKey]prometheus.Counter{},
		charged:  map[string]prometheus.Counter{},
		services: map[string]struct{}{},
	}
	r.requestCount = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "paygate_http_requests_total",
		Help: "HTTP requests answered, by method, route pattern (unmatched for unknown paths) and status.",
	}, []string{"method", "route", "status"})
	r.requestDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "paygate_http_request_duration_seconds",
		Help:    "Time to answer an HTTP request, by method, route pattern and status.",
		Buckets: latencyBuckets,
	}, []string{"method", "route", "status"})
	r.upstreamVec = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "paygate_upstream_duration_seconds",
		Help:    "Time of a provider call, by service slug (other past 1000 slugs) and outcome (ok, error).",
		Buckets: latencyBuckets,
	}, []string{"service", "outcome"})
	r.callVec = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "paygate_metered_calls_total",
		Help: "Metered calls (services and gateway operations) past authentication, by service slug and outcome: charged, or the error code answered.",
	}, []string{"service", "outcome"})
	r.chargedVec = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "paygate_charged_inr_total",
		Help: "Money charged for metered calls, in rupees, by service slug.",
	}, []string{"service"})
	webhookVec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "paygate_webhook_deliveries_total",
		Help: "Webhook deliveries that reached their final state on this instance, by outcome: delivered, or failed once their attempts ran out.",
	}, []string{"outcome"})
	r.webhooks = map[string]prometheus.Counter{}
	for _, outcome := range []string{"delivered", "failed"} {
		r.webhooks[outcome] = webhookVec.WithLabelValues(outcome)
	}
	r.reg.MustRegister(webhookVec)
	payoutVec := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "paygate_payouts_total",
		Help: "Payouts entering each state on this instance: pending when created, then processing, success, failed, reversed.",
	}, []string{"state"})
	r.payouts = map[string]prometheus.Counter{}
	for _, state := range []string{"pending", "processing", "success", "failed", "reversed"} {
		r.payouts[state] = payoutVec.WithLabelValues(state)
	}
	r.reg.MustRegister(payoutVec)
	r.payments = r.stateCounters("paygate_payments_total",
		"Payments reaching their end state on this instance, by state: success, failed, expired.",
		"success", "failed", "expired")
	r.refunds = r.stateCounters("paygate_refunds_total",
		"Refunds reaching their end state on this instance, by state: processed, or failed (the merchant's debit given back).",
		"processed", "failed")
	r.openings = r.stateCounters("paygate_account_openings_total",
		"Digital account openings reaching their end state on this instance, by state: opened, rejected.",
		"opened", "rejected")
	r.subscriptions = r.labelCounters("paygate_subscription_fees_total", "outcome",
		"Subscription fees billed on this instance, by outcome: renewed (charged when due), past_due (the balance was short), paid (a past-due fee paid later), downgraded (the grace ended unpaid).",
		"renewed", "past_due", "paid", "downgraded")
	r.documents = r.labelCounters("paygate_tax_documents_issued_total", "kind",
		"Tax documents issued on this instance, by kind: invoice, credit_note.",
		"invoice", "credit_note")
	r.removed = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "paygate_hit_payloads_removed_total",
		Help: "Hit log payloads removed by this instance's retention worker (HIT_PAYLOAD_RETENTION).",
	})
	r.held = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "paygate_collections_held_total",
		Help: "Confirmed collections held because the beneficiary's balance could not hold the credit (each hold and each failed retry).",
	})
	r.reg.MustRegister(r.requestCount, r.requestDuration, r.upstreamVec, r.callVec, r.chargedVec, r.removed, r.held,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "paygate_reservations_in_flight",
			Help: "Metered calls on this instance whose charge is reserved or held but not yet settled or written.",
		}, func() float64 { return float64(r.inFlight.Load()) }),
		// Counted by the webhook delivery worker every few seconds, not per
		// scrape: a scrape never queries the database.
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "paygate_outbox_backlog",
			Help: "Webhook deliveries not yet delivered nor failed, counted every 10 s by this instance's worker.",
		}, func() float64 { return float64(r.backlog.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "paygate_hit_payload_retention_seconds",
			Help: "How long hit log payloads are kept (HIT_PAYLOAD_RETENTION).",
		}, func() float64 { return float64(r.keep.Load()) }),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return r
}

// ObserveRequest records one HTTP request. route must be a bounded label
// (the route pattern, never the raw path); the HTTP edge guarantees it.
func (r *Registry) ObserveRequest(method, route string, status int, d time.Duration) {
	k := requestKey{method: method, route: route, status: status}
	r.mu.RLock()
	s := r.requests[k]
	r.mu.RUnlock()
	if s == nil {
		s = r.newRequestSeries(k)
	}
	s.count.Inc()
	s.duration.Observe(d.Seconds())
}

func (r *Registry) newRequestSeries(k requestKey) *requestSeries {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.requests[k]; s != nil {
		return s
	}
	status := strconv.Itoa(k.status)
	s := &requestSeries{
		count:    r.requestCount.WithLabelValues(k.method, k.route, status),
		duration: r.requestDuration.WithLabelValues(k.method, k.route, status),
	}
	r.requests[k] = s
	return s
}

// UpstreamDone records one provider call (app.Metrics).
func (r *Registry) UpstreamDone(service string, d time.Duration, ok bool) {
	k := upstreamKey{service: service, ok: ok}
	r.mu.RLock()
	h := r.upstream[k]
	r.mu.RUnlock()
	if h == nil {
		h = r.newUpstreamSeries(k)
	}
	h.Observe(d.Seconds())
}

func (r *Registry) newUpstreamSeries(k upstreamKey) prometheus.Observer {
	r.mu.Lock()
	defer r.mu.Unlock()
	k.service = r.boundService(k.service)
	if h := r.upstream[k]; h != nil {
		return h
	}
	outcome := "error"
	if k.ok {
		outcome = "ok"
	}
	h := r.upstreamVec.WithLabelValues(k.service, outcome)
	r.upstream[k] = h
	return h
}

// CallMetered counts a metered call and the money it was charged
// (app.Metrics); services share the upstream series' bound.
func (r *Registry) CallMetered(service, outcome string, charged decimal.Decimal) {
	k := callKey{service: service, outcome: outcome}
	r.mu.RLock()
	c, m := r.calls[k], r.charged[service]
	r.mu.RUnlock()
	if c == nil || m == nil {
		c, m = r.newCallSeries(k)
	}
	c.Inc()
	if charged.IsPositive() {
		m.Add(charged.InexactFloat64())
	}
}

func (r *Registry) newCallSeries(k callKey) (prometheus.Counter, prometheus.Counter) {
	r.mu.Lock()
	defer r.mu.Unlock()
	k.service = r.boundService(k.service)
	c := r.calls[k]
	if c == nil {
		c = r.callVec.WithLabelValues(k.service, k.outcome)
		r.calls[k] = c
	}
	m := r.charged[k.service]
	if m == nil {
		m = r.chargedVec.WithLabelValues(k.service)
		r.charged[k.service] = m
	}
	return c, m
}

// boundService is service, or OtherService once MaxServices distinct
// slugs have labels. r.mu must be held for writing.
func (r *Registry) boundService(service string) string {
	if _, known := r.services[service]; known {
		return service
	}
	if len(r.services) >= MaxServices {
		return OtherService
	}
	r.services[service] = struct{}{}
	return service
}

// ReservationStarted and ReservationSettled move the in-flight gauge (app.Metrics).
func (r *Registry) ReservationStarted() { r.inFlight.Add(1) }
func (r *Registry) ReservationSettled() { r.inFlight.Add(-1) }

// OutboxBacklog sets the undelivered webhook deliveries (app.Metrics).
func (r *Registry) OutboxBacklog(n int64) { r.backlog.Store(n) }

// PayoutEntered counts a payout entering state (app.Metrics).
func (r *Registry) PayoutEntered(state string) {
	if c := r.payouts[state]; c != nil {
		c.Inc()
	}
}

// stateCounters registers a counter family labelled by state and makes its
// series, every state at 0 from the start.
func (r *Registry) stateCounters(name, help string, states ...string) map[string]prometheus.Counter {
	return r.labelCounters(name, "state", help, states...)
}

// labelCounters registers a counter family with one label and makes its
// series, every value at 0 from the start.
func (r *Registry) labelCounters(name, label, help string, values ...string) map[string]prometheus.Counter {
	vec := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{label})
	out := make(map[string]prometheus.Counter, len(values))
	for _, v := range values {
		out[v] = vec.WithLabelValues(v)
	}
	r.reg.MustRegister(vec)
	return out
}

// SubscriptionsBilled counts n subscription fees by outcome (app.Metrics).
func (r *Registry) SubscriptionsBilled(outcome string, n int) {
	if c := r.subscriptions[outcome]; c != nil && n > 0 {
		c.Add(float64(n))
	}
}

// DocumentIssued counts a tax document issued (app.Metrics).
func (r *Registry) DocumentIssued(kind string) {
	if c := r.documents[kind]; c != nil {
		c.Inc()
	}
}

// PaymentEnded counts a payment reaching its end state (app.Metrics).
func (r *Registry) PaymentEnded(state string) {
	if c := r.payments[state]; c != nil {
		c.Inc()
	}
}

// RefundEnded counts a refund reaching its end state (app.Metrics).
func (r *Registry) RefundEnded(state string) {
	if c := r.refunds[state]; c != nil {
		c.Inc()
	}
}

// OpeningEnded counts an account opening reaching its end state (app.Metrics).
func (r *Registry) OpeningEnded(state string) {
	if c := r.openings[state]; c != nil {
		c.Inc()
	}
}

// WebhookSettled counts a delivery's final state (app.Metrics).
func (r *Registry) WebhookSettled(outcome string) {
	if c := r.webhooks[outcome]; c != nil {
		c.Inc()
	}
}

// HitPayloadRetention sets the retention gauge (app.Metrics).
func (r *Registry) HitPayloadRetention(keep time.Duration) { r.keep.Store(int64(keep / time.Second)) }

// HitPayloadsRemoved counts hits whose payloads were removed (app.Metrics).
func (r *Registry) HitPayloadsRemoved(n int) { r.removed.Add(float64(n)) }

// CollectionHeld counts a collection whose credit was held (app.Metrics).
func (r *Registry) CollectionHeld() { r.held.Inc() }

// InFlight is the reservations in flight now.
func (r *Registry) InFlight() int64 { return r.inFlight.Load() }

// AddDBStats exports the database pool's statistics, read at each scrape.
func (r *Registry) AddDBStats(stats func() sql.DBStats) {
	r.reg.MustRegister(dbStats{stats})
}

// AddConflicts exports, read at each scrape, the metering batches run
// again after a deadlock, a lock wait or a Galera certification failure
// (retries), and the other transactions that failed so (aborts: answered
// 503, nothing written).
func (r *Registry) AddConflicts(retries, aborts func() int64) {
	r.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "paygate_db_conflict_retries_total",
		Help: "Metering batches run again after a deadlock, a lock wait or a Galera certification failure.",
	}, func() float64 { return float64(retries()) }))
	r.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "paygate_db_conflict_aborts_total",
		Help: "Other database transactions that failed with a deadlock, a lock wait or a Galera certification failure (answered 503).",
	}, func() float64 { return float64(aborts()) }))
}

// WritePrometheus writes every family in the Prometheus text format, each
// with its HELP and TYPE lines.
func (r *Registry) WritePrometheus(w io.Writer) {
	families, err := r.reg.Gather()
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range families {
		if enc.Encode(f) != nil {
			return // the scraper went away
		}
	}
	if err != nil { // a collector failed: the rest is still worth having
		io.WriteString(w, "# gather error: "+strings.ReplaceAll(err.Error(), "\n", " ")+"\n")
	}
}

var (
	dbMax     = prometheus.NewDesc("paygate_db_connections_max", "The database pool's maximum open connections (0: unlimited).", nil, nil)
	dbOpen    = prometheus.NewDesc("paygate_db_connections_open", "Open database connections, in use or idle.", nil, nil)
	dbInUse   = prometheus.NewDesc("paygate_db_connections_in_use", "Database connections in use.", nil, nil)
	dbIdle    = prometheus.NewDesc("paygate_db_connections_idle", "Idle database connections.", nil, nil)
	dbWaits   = prometheus.NewDesc("paygate_db_connection_waits_total", "Times a query waited for a free database connection.", nil, nil)
	dbWaiting = prometheus.NewDesc("paygate_db_connection_wait_seconds_total", "Time spent waiting for a free database connection.", nil, nil)
)

// dbStats reads sql.DBStats at each scrape.
type dbStats struct{ stats func() sql.DBStats }

func (d dbStats) Describe(ch chan<- *prometheus.Desc) {
	for _, desc := range []*prometheus.Desc{dbMax, dbOpen, dbInUse, dbIdle, dbWaits, dbWaiting} {
		ch <- desc
	}
}

func (d dbStats) Collect(ch chan<- prometheus.Metric) {
	s := d.stats()
	ch <- prometheus.MustNewConstMetric(dbMax, prometheus.GaugeValue, float64(s.MaxOpenConnections))
	ch <- prometheus.MustNewConstMetric(dbOpen, prometheus.GaugeValue, float64(s.OpenConnections))
	ch <- prometheus.MustNewConstMetric(dbInUse, prometheus.GaugeValue, float64(s.InUse))
	ch <- prometheus.MustNewConstMetric(dbIdle, prometheus.GaugeValue, float64(s.Idle))
	ch <- prometheus.MustNewConstMetric(dbWaits, prometheus.CounterValue, float64(s.WaitCount))
	ch <- prometheus.MustNewConstMetric(dbWaiting, prometheus.CounterValue, s.WaitDuration.Seconds())
}
