package app

import (
	"time"

	"paygate/core/outbox"
)

// Metrics receives the use cases' operational measurements, the outbox's
// among them; an adapter exports them (Prometheus, adapters/metrics). Calls
// sit on the metered hot path: implementations must be cheap and must not
// block.
type Metrics interface {
	// UpstreamDone records one provider call of service (its slug) that took
	// d; ok is a usable answer (2xx with JSON, or a gateway provider's
	// success).
	UpstreamDone(service string, d time.Duration, ok bool)
	// ReservationStarted counts a call whose charge reservation committed;
	// ReservationSettled, once per such call, when its settlement or refund
	// has been attempted. Their difference is the reservations in flight.
	ReservationStarted()
	ReservationSettled()
	outbox.Metrics // the delivery worker's backlog
}

// NopMetrics discards every measurement (the default of Deps.Metrics).
type NopMetrics struct{}

func (NopMetrics) UpstreamDone(string, time.Duration, bool) {}
func (NopMetrics) ReservationStarted()                      {}
func (NopMetrics) ReservationSettled()                      {}
func (NopMetrics) OutboxBacklog(int64)                      {}
