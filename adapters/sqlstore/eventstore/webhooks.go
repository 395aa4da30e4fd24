package eventstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/events/webhook"
)

type webhookEventRow struct {
	ID        uint64    `gorm:"column:id;primaryKey;autoIncrement"`
	PublicID  string    `gorm:"column:public_id"`
	UserID    uint64    `gorm:"column:user_id"`
	Type      string    `gorm:"column:type"`
	Payload   string    `gorm:"column:payload"`
	CreatedAt time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (webhookEventRow) TableName() string { return "webhook_events" }

func toDomainEvent(r *webhookEventRow) (webhook.Event, error) {
	return webhook.Event{ID: r.ID, PublicID: r.PublicID, UserID: r.UserID, Type: webhook.EventType(r.Type),
		Payload: []byte(r.Payload), CreatedAt: r.CreatedAt.UTC()}, nil
}

type webhookDeliveryRow struct {
	ID             uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	EventID        uint64     `gorm:"column:event_id"`
	UserID         uint64     `gorm:"column:user_id"`
	EventType      string     `gorm:"column:event_type"`
	Destination    string     `gorm:"column:destination"`
	URL            string     `gorm:"column:url"`
	Status         string     `gorm:"column:status"`
	Attempts       int        `gorm:"column:attempts"`
	Failures       int        `gorm:"column:failures"`
	NextAttemptAt  time.Time  `gorm:"column:next_attempt_at"`
	ClaimedUntil   *time.Time `gorm:"column:claimed_until"`
	ClaimToken     *string    `gorm:"column:claim_token"`
	LastStatusCode *int       `gorm:"column:last_status_code"`
	LastError      *string    `gorm:"column:last_error"`
	DeliveredAt    *time.Time `gorm:"column:delivered_at"`
	CreatedAt      time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt      time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (webhookDeliveryRow) TableName() string { return "webhook_deliveries" }

func toDeliveryRow(d *webhook.Delivery) webhookDeliveryRow {
	return webhookDeliveryRow{
		ID: d.ID, EventID: d.EventID, UserID: d.UserID, EventType: string(d.EventType), Destination: string(d.Destination),
		URL: d.URL, Status: string(d.Status), Attempts: d.Attempts, Failures: d.Failures, NextAttemptAt: sqlbase.DBTime(d.NextAttemptAt),
		ClaimedUntil: sqlbase.TimePtrToDB(d.ClaimedUntil), LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		DeliveredAt: sqlbase.TimePtrToDB(d.DeliveredAt), CreatedAt: sqlbase.DBTime(d.CreatedAt), UpdatedAt: sqlbase.DBTime(d.UpdatedAt),
	}
}

func toDomainDelivery(r *webhookDeliveryRow) (webhook.Delivery, error) {
	return webhook.Delivery{
		ID: r.ID, EventID: r.EventID, UserID: r.UserID, EventType: webhook.EventType(r.EventType),
		Destination: webhook.Destination(r.Destination), URL: r.URL, Status: webhook.Status(r.Status),
		Attempts: r.Attempts, Failures: r.Failures, NextAttemptAt: r.NextAttemptAt.UTC(),
		ClaimedUntil: sqlbase.TimePtrFromDB(r.ClaimedUntil), LastStatusCode: r.LastStatusCode, LastError: r.LastError,
		DeliveredAt: sqlbase.TimePtrFromDB(r.DeliveredAt), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}, nil
}

type webhookAttemptRow struct {
	ID         uint64    `gorm:"column:id;primaryKey;autoIncrement"`
	DeliveryID uint64    `gorm:"column:delivery_id"`
	StatusCode *int      `gorm:"column:status_code"`
	LatencyMs  int       `gorm:"column:latency_ms"`
	Error      *string   `gorm:"column:error"`
	Response   *string   `gorm:"column:response_snippet"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (webhookAttemptRow) TableName() string { return "webhook_attempts" }

func toDomainAttempt(r *webhookAttemptRow) (webhook.Attempt, error) {
	a := webhook.Attempt{ID: r.ID, DeliveryID: r.DeliveryID, StatusCode: r.StatusCode, LatencyMs: r.LatencyMs,
		CreatedAt: r.CreatedAt.UTC()}
	if r.Error != nil {
		a.Error = *r.Error
	}
	if r.Response != nil {
		a.Response = *r.Response
	}
	return a, nil
}

// WebhookStore is the database's webhook.Repository.
type WebhookStore struct{ sqlbase.Base }

var _ webhook.Repository = (*WebhookStore)(nil)

func (s *WebhookStore) Insert(ctx context.Context, e *webhook.Event, ds []*webhook.Delivery) error {
	ev := webhookEventRow{PublicID: e.PublicID, UserID: e.UserID, Type: string(e.Type), Payload: string(e.Payload),
		CreatedAt: sqlbase.DBTime(e.CreatedAt)}
	if err := s.Conn(ctx).Create(&ev).Error; err != nil {
		return fmt.Errorf("insert webhook event %s: %w", e.Type, sqlbase.Translate(err))
	}
	e.ID = ev.ID
	// One row at a time (one or two per event): a multi-row insert's ids
	// are only known when the server hands out consecutive ones.
	for _, d := range ds {
		d.EventID, d.EventPublicID = e.ID, e.PublicID
		row := toDeliveryRow(d)
		row.ID = 0
		if err := s.Conn(ctx).Create(&row).Error; err != nil {
			return fmt.Errorf("insert webhook delivery of %s: %w", e.PublicID, sqlbase.Translate(err))
		}
		d.ID = row.ID
	}
	return nil
}

// due selects the deliveries of lane a worker may claim at now. The
// first-attempt lane bounds next_attempt_at from below too, so it reads a
// short range of the due index, not every overdue retry.
func (s *WebhookStore) due(ctx context.Context, now time.Time, lane webhook.Lane) *gorm.DB {
	q := s.Conn(ctx).Model(&webhookDeliveryRow{}).
		Where("status = ? AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)",
			string(webhook.StatusPending), sqlbase.DBTime(now), sqlbase.DBTime(now))
	if !lane.FirstSince.IsZero() {
		q = q.Where("next_attempt_at >= ? AND failures = 0", sqlbase.DBTime(lane.FirstSince))
	}
	return q
}

func (s *WebhookStore) HasDue(ctx context.Context, now time.Time, lane webhook.Lane) (bool, error) {
	var ids []uint64
	if err := s.due(ctx, now, lane).Limit(1).Pluck("id", &ids).Error; err != nil {
		return false, fmt.Errorf("look for due webhook deliveries: %w", sqlbase.Translate(err))
	}
	return len(ids) > 0, nil
}

func (s *WebhookStore) Claim(ctx context.Context, now, until time.Time, token string, limit int, lane webhook.Lane) ([]webhook.Job, error) {
	q := s.due(ctx, now, lane).Order("next_attempt_at").Order("id").Limit(limit)
	if s.MySQL {
		// Rows another worker is claiming right now are passed over, not
		// waited for (MariaDB ≥ 10.6). SQLite: one writer at a time.
		q = q.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate, Options: clause.LockingOptionsSkipLocked})
	}
	var ids []uint64
	if err := q.Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("find due webhook deliveries: %w", sqlbase.Translate(err))
	}
	if len(ids) == 0 {
		return nil, nil
	}
	err := s.Conn(ctx).Model(&webhookDeliveryRow{}).Where("id IN ?", ids).
		Updates(map[string]any{"claimed_until": sqlbase.DBTime(until), "claim_token": token}).Error
	if err != nil {
		return nil, fmt.Errorf("claim webhook deliveries: %w", sqlbase.Translate(err))
	}
	var rows []webhookDeliveryRow
	if err := s.Conn(ctx).Where("id IN ?", ids).Order("next_attempt_at").Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read claimed webhook deliveries: %w", sqlbase.Translate(err))
	}
	ds, err := sqlbase.ConvertRows(rows, toDomainDelivery)
	if err != nil {
		return nil, err
	}
	events, err := s.events(ctx, ds)
	if err != nil {
		return nil, err
	}
	jobs := make([]webhook.Job, len(ds))
	for i, d := range ds {
		e := events[d.EventID]
		d.EventPublicID = e.PublicID
		jobs[i] = webhook.Job{Delivery: d, Event: e, Token: token}
	}
	return jobs, nil
}

func (s *WebhookStore) Release(ctx context.Context, ids []uint64, token string) error {
	if len(ids) == 0 {
		return nil
	}
	err := s.Conn(ctx).Model(&webhookDeliveryRow{}).Where("id IN ? AND claim_token = ?", ids, token).
		Updates(map[string]any{"claimed_until": nil, "claim_token": nil}).Error
	if err != nil {
		return fmt.Errorf("release webhook deliveries: %w", sqlbase.Translate(err))
	}
	return nil
}

// events reads the events of ds by id.
func (s *WebhookStore) events(ctx context.Context, ds []webhook.Delivery) (map[uint64]webhook.Event, error) {
	ids := make([]uint64, 0, len(ds))
	for _, d := range ds {
		ids = append(ids, d.EventID)
	}
	var rows []webhookEventRow
	if len(ids) > 0 {
		if err := s.Conn(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("read webhook events: %w", sqlbase.Translate(err))
		}
	}
	out := make(map[uint64]webhook.Event, len(rows))
	for i := range rows {
		e, _ := toDomainEvent(&rows[i])
		out[e.ID] = e
	}
	return out, nil
}

// withEventIDs fills in the events' public ids (webhook-id) of ds.
func (s *WebhookStore) withEventIDs(ctx context.Context, ds []webhook.Delivery) error {
	ids := make([]uint64, 0, len(ds))
	for _, d := range ds {
		ids = append(ids, d.EventID)
	}
	if len(ids) == 0 {
		return nil
	}
	var rows []webhookEventRow
	if err := s.Conn(ctx).Select("id", "public_id").Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return fmt.Errorf("read webhook event ids: %w", sqlbase.Translate(err))
	}
	byID := make(map[uint64]string, len(rows))
	for _, r := range rows {
		byID[r.ID] = r.PublicID
	}
	for i := range ds {
		ds[i].EventPublicID = byID[ds[i].EventID]
	}
	return nil
}

func (s *WebhookStore) Settle(ctx context.Context, d *webhook.Delivery, token string) (bool, error) {
	r := toDeliveryRow(d)
	res := s.Conn(ctx).Model(&webhookDeliveryRow{}).Where("id = ? AND claim_token = ?", d.ID, token).Updates(map[string]any{
		"url": r.URL, "status": r.Status, "attempts": r.Attempts, "failures": r.Failures, "next_attempt_at": r.NextAttemptAt,
		"claimed_until": nil, "claim_token": nil, "last_status_code": r.LastStatusCode, "last_error": r.LastError,
		"delivered_at": r.DeliveredAt, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return false, fmt.Errorf("settle webhook delivery %d: %w", d.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *WebhookStore) AddAttempt(ctx context.Context, a *webhook.Attempt) error {
	row := webhookAttemptRow{DeliveryID: a.DeliveryID, StatusCode: a.StatusCode, LatencyMs: max(a.LatencyMs, 0),
		Error: sqlbase.NullString(a.Error), Response: sqlbase.NullString(a.Response), CreatedAt: sqlbase.DBTime(a.CreatedAt)}
	if err := s.Conn(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("log webhook attempt of delivery %d: %w", a.DeliveryID, sqlbase.Translate(err))
	}
	a.ID = row.ID
	return nil
}

func (s *WebhookStore) Redeliver(ctx context.Context, d *webhook.Delivery) error {
	// claim_token goes, claimed_until stays: an attempt running now keeps
	// its lease (no second send at once) but cannot overwrite this request.
	err := s.Conn(ctx).Model(&webhookDeliveryRow{}).Where("id = ?", d.ID).Updates(map[string]any{
		"status": string(d.Status), "failures": d.Failures, "next_attempt_at": sqlbase.DBTime(d.NextAttemptAt),
		"claim_token": nil, "updated_at": sqlbase.DBTime(d.UpdatedAt),
	}).Error
	if err != nil {
		return fmt.Errorf("redeliver webhook delivery %d: %w", d.ID, sqlbase.Translate(err))
	}
	return nil
}

// webhookRedeliveryRow is one manual redelivery (the hourly limit's count).
type webhookRedeliveryRow struct {
	ID          uint64    `gorm:"column:id;primaryKey;autoIncrement"`
	DeliveryID  uint64    `gorm:"column:delivery_id"`
	RequestedBy uint64    `gorm:"column:requested_by"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (webhookRedeliveryRow) TableName() string { return "webhook_redeliveries" }

func (s *WebhookStore) Redeliveries(ctx context.Context, id uint64, since time.Time) (int, time.Time, error) {
	// A locking read: under MySQL's repeatable read a plain one would see
	// the snapshot of the transaction's first read, missing a redelivery
	// another instance committed while this one waited for the row lock.
	var rows []webhookRedeliveryRow
	q := s.Conn(ctx).Where("delivery_id = ? AND created_at >= ?", id, sqlbase.DBTime(since)).Order("created_at")
	if err := s.Locking(q).Find(&rows).Error; err != nil {
		return 0, time.Time{}, fmt.Errorf("count redeliveries of webhook delivery %d: %w", id, sqlbase.Translate(err))
	}
	if len(rows) == 0 {
		return 0, time.Time{}, nil
	}
	return len(rows), rows[0].CreatedAt.UTC(), nil
}

func (s *WebhookStore) RecordRedelivery(ctx context.Context, id, requestedBy uint64, at time.Time) error {
	r := webhookRedeliveryRow{DeliveryID: id, RequestedBy: requestedBy, CreatedAt: sqlbase.DBTime(at)}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("record redelivery of webhook delivery %d: %w", id, sqlbase.Translate(err))
	}
	return nil
}

func (s *WebhookStore) ByID(ctx context.Context, id uint64) (*webhook.Delivery, error) {
	var row webhookDeliveryRow
	if err := s.Conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, webhook.ErrNotFound
		}
		return nil, fmt.Errorf("find webhook delivery %d: %w", id, sqlbase.Translate(err))
	}
	d, _ := toDomainDelivery(&row)
	ds := []webhook.Delivery{d}
	if err := s.withEventIDs(ctx, ds); err != nil {
		return nil, err
	}
	return &ds[0], nil
}

func (s *WebhookStore) Event(ctx context.Context, id uint64) (*webhook.Event, error) {
	var row webhookEventRow
	if err := s.Conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, webhook.ErrNotFound
		}
		return nil, fmt.Errorf("find webhook event %d: %w", id, sqlbase.Translate(err))
	}
	e, _ := toDomainEvent(&row)
	return &e, nil
}

func (s *WebhookStore) Attempts(ctx context.Context, deliveryID uint64, limit int) ([]webhook.Attempt, error) {
	var rows []webhookAttemptRow
	if err := s.Conn(ctx).Where("delivery_id = ?", deliveryID).Order("id DESC").Limit(limit).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list attempts of webhook delivery %d: %w", deliveryID, sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainAttempt)
}

func (s *WebhookStore) List(ctx context.Context, f webhook.Filter) ([]webhook.Delivery, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.EventType != "" {
			q = q.Where("event_type = ?", string(f.EventType))
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
	ds, total, err := sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "webhook deliveries", toDomainDelivery)
	if err != nil {
		return nil, 0, err
	}
	if err := s.withEventIDs(ctx, ds); err != nil {
		return nil, 0, err
	}
	return ds, total, nil
}

func (s *WebhookStore) Backlog(ctx context.Context) (int64, error) {
	var n int64
	if err := s.Conn(ctx).Model(&webhookDeliveryRow{}).Where("status = ?", string(webhook.StatusPending)).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count pending webhook deliveries: %w", sqlbase.Translate(err))
	}
	return n, nil
}
