package auditlog

import (
	"context"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
)

// ListAudit lists audit entries, newest first (admin only).
func (p *Log) ListAudit(ctx context.Context, actor *user.User, f audit.Filter) ([]audit.Entry, int64, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, 0, err
	}
	return p.entries.List(ctx, f)
}
