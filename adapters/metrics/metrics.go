// Package metrics exports the service's operational measurements in the
// Prometheus text format, on github.com/VictoriaMetrics/metrics (small, no
// dependency beyond x/sys; docs/decisions.md, "Metrics").
//
// Series are created once per label set and kept in maps read under a
// read lock, so recording a request or an upstream call costs a map lookup
// and a few atomic adds: no allocation once a series exists.
package metrics

import (
	"database/sql"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vm "github.com/VictoriaMetrics/metrics"

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
	set      *vm.Set
	inFlight atomic.Int64
	backlog  atomic.Int64
	keep     atomic.Int64 // hit payload retention, seconds
	removed  *vm.Counter
	held     *vm.Counter

	mu       sync.RWMutex
	requests map[requestKey]*requestSeries
	upstream map[upstreamKey]*vm.PrometheusHistogram
	services map[string]struct{}
}

type requestKey struct {
	method, route string
	status        int
}

type requestSeries struct {
	count    *vm.Counter
	duration *vm.PrometheusHistogram
}

type upstreamKey struct {
	service string
	ok      bool
}

var _ app.Metrics = (*Registry)(nil)

// New makes an empty registry with the reservations gauge and the outbox
// backlog gauge.
func New() *Registry {
	vm.ExposeMetadata(true) // # TYPE lines, so Prometheus knows the histograms
	r := &Registry{
		set:      vm.NewSet(),
		requests: map[requestKey]*requestSeries{},
		upstream: map[upstreamKey]*vm.PrometheusHistogram{},
		services: map[string]struct{}{},
	}
	r.set.NewGauge("paygate_reservations_in_flight", func() float64 { return float64(r.inFlight.Load()) })
	// Counted by the webhook delivery worker every few seconds, not per
	// scrape: a scrape never queries the database.
	r.set.NewGauge("paygate_outbox_backlog", func() float64 { return float64(r.backlog.Load()) })
	// Hit payload retention (HIT_PAYLOAD_RETENTION) and the payloads its
	// worker removed on this instance.
	r.set.NewGauge("paygate_hit_payload_retention_seconds", func() float64 { return float64(r.keep.Load()) })
	r.removed = r.set.NewCounter("paygate_hit_payloads_removed_total")
	// Confirmed collections held because the beneficiary's balance could
	// not hold the credit (each hold and each failed retry counts once).
	r.held = r.set.NewCounter("paygate_collections_held_total")
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
	s.duration.Update(d.Seconds())
}

func (r *Registry) newRequestSeries(k requestKey) *requestSeries {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.requests[k]; s != nil {
		return s
	}
	labels := `{method="` + escape(k.method) + `",route="` + escape(k.route) + `",status="` + strconv.Itoa(k.status) + `"}`
	s := &requestSeries{
		count:    r.set.NewCounter("paygate_http_requests_total" + labels),
		duration: r.set.NewPrometheusHistogramExt("paygate_http_request_duration_seconds"+labels, latencyBuckets),
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
	h.Update(d.Seconds())
}

func (r *Registry) newUpstreamSeries(k upstreamKey) *vm.PrometheusHistogram {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, known := r.services[k.service]; !known {
		if len(r.services) >= MaxServices {
			k.service = OtherService
		} else {
			r.services[k.service] = struct{}{}
		}
	}
	if h := r.upstream[k]; h != nil {
		return h
	}
	outcome := "error"
	if k.ok {
		outcome = "ok"
	}
	h := r.set.NewPrometheusHistogramExt(`paygate_upstream_duration_seconds{service="`+escape(k.service)+`",outcome="`+outcome+`"}`, latencyBuckets)
	r.upstream[k] = h
	return h
}

// ReservationStarted and ReservationSettled move the in-flight gauge (app.Metrics).
func (r *Registry) ReservationStarted() { r.inFlight.Add(1) }
func (r *Registry) ReservationSettled() { r.inFlight.Add(-1) }

// OutboxBacklog sets the undelivered webhook deliveries (app.Metrics).
func (r *Registry) OutboxBacklog(n int64) { r.backlog.Store(n) }

// HitPayloadRetention sets the retention gauge (app.Metrics).
func (r *Registry) HitPayloadRetention(keep time.Duration) { r.keep.Store(int64(keep / time.Second)) }

// HitPayloadsRemoved counts hits whose payloads were removed (app.Metrics).
func (r *Registry) HitPayloadsRemoved(n int) { r.removed.Add(n) }

// CollectionHeld counts a collection whose credit was held (app.Metrics).
func (r *Registry) CollectionHeld() { r.held.Inc() }

// InFlight is the reservations in flight now.
func (r *Registry) InFlight() int64 { return r.inFlight.Load() }

// AddDBStats exports the database pool's statistics, read at each scrape.
func (r *Registry) AddDBStats(stats func() sql.DBStats) {
	r.set.RegisterMetricsWriter(func(w io.Writer) {
		s := stats()
		vm.WriteGaugeUint64(w, "paygate_db_connections_max", uint64(max(s.MaxOpenConnections, 0)))
		vm.WriteGaugeUint64(w, "paygate_db_connections_open", uint64(max(s.OpenConnections, 0)))
		vm.WriteGaugeUint64(w, "paygate_db_connections_in_use", uint64(max(s.InUse, 0)))
		vm.WriteGaugeUint64(w, "paygate_db_connections_idle", uint64(max(s.Idle, 0)))
		vm.WriteCounterUint64(w, "paygate_db_connection_waits_total", uint64(max(s.WaitCount, 0)))
		vm.WriteCounterFloat64(w, "paygate_db_connection_wait_seconds_total", s.WaitDuration.Seconds())
	})
}

// WritePrometheus writes every series in the Prometheus text format, then
// the Go runtime's and the process's (go_*, process_*).
func (r *Registry) WritePrometheus(w io.Writer) {
	r.set.WritePrometheus(w)
	vm.WriteProcessMetrics(w)
}

// escape makes s a Prometheus label value (inside double quotes).
func escape(s string) string {
	if !strings.ContainsAny(s, "\\\"\n") {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
