package reconciliation

import (
	"context"

	"paygate/core/gateway/payment"
	"paygate/core/money/statement"
	"paygate/core/money/topup"
)

// Stores are the repositories reconciliation calls outside a transaction;
// a line's decision (its match or dismissal) runs in one, with TxStores.
type Stores struct {
	Statements Statements
	Payments   Payments
	TopUps     TopUps
}

// Statements imports a statement's lines, finds their candidates, notes
// why a line stayed unmatched and reads the lines.
type Statements interface {
	CreateStatement(ctx context.Context, s *statement.Statement) error
	InsertLines(ctx context.Context, statementID uint64, lines []statement.Line) (int, error)
	IDsByKey(ctx context.Context, statementID uint64, keys []string) (map[string]uint64, error)
	Payments(ctx context.Context, utrs, publicIDs []string) ([]statement.PaymentRef, error)
	TopUps(ctx context.Context, utrs []string) ([]statement.TopUpRef, error)
	SetReason(ctx context.Context, id uint64, reason string) error
	ByID(ctx context.Context, id uint64) (*statement.Line, error)
	List(ctx context.Context, f statement.Filter) ([]statement.Line, int64, error)
}

// Payments reads the payment an admin matches a line to.
type Payments interface {
	ByPublicID(ctx context.Context, publicID string) (*payment.Payment, error)
}

// TopUps reads the balance request an admin matches a line to.
type TopUps interface {
	ByID(ctx context.Context, id uint64) (*topup.Request, error)
}
