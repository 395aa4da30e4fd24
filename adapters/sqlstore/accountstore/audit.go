package accountstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/audit"
)

type auditRow struct {
	ID          uint64    `gorm:"column:id;primaryKey;autoIncrement"`
	ActorID     uint64    `gorm:"column:actor_id"`
	Action      string    `gorm:"column:action"`
	TargetType  string    `gorm:"column:target_type"`
	TargetID    *uint64   `gorm:"column:target_id"`
	BeforeState *string   `gorm:"column:before_state"`
	AfterState  *string   `gorm:"column:after_state"`
	IPAddress   string    `gorm:"column:ip_address"`
	RequestID   string    `gorm:"column:request_id"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (auditRow) TableName() string { return "audit_logs" }

func toAuditRow(e *audit.Entry) auditRow {
	return auditRow{
		ID: e.ID, ActorID: e.ActorID, Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID,
		BeforeState: rawToDB(e.Before), AfterState: rawToDB(e.After),
		IPAddress: e.IPAddress, RequestID: e.RequestID, CreatedAt: sqlbase.DBTime(e.CreatedAt),
	}
}

func toDomainAudit(r *auditRow) (audit.Entry, error) {
	return audit.Entry{
		ID: r.ID, ActorID: r.ActorID, Action: r.Action, TargetType: r.TargetType, TargetID: r.TargetID,
		Before: rawFromDB(r.BeforeState), After: rawFromDB(r.AfterState),
		IPAddress: r.IPAddress, RequestID: r.RequestID, CreatedAt: r.CreatedAt.UTC(),
	}, nil
}

func rawToDB(m json.RawMessage) *string {
	if len(m) == 0 {
		return nil
	}
	s := string(m)
	return &s
}

func rawFromDB(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}

// AuditStore is the database's audit.Repository.
type AuditStore struct{ sqlbase.Base }

var _ audit.Repository = (*AuditStore)(nil)

func (s *AuditStore) Add(ctx context.Context, e *audit.Entry) error {
	r := toAuditRow(e)
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert audit entry %s: %w", e.Action, sqlbase.Translate(err))
	}
	e.ID = r.ID
	return nil
}

// List lists entries newest first. From and To are inclusive bounds on created_at.
func (s *AuditStore) List(ctx context.Context, f audit.Filter) ([]audit.Entry, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.ActorID != nil {
			q = q.Where("actor_id = ?", *f.ActorID)
		}
		if f.Action != "" {
			q = q.Where("action = ?", f.Action)
		}
		if f.TargetType != "" {
			q = q.Where("target_type = ?", f.TargetType)
		}
		if f.TargetID != nil {
			q = q.Where("target_id = ?", *f.TargetID)
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "audit entries", toDomainAudit)
}
