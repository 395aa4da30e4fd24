package auditlog

import (
	"context"

	"paygate/core/audit"
)

// Entries lists the audit log.
type Entries interface {
	List(ctx context.Context, f audit.Filter) ([]audit.Entry, int64, error)
}
