// Package webhook holds the event outbox: events written in the transaction
// of the change that caused them, their deliveries (one per destination)
// with the retry schedule, every attempt, and the Standard Webhooks signer
// (docs/decisions.md "Webhooks").
package webhook

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"paygate/core/platform/errs"
)

// EventType names an event.
type EventType string

const (
	PaymentSuccess         EventType = "payment.success"
	PaymentFailed          EventType = "payment.failed"
	PaymentExpired         EventType = "payment.expired"
	RechargeSuccess        EventType = "recharge.success"
	RechargeFailed         EventType = "recharge.failed"
	BalanceRequestApproved EventType = "balance_request.approved"
	BalanceRequestRejected EventType = "balance_request.rejected"
	BalanceLow             EventType = "balance.low"
	RefundProcessed        EventType = "refund.processed"
	RefundFailed           EventType = "refund.failed"
	PayoutSuccess          EventType = "payout.success"
	PayoutFailed           EventType = "payout.failed"
	PayoutReversed         EventType = "payout.reversed"
	AccountOpeningOpened   EventType = "account_opening.opened"
	AccountOpeningRejected EventType = "account_opening.rejected"
	SubscriptionRenewed    EventType = "subscription.renewed"
	SubscriptionPastDue    EventType = "subscription.past_due"
	SubscriptionDowngraded EventType = "subscription.downgraded"
	SubscriptionChanged    EventType = "subscription.changed"
	InvoiceIssued          EventType = "invoice.issued"
	CustomerCreated        EventType = "customer.created" // to the reseller
	TransferCreated        EventType = "transfer.created" // to the reseller and to its customer
)

// EventTypes are every event type, in the order the documentation lists them.
var EventTypes = []EventType{PaymentSuccess, PaymentFailed, PaymentExpired, RechargeSuccess, RechargeFailed,
	BalanceRequestApproved, BalanceRequestRejected, BalanceLow, RefundProcessed, RefundFailed,
	PayoutSuccess, PayoutFailed, PayoutReversed, AccountOpeningOpened, AccountOpeningRejected,
	SubscriptionRenewed, SubscriptionPastDue, SubscriptionDowngraded, SubscriptionChanged, InvoiceIssued,
	CustomerCreated, TransferCreated}

// Valid reports a known event type.
func (t EventType) Valid() bool {
	for _, k := range EventTypes {
		if t == k {
			return true
		}
	}
	return false
}

// Destination is where a delivery goes.
type Destination string

const (
	ToWebhook  Destination = "webhook"  // the user's webhook_url
	ToCallback Destination = "callback" // the payment's callback_url
)

// Status is a delivery's state.
type Status string

const (
	StatusPending   Status = "pending"   // waiting for its next attempt
	StatusDelivered Status = "delivered" // a 2xx answer arrived
	StatusFailed    Status = "failed"    // every retry of the schedule failed
)

func (s Status) Valid() bool { return s == StatusPending || s == StatusDelivered || s == StatusFailed }

// Event is one outbox row: what happened, as the JSON body every
// destination receives. PublicID is the webhook-id header ("msg_" + ULID),
// the same on every attempt, so receivers can drop duplicates.
type Event struct {
	ID        uint64
	PublicID  string
	UserID    uint64
	Type      EventType
	Payload   []byte // {"type", "timestamp", "data"}
	CreatedAt time.Time
}

// NewEvent makes a live event of userID with data as its "data" object.
func NewEvent(userID uint64, t EventType, data any, now time.Time) (*Event, error) {
	return NewEventMode(userID, t, data, true, now)
}

// NewEventMode makes an event whose body says whether it is live: false
// when it reports a sandbox provider's outcome, so a receiver never ships
// an order that was not paid.
func NewEventMode(userID uint64, t EventType, data any, livemode bool, now time.Time) (*Event, error) {
	now = now.UTC()
	body, err := json.Marshal(struct {
		Type      EventType `json:"type"`
		Timestamp string    `json:"timestamp"`
		Livemode  bool      `json:"livemode"`
		Data      any       `json:"data"`
	}{t, now.Format(time.RFC3339Nano), livemode, data})
	if err != nil {
		return nil, fmt.Errorf("event %s payload: %w", t, err)
	}
	id := ulid.MustNew(ulid.Timestamp(now), rand.Reader)
	return &Event{PublicID: "msg_" + id.String(), UserID: userID, Type: t, Payload: body, CreatedAt: now}, nil
}

// Delivery is one event on its way to one destination.
type Delivery struct {
	ID            uint64
	EventID       uint64
	EventPublicID string // read back with the delivery
	UserID        uint64
	EventType     EventType
	Destination   Destination
	URL           string // the address of the last attempt (or the one known at the event)
	Status        Status
	Attempts      int // every attempt so far
	Failures      int // failed attempts since the schedule (re)started: the backoff step
	NextAttemptAt time.Time
	// ClaimedUntil is a worker's lease: no other worker takes the delivery
	// before it ends, and a crashed worker's claim ends by itself.
	ClaimedUntil   *time.Time
	LastStatusCode *int
	LastError      *string
	DeliveredAt    *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// NewDelivery is e's delivery to url, due at once.
func NewDelivery(e *Event, to Destination, url string) *Delivery {
	return &Delivery{UserID: e.UserID, EventType: e.Type, Destination: to, URL: url, Status: StatusPending,
		NextAttemptAt: e.CreatedAt, CreatedAt: e.CreatedAt, UpdatedAt: e.CreatedAt}
}

// Schedule is the wait after each failed attempt: 1 min, 5 min, 30 min,
// 2 h, 5 h, 10 h, then 6 h more (docs/decisions.md, "Webhooks"), so the last
// attempt comes 23 h 36 min after the first ("about a day"). The attempt
// after the last wait is the last one: when it fails too the delivery is
// failed.
var Schedule = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour,
	6 * time.Hour}

// MaxAttempts is the attempts of one schedule: the first and one per wait.
var MaxAttempts = len(Schedule) + 1

// Attempt is one try at a delivery, as the delivery log shows it.
type Attempt struct {
	ID         uint64
	DeliveryID uint64
	StatusCode *int // nil when no answer arrived
	LatencyMs  int
	Error      string // why it counts as failed ("" for a 2xx)
	Response   string // the start of the answer's body (SnippetBytes at most)
	CreatedAt  time.Time
}

// SnippetBytes caps the response body kept with an attempt.
const SnippetBytes = 1024

// errorBytes caps an attempt's error text (the column holds 255).
const errorBytes = 255

// Succeeded reports a 2xx answer.
func (a *Attempt) Succeeded() bool {
	return a.StatusCode != nil && *a.StatusCode >= 200 && *a.StatusCode < 300
}

// Record applies attempt a to d: delivered on a 2xx; otherwise the next
// attempt after the schedule's wait, or failed when the schedule is over.
func (d *Delivery) Record(a *Attempt) {
	d.Attempts++
	d.UpdatedAt = a.CreatedAt
	d.LastStatusCode = a.StatusCode
	d.ClaimedUntil = nil
	if a.Succeeded() {
		at := a.CreatedAt
		d.Status, d.DeliveredAt, d.LastError = StatusDelivered, &at, nil
		return
	}
	msg := a.Error
	if msg == "" {
		msg = "no 2xx answer"
	}
	msg = truncate(msg, errorBytes)
	d.LastError = &msg
	d.Failures++
	if d.Failures >= MaxAttempts {
		d.Status = StatusFailed
		return
	}
	d.Status = StatusPending
	d.NextAttemptAt = a.CreatedAt.Add(Schedule[d.Failures-1])
}

// Redeliver asks for a new attempt at now, with a fresh schedule.
func (d *Delivery) Redeliver(now time.Time) {
	d.Status, d.Failures, d.NextAttemptAt, d.UpdatedAt = StatusPending, 0, now.UTC(), now.UTC()
}

// NewAttempt is the attempt made at start that ended after latency with an
// answer of status (0: none), the answer's body (capped here, and made
// valid UTF-8: MySQL refuses anything else in a text column, and a log
// that cannot be written would resend the event forever) and the error
// that made it fail (nil for an answer, whatever its status).
func NewAttempt(deliveryID uint64, start time.Time, latency time.Duration, status int, body []byte, err error) *Attempt {
	a := &Attempt{DeliveryID: deliveryID, LatencyMs: int(latency / time.Millisecond), CreatedAt: start.UTC(),
		Response: truncate(strings.ToValidUTF8(string(body), "\uFFFD"), SnippetBytes)}
	if status > 0 {
		a.StatusCode = &status
	}
	switch {
	case err != nil:
		a.Error = truncate(strings.ToValidUTF8(err.Error(), "\uFFFD"), errorBytes)
	case !a.Succeeded():
		a.Error = fmt.Sprintf("answered HTTP %d", status)
	}
	return a
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i]
}

// Job is a claimed delivery with what a worker needs to send it.
type Job struct {
	Delivery Delivery
	Event    Event
	Token    string // the claim; only its holder may record the outcome
}

// Filter selects deliveries in a list.
type Filter struct {
	UserID    *uint64
	Status    Status
	EventType EventType
	From, To  *time.Time
	Page      int
	PerPage   int
}

var (
	ErrNotFound     = errs.E(errs.NotFound, "delivery_not_found", "Delivery not found")
	ErrNoSecret     = errs.E(errs.Conflict, "no_webhook_secret", "The account has no webhook signing secret yet")
	ErrNoWebhookURL = errs.E(errs.Conflict, "no_webhook_url", "The account has no webhook_url")
)

// Repository is the outbox. Insert runs in the transaction of the change
// the event records; Claim must run in a transaction of its own.
type Repository interface {
	// Insert writes e and its deliveries (at least one), setting their ids.
	Insert(ctx context.Context, e *Event, ds []*Delivery) error
	// HasDue reports a delivery of lane Claim at now would take (read
	// only: most polls find none and then take no write lock).
	HasDue(ctx context.Context, now time.Time, lane Lane) (bool, error)
	// Claim leases up to limit pending deliveries of lane due at now whose
	// lease (if any) has ended, earliest first, until `until` under token;
	// rows another transaction holds are skipped (SKIP LOCKED on MySQL).
	Claim(ctx context.Context, now, until time.Time, token string, limit int, lane Lane) ([]Job, error)
	// Release ends token's claim on the deliveries ids (their attempts
	// were not started), so that any worker may take them at once; rows
	// whose claim token is no longer token are left alone.
	Release(ctx context.Context, ids []uint64, token string) error
	// Settle writes d's outcome and ends the lease if token still holds
	// it; false when the claim was lost (lease expired and taken again, or
	// a redelivery asked in between), and then nothing is written.
	Settle(ctx context.Context, d *Delivery, token string) (bool, error)
	// AddAttempt logs one attempt.
	AddAttempt(ctx context.Context, a *Attempt) error
	// Redeliver writes d's new schedule (Delivery.Redeliver) and drops any
	// claim's right to record its outcome; a running attempt keeps its lease.
	Redeliver(ctx context.Context, d *Delivery) error
	// Redeliveries counts the manual redeliveries of delivery id made at or
	// after since, with the oldest of them; inside a transaction that wrote
	// the delivery (Redeliver), it reads the latest committed rows, so two
	// instances never both take the last one. RecordRedelivery adds one.
	Redeliveries(ctx context.Context, id uint64, since time.Time) (n int, oldest time.Time, err error)
	RecordRedelivery(ctx context.Context, id, requestedBy uint64, at time.Time) error
	ByID(ctx context.Context, id uint64) (*Delivery, error)                        // ErrNotFound
	Event(ctx context.Context, id uint64) (*Event, error)                          // ErrNotFound
	Attempts(ctx context.Context, deliveryID uint64, limit int) ([]Attempt, error) // newest first
	List(ctx context.Context, f Filter) ([]Delivery, int64, error)                 // newest first
	Backlog(ctx context.Context) (int64, error)                                    // pending deliveries
}

// Request is one signed POST to a destination.
type Request struct {
	URL    string
	Header http.Header
	Body   []byte
}

// Response is a destination's answer; Body is at most SnippetBytes.
type Response struct {
	Status int
	Body   []byte
}

// Lane narrows which due deliveries HasDue and Claim look at. The zero
// Lane is every due delivery.
type Lane struct {
	// FirstSince, when not zero, keeps only the deliveries that have not
	// failed since they were scheduled (first attempts and redeliveries)
	// and became due at or after it: the first-attempt lane, which reads
	// only the recent end of the due index however long the backlog.
	FirstSince time.Time
}

// FirstAttempts is the lane of first attempts that became due at or
// after since.
func FirstAttempts(since time.Time) Lane { return Lane{FirstSince: since} }

// Sender posts a request, bounded by ctx. An error means no answer
// (refused address, timeout, connection failure); its text is safe to show
// the user.
type Sender interface {
	Send(ctx context.Context, r Request) (Response, error)
}

// TargetPolicy decides which addresses events may be sent to: the SSRF
// rules of upstream URLs (adapters/upstream). CheckURL's error text is
// safe to show.
type TargetPolicy interface {
	CheckURL(raw string) error
}

// TargetProblem is why raw may not receive events under p, or "" (a nil
// policy allows any address).
func TargetProblem(p TargetPolicy, raw string) string {
	if p == nil {
		return ""
	}
	if err := p.CheckURL(raw); err != nil {
		return "must not point to a private, loopback or otherwise internal address"
	}
	return ""
}
