// Package hitlog records one row per call to a service endpoint.
package hitlog

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/platform/errs"
)

type Status string

const (
	// StatusPending marks a call whose charge is reserved and whose upstream
	// answer is not settled yet; crash recovery settles these.
	StatusPending             Status = "pending"
	StatusSuccess             Status = "success"
	StatusFailed              Status = "failed"
	StatusInsufficientBalance Status = "insufficient_balance"
)

// UnchargedHoldReleased: the call ran on a hold that crash recovery
// released before the call's capture was written (its instance was taken
// for dead), and the balance could not pay the charge by then.
const UnchargedHoldReleased = "hold_released"

// ErrNotPending is Finish's answer for a hit that is no longer pending:
// another settlement (the call itself, or crash recovery on any instance)
// got there first, and the caller must change nothing else.
var ErrNotPending = errs.E(errs.Internal, "hit_not_pending", "The call was already settled")

// Hit is one call.
type Hit struct {
	ID              uint64
	UserID          uint64
	ServiceID       uint64
	APIKeyID        uint64
	RequestID       string
	RequestPayload  string
	ResponsePayload *string
	ChargeAmount    decimal.Decimal
	CostAmount      decimal.Decimal // upstream cost of a successful call: its price row's admin_cost; zero otherwise
	Reserved        decimal.Decimal // amount debited at reservation; refunded on failure
	// Admitted is the charge the call was admitted for (its reservation's
	// or its hold's price); nil on hits written before it was recorded and
	// on calls refused before admission. A successful hit is charged
	// exactly this, unless Uncharged says why not (the ledger check).
	Admitted *decimal.Decimal
	// Uncharged is the reason a successful call was not charged its
	// Admitted charge (UnchargedHoldReleased); empty when it was.
	Uncharged string
	// ResellerID is the caller's reseller when the caller is a reseller's
	// customer (set when the hit is written, never changed); nil otherwise.
	ResellerID *uint64
	// Commission is the reseller's earning on a successful, charged call
	// (its charge less the reseller's own price); zero on every other hit.
	Commission decimal.Decimal
	// CommissionSettlementID is the commission settlement that credited
	// Commission to the reseller (set once, by it); nil while unsettled.
	// A refund of the hit's charge zeroes Commission and, when it was
	// credited already, books a reversal on that settlement.
	// CommissionCancelled is the commission a refund of the charge
	// cancelled (Commission is then zero): the platform's invoice to the
	// reseller prices the refunded call at the reseller's cost with it.
	CommissionCancelled    decimal.Decimal
	CommissionSettlementID *uint64
	IPAddress              string
	Status                 Status
	ResponseTimeMs         int
	CreatedAt              time.Time
	UpdatedAt              time.Time
}

// ListWindow is how many rows a list counts and pages through: the newest
// ListWindow rows matching the filters; older ones are reached by narrowing
// the date range (or exported as CSV). Counting and OFFSET past it cost a
// scan of every skipped row, which on millions of rows is too slow to answer.
const ListWindow = 10_000

// ExportPayloadChars is how much of each payload a CSV export carries; a
// longer one is cut and ends with "…".
const ExportPayloadChars = 200

// Filter selects hits in a list. From and To are inclusive bounds on created_at.
type Filter struct {
	UserID    *uint64
	ServiceID *uint64
	APIKeyID  *uint64
	Status    Status
	From      *time.Time
	To        *time.Time
	Page      int
	PerPage   int
}

// WithoutPayloadsBefore is h without its payloads when it was created
// before cutoff (they are past the retention, whether or not the store has
// removed them yet); a zero cutoff keeps them.
func (h Hit) WithoutPayloadsBefore(cutoff time.Time) Hit {
	if !cutoff.IsZero() && h.CreatedAt.Before(cutoff) {
		h.RequestPayload, h.ResponsePayload = "", nil
	}
	return h
}

// Repository stores hits.
type Repository interface {
	Insert(ctx context.Context, h *Hit) error
	// Finish writes status, response_payload, charge_amount, cost_amount,
	// commission and response_time_ms of a hit that is still pending, as one conditional
	// update: of several settlements of one hit exactly one succeeds, the
	// others get ErrNotPending (errs.ErrNotFound for an unknown hit).
	// Callers that move money do it in the transaction of their Finish, so
	// a refused Finish rolls their money back.
	Finish(ctx context.Context, h *Hit) error
	// InsertMany inserts hits in as few statements as it can and sets their ids.
	InsertMany(ctx context.Context, hits []*Hit) error
	// FinishMany settles hits still pending (the fields of Finish) and
	// reports, per hit, whether this call moved it out of pending; a hit
	// already settled or refunded (crash recovery) is left alone. Inside a
	// transaction the moved rows stay locked until its end.
	FinishMany(ctx context.Context, hits []*Hit) (moved []bool, err error)
	// SucceedMany settles successful calls: each hit (status StatusSuccess,
	// the other fields of Finish) moves only if still pending, without a
	// prior read or lock. It needs no transaction: outside one, every
	// statement commits by itself (at most a few hundred hits each), so on
	// an error moved still tells which hits an earlier statement moved.
	// Since only a call's own settlement sets a hit success, a hit that is
	// success after the update is one this call moved (or an earlier,
	// interrupted attempt of it, whose outcome was unknown).
	SucceedMany(ctx context.Context, hits []*Hit) (moved []bool, err error)
	ByRequestID(ctx context.Context, requestID string) (*Hit, error)
	// List returns a page newest first (created_at, then id, descending) and
	// the number of matching rows, counted up to ListWindow+1: a total above
	// ListWindow means "more than ListWindow".
	List(ctx context.Context, f Filter) ([]Hit, int64, error)
	// ForEach visits every hit matching f (its page fields ignored) in List's
	// order, one row at a time, with payloads cut to ExportPayloadChars.
	ForEach(ctx context.Context, f Filter, fn func(Hit) error) error
	// ForEachByUser visits a user's hits in id order, without their payloads.
	ForEachByUser(ctx context.Context, userID uint64, fn func(Hit) error) error
	// Pending lists hits still pending that were created before `before`.
	Pending(ctx context.Context, before time.Time, limit int) ([]Hit, error)
	// ClearPayloads removes the payloads of hits created before `before`
	// (RequestPayload reads "", ResponsePayload nil; the rest of the row
	// stays), a bounded step per call: a few rows' worth of statements, or
	// on a store that keeps payloads by month, one month whose every hit is
	// older (so payloads may outlive the cutoff by up to a month there).
	// removed is how many payloads this call removed (a store that drops a
	// month may report its own estimate); more reports that the next call
	// may find more. Several callers at once are harmless.
	ClearPayloads(ctx context.Context, before time.Time, limit int) (removed int, more bool, err error)
}
