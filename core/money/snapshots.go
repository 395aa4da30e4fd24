package money

import (
	"time"

	"paygate/core/money/topup"
	"paygate/core/platform/inr"
)

// Audit snapshots: what an entry shows of a record. They name their fields
// one by one, so a secret (password hash, webhook secret, provider key, key
// secret) can never slip in when an entity grows a field.

type topUpAudit struct {
	UserID        uint64     `json:"user_id"`
	Amount        string     `json:"amount"`
	UTRNumber     string     `json:"utr_number"`
	PaymentMethod string     `json:"payment_method"`
	Status        string     `json:"status"`
	ApprovedBy    *uint64    `json:"approved_by"`
	ApprovedAt    *time.Time `json:"approved_at"`
	AdminRemarks  *string    `json:"admin_remarks"`
}

func topUpSnapshot(r *topup.Request) topUpAudit {
	return topUpAudit{UserID: r.UserID, Amount: inr.Format2(r.Amount), UTRNumber: r.UTRNumber, PaymentMethod: r.PaymentMethod,
		Status: string(r.Status), ApprovedBy: r.ApprovedBy, ApprovedAt: r.ApprovedAt, AdminRemarks: r.AdminRemarks}
}
