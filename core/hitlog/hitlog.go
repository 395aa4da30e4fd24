// Package hitlog records one row per call to a service endpoint.
package hitlog

import (
	"context"
	"time"

	"github.com/shopspring/decimal"
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
	Reserved        decimal.Decimal // amount debited at reservation; refunded on failure
	IPAddress       string
	Status          Status
	ResponseTimeMs  int
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Filter selects hits in a list.
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

// Repository stores hits.
type Repository interface {
	Insert(ctx context.Context, h *Hit) error
	// Finish writes status, response_payload, charge_amount and response_time_ms.
	Finish(ctx context.Context, h *Hit) error
	ByRequestID(ctx context.Context, requestID string) (*Hit, error)
	List(ctx context.Context, f Filter) ([]Hit, int64, error) // newest first
	ForEachByUser(ctx context.Context, userID uint64, fn func(Hit) error) error
	// Pending lists hits still pending that were created before `before`.
	Pending(ctx context.Context, before time.Time, limit int) ([]Hit, error)
}
