package billingstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/billing/plan"
	"paygate/core/platform/errs"
)

var (
	colPlanPrice = sqlbase.Column{Name: "monthly_price", Total: 12, Places: 2}
	colSubPrice  = sqlbase.Column{Name: "price", Total: 12, Places: 2}
)

type planRow struct {
	ID           uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	Code         string     `gorm:"column:code"`
	Name         string     `gorm:"column:name"`
	MonthlyPrice *string    `gorm:"column:monthly_price"`
	MonthlyCalls *int       `gorm:"column:monthly_calls"`
	Features     string     `gorm:"column:features"`
	Public       bool       `gorm:"column:public"`
	Status       string     `gorm:"column:status"`
	CreatedAt    *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt    *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (planRow) TableName() string { return "plans" }

func toDomainPlan(r *planRow) (plan.Plan, error) {
	var w sqlbase.MoneyWriter
	p := plan.Plan{ID: r.ID, Code: r.Code, Name: r.Name, MonthlyPrice: w.GetPtr(colPlanPrice, r.MonthlyPrice),
		MonthlyCalls: r.MonthlyCalls, Public: r.Public, Status: plan.Status(r.Status),
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
	if w.Err != nil {
		return p, fmt.Errorf("plan %s: %w", r.Code, w.Err)
	}
	if err := sqlbase.JSONFromDB("features", r.Features, &p.Features); err != nil {
		return p, fmt.Errorf("plan %s: %w", r.Code, err)
	}
	return p, nil
}

type subscriptionRow struct {
	ID           uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID       uint64     `gorm:"column:user_id"`
	PlanCode     string     `gorm:"column:plan_code"`
	Price        string     `gorm:"column:price"`
	Period       string     `gorm:"column:period"`
	PeriodStart  *time.Time `gorm:"column:period_start"`
	PeriodEnd    *time.Time `gorm:"column:period_end"`
	Status       string     `gorm:"column:status"`
	PastDueSince *time.Time `gorm:"column:past_due_since"`
	NextPlanCode *string    `gorm:"column:next_plan_code"`
	NextPrice    *string    `gorm:"column:next_price"`
	CreatedAt    *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt    *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (subscriptionRow) TableName() string { return "subscriptions" }

func toDomainSubscription(r *subscriptionRow) (*plan.Subscription, error) {
	var w sqlbase.MoneyWriter
	s := &plan.Subscription{ID: r.ID, UserID: r.UserID, PlanCode: r.PlanCode, Price: w.Get(colSubPrice, r.Price),
		Period: r.Period, PeriodStart: sqlbase.TimeFromDB(r.PeriodStart), PeriodEnd: sqlbase.TimeFromDB(r.PeriodEnd),
		Status: plan.SubStatus(r.Status), PastDueSince: sqlbase.TimePtrFromDB(r.PastDueSince), NextPlanCode: r.NextPlanCode,
		NextPrice: w.GetPtr(colSubPrice, r.NextPrice), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
	if w.Err != nil {
		return nil, fmt.Errorf("subscription of user %d: %w", r.UserID, w.Err)
	}
	return s, nil
}

func toSubscriptionRow(s *plan.Subscription) (subscriptionRow, error) {
	var w sqlbase.MoneyWriter
	r := subscriptionRow{ID: s.ID, UserID: s.UserID, PlanCode: s.PlanCode, Price: w.Put(colSubPrice, s.Price),
		Period: s.Period, PeriodStart: sqlbase.Stamp(s.PeriodStart), PeriodEnd: sqlbase.Stamp(s.PeriodEnd), Status: string(s.Status),
		PastDueSince: sqlbase.TimePtrToDB(s.PastDueSince), NextPlanCode: s.NextPlanCode, NextPrice: w.PutPtr(colSubPrice, s.NextPrice),
		CreatedAt: sqlbase.Stamp(s.CreatedAt), UpdatedAt: sqlbase.Stamp(s.UpdatedAt)}
	return r, w.Err
}

type periodRow struct {
	ID             uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	SubscriptionID uint64     `gorm:"column:subscription_id"`
	UserID         uint64     `gorm:"column:user_id"`
	Period         string     `gorm:"column:period"`
	PlanCode       string     `gorm:"column:plan_code"`
	Amount         string     `gorm:"column:amount"`
	Status         string     `gorm:"column:status"`
	PaidAt         *time.Time `gorm:"column:paid_at"`
	CreatedAt      *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt      *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (periodRow) TableName() string { return "subscription_periods" }

func toDomainPeriod(r *periodRow) (*plan.Period, error) {
	var w sqlbase.MoneyWriter
	p := &plan.Period{ID: r.ID, SubscriptionID: r.SubscriptionID, UserID: r.UserID, Period: r.Period, PlanCode: r.PlanCode,
		Amount: w.Get(sqlbase.ColAmount, r.Amount), Status: plan.PeriodStatus(r.Status), PaidAt: sqlbase.TimePtrFromDB(r.PaidAt),
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
	if w.Err != nil {
		return nil, fmt.Errorf("period %s of user %d: %w", r.Period, r.UserID, w.Err)
	}
	return p, nil
}

func toPeriodRow(p *plan.Period) (periodRow, error) {
	var w sqlbase.MoneyWriter
	r := periodRow{ID: p.ID, SubscriptionID: p.SubscriptionID, UserID: p.UserID, Period: p.Period, PlanCode: p.PlanCode,
		Amount: w.Put(sqlbase.ColAmount, p.Amount), Status: string(p.Status), PaidAt: sqlbase.TimePtrToDB(p.PaidAt),
		CreatedAt: sqlbase.Stamp(p.CreatedAt), UpdatedAt: sqlbase.Stamp(p.UpdatedAt)}
	return r, w.Err
}

// PlanStore is the database's plan.Catalog.
type PlanStore struct{ sqlbase.Base }

var (
	_ plan.Catalog       = (*PlanStore)(nil)
	_ plan.Subscriptions = (*SubscriptionStore)(nil)
)

func (s *PlanStore) List(ctx context.Context, publicOnly bool) ([]plan.Plan, error) {
	q := s.Conn(ctx).Order("id")
	if publicOnly {
		q = q.Where("public = ? AND status = ?", true, string(plan.StatusActive))
	}
	var rows []planRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list plans: %w", sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainPlan)
}

func (s *PlanStore) ByCode(ctx context.Context, code string) (*plan.Plan, error) {
	var r planRow
	if err := s.Conn(ctx).Where("code = ?", code).Take(&r).Error; err != nil {
		return nil, fmt.Errorf("plan %s: %w", code, sqlbase.ErrNotFoundOr(err, plan.ErrPlanNotFound))
	}
	p, err := toDomainPlan(&r)
	return &p, err
}

func (s *PlanStore) Create(ctx context.Context, p *plan.Plan) error {
	r, err := toPlanRow(p)
	if err != nil {
		return fmt.Errorf("create plan %s: %w", p.Code, err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		if msg, dup := sqlbase.DuplicateOf(err); dup && sqlbase.Mentions(msg, "plans_code_unique", "plans.code") {
			return plan.ErrCodeTaken.Wrap(err)
		}
		return fmt.Errorf("create plan %s: %w", p.Code, sqlbase.Translate(err))
	}
	p.ID = r.ID
	return nil
}

func toPlanRow(p *plan.Plan) (planRow, error) {
	var w sqlbase.MoneyWriter
	price := w.PutPtr(colPlanPrice, p.MonthlyPrice)
	if w.Err != nil {
		return planRow{}, w.Err
	}
	features, err := sqlbase.JSONToDB("features", p.Features)
	if err != nil {
		return planRow{}, err
	}
	created, updated := sqlbase.DBTime(p.CreatedAt), sqlbase.DBTime(p.UpdatedAt)
	return planRow{ID: p.ID, Code: p.Code, Name: p.Name, MonthlyPrice: price, MonthlyCalls: p.MonthlyCalls, Features: features,
		Public: p.Public, Status: string(p.Status), CreatedAt: &created, UpdatedAt: &updated}, nil
}

func (s *PlanStore) Update(ctx context.Context, p *plan.Plan) error {
	r, err := toPlanRow(p)
	if err != nil {
		return fmt.Errorf("update plan %s: %w", p.Code, err)
	}
	res := s.Conn(ctx).Model(&planRow{}).Where("code = ?", p.Code).Updates(map[string]any{
		"name": r.Name, "monthly_price": r.MonthlyPrice, "monthly_calls": r.MonthlyCalls, "features": r.Features,
		"public": r.Public, "status": r.Status, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("update plan %s: %w", p.Code, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return plan.ErrPlanNotFound
	}
	if err := s.Conn(ctx).Exec("UPDATE users SET plan_monthly_calls = ? WHERE plan = ?", p.MonthlyCalls, p.Code).Error; err != nil {
		return fmt.Errorf("allowance of plan %s: %w", p.Code, sqlbase.Translate(err))
	}
	return nil
}

// SubscriptionStore is the database's plan.Subscriptions.
type SubscriptionStore struct{ sqlbase.Base }

// openBatch bounds the users one Open statement gives a subscription.
const openBatch = 500

// Open first finds the users without a subscription with a plain read (no
// lock: in steady state there are none, and a locking INSERT … SELECT over
// every user would take shared locks on the rows metered calls lock), then
// inserts theirs, a batch at a time.
func (s *SubscriptionStore) Open(ctx context.Context, period string, start, end, now time.Time) (int, error) {
	now = sqlbase.DBTime(now)
	total := 0
	for {
		var ids []uint64
		err := s.Conn(ctx).Raw("SELECT u.id FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id WHERE s.id IS NULL ORDER BY u.id LIMIT ?",
			openBatch).Scan(&ids).Error
		if err != nil {
			return total, fmt.Errorf("users without a subscription: %w", sqlbase.Translate(err))
		}
		if len(ids) == 0 {
			return total, nil
		}
		res := s.Conn(ctx).Exec(s.InsertIgnore()+"subscriptions (user_id, plan_code, price, period, period_start, period_end, status, created_at, updated_at) "+
			"SELECT u.id, u.plan, COALESCE(p.monthly_price, '0.00'), ?, ?, ?, ?, ?, ? FROM users u JOIN plans p ON p.code = u.plan WHERE u.id IN ?",
			period, sqlbase.DBTime(start), sqlbase.DBTime(end), string(plan.SubActive), now, now, ids)
		if res.Error != nil {
			return total, fmt.Errorf("open subscriptions: %w", sqlbase.Translate(res.Error))
		}
		// Their first period is waived: nothing is charged retroactively.
		err = s.Conn(ctx).Exec(s.InsertIgnore()+"subscription_periods (subscription_id, user_id, period, plan_code, amount, status, created_at, updated_at) "+
			"SELECT s.id, s.user_id, s.period, s.plan_code, '0.00', ?, ?, ? FROM subscriptions s WHERE s.user_id IN ? "+
			"AND NOT EXISTS (SELECT 1 FROM subscription_periods sp WHERE sp.user_id = s.user_id AND sp.period = s.period)",
			string(plan.PeriodWaived), now, now, ids).Error
		if err != nil {
			return total, fmt.Errorf("open first periods: %w", sqlbase.Translate(err))
		}
		total += int(res.RowsAffected)
		if res.RowsAffected == 0 || len(ids) < openBatch {
			// Nothing inserted: another instance opened them, or their plan
			// has no row (left for an operator; not retried in a loop).
			return total, nil
		}
	}
}

func (s *SubscriptionStore) byUser(ctx context.Context, lock bool, userID uint64) (*plan.Subscription, error) {
	q := s.Conn(ctx)
	if lock {
		q = s.Locking(q)
	}
	var r subscriptionRow
	if err := q.Where("user_id = ?", userID).Take(&r).Error; err != nil {
		return nil, fmt.Errorf("subscription of user %d: %w", userID, sqlbase.ErrNotFoundOr(err, plan.ErrNoSubscription))
	}
	return toDomainSubscription(&r)
}

func (s *SubscriptionStore) ByUser(ctx context.Context, userID uint64) (*plan.Subscription, error) {
	return s.byUser(ctx, false, userID)
}

func (s *SubscriptionStore) LockByUser(ctx context.Context, userID uint64) (*plan.Subscription, error) {
	return s.byUser(ctx, true, userID)
}

func (s *SubscriptionStore) Save(ctx context.Context, sub *plan.Subscription) error {
	r, err := toSubscriptionRow(sub)
	if err != nil {
		return fmt.Errorf("save subscription of user %d: %w", sub.UserID, err)
	}
	res := s.Conn(ctx).Model(&subscriptionRow{}).Where("id = ?", sub.ID).Updates(map[string]any{
		"plan_code": r.PlanCode, "price": r.Price, "period": r.Period, "period_start": r.PeriodStart,
		"period_end": r.PeriodEnd, "status": r.Status, "past_due_since": r.PastDueSince,
		"next_plan_code": r.NextPlanCode, "next_price": r.NextPrice, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("save subscription of user %d: %w", sub.UserID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return plan.ErrNoSubscription
	}
	return nil
}

func (s *SubscriptionStore) Behind(ctx context.Context, period string, after uint64, limit int) ([]uint64, error) {
	ids := []uint64{}
	err := s.Conn(ctx).Table("subscriptions s").Joins("JOIN users u ON u.id = s.user_id").
		Where("s.period < ? AND s.status = ? AND s.user_id > ? AND u.deleted_at IS NULL", period, string(plan.SubActive), after).
		Order("s.user_id").Limit(limit).Pluck("s.user_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("subscriptions behind %s: %w", period, sqlbase.Translate(err))
	}
	return ids, nil
}

func (s *SubscriptionStore) PastDue(ctx context.Context, after uint64, limit int) ([]uint64, error) {
	ids := []uint64{}
	err := s.Conn(ctx).Model(&subscriptionRow{}).Where("status = ? AND user_id > ?", string(plan.SubPastDue), after).
		Order("user_id").Limit(limit).Pluck("user_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("past-due subscriptions: %w", sqlbase.Translate(err))
	}
	return ids, nil
}

func (s *SubscriptionStore) InsertPeriod(ctx context.Context, p *plan.Period) (bool, error) {
	r, err := toPeriodRow(p)
	if err != nil {
		return false, fmt.Errorf("insert period %s of user %d: %w", p.Period, p.UserID, err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return false, nil
		}
		return false, fmt.Errorf("insert period %s of user %d: %w", p.Period, p.UserID, sqlbase.Translate(err))
	}
	p.ID = r.ID
	return true, nil
}

func (s *SubscriptionStore) SavePeriod(ctx context.Context, p *plan.Period) error {
	r, err := toPeriodRow(p)
	if err != nil {
		return fmt.Errorf("save period %d: %w", p.ID, err)
	}
	res := s.Conn(ctx).Model(&periodRow{}).Where("id = ?", p.ID).Updates(map[string]any{
		"plan_code": r.PlanCode, "amount": r.Amount, "status": r.Status, "paid_at": r.PaidAt, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("save period %d: %w", p.ID, sqlbase.Translate(res.Error))
	}
	return nil
}

var errPeriodNotFound = errs.E(errs.NotFound, "period_not_found", "Subscription period not found")

func (s *SubscriptionStore) PeriodOf(ctx context.Context, userID uint64, period string) (*plan.Period, error) {
	var r periodRow
	if err := s.Conn(ctx).Where("user_id = ? AND period = ?", userID, period).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, errPeriodNotFound
		}
		return nil, fmt.Errorf("period %s of user %d: %w", period, userID, sqlbase.Translate(err))
	}
	return toDomainPeriod(&r)
}

func (s *SubscriptionStore) Periods(ctx context.Context, userID uint64) ([]plan.Period, error) {
	var rows []periodRow
	if err := s.Conn(ctx).Where("user_id = ?", userID).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("periods of user %d: %w", userID, sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, func(r *periodRow) (plan.Period, error) {
		p, err := toDomainPeriod(r)
		if err != nil {
			return plan.Period{}, err
		}
		return *p, nil
	})
}
