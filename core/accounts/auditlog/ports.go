package auditlog

import (
	"context"

	"paygate/core/accounts/audit"
)

// Entries lists the audit log.
type Entries interface {
	List(ctx context.Context, f audit.Filter) ([]audit.Entry, int64, error)
}
