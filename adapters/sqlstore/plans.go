package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/core/billing/plan"
	"paygate/core/platform/errs"
)

var (
	colPlanPrice = column{"monthly_price", 12, 2}
	colSubPrice  = column{"price", 12, 2}
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
	var w moneyWriter
	p := plan.Plan{ID: r.ID, Code: r.Code, Name: r.Name, MonthlyPrice: w.getPtr(colPlanPrice, r.MonthlyPrice),
		MonthlyCalls: r.MonthlyCalls, Public: r.Public, Status: plan.Status(r.Status),
		CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt)}
	if w.err != nil {
		return p, fmt.Errorf("plan %s: %w", r.Code, w.err)
	}
	if err := jsonFromDB("features", r.Features, &p.Features); err != nil {
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
	var w moneyWriter
	s := &plan.Subscription{ID: r.ID, UserID: r.UserID, PlanCode: r.PlanCode, Price: w.get(colSubPrice, r.Price),
		Period: r.Period, PeriodStart: timeFromDB(r.PeriodStart), PeriodEnd: timeFromDB(r.PeriodEnd),
		Status: plan.SubStatus(r.Status), PastDueSince: timePtrFromDB(r.PastDueSince), NextPlanCode: r.NextPlanCode,
		NextPrice: w.getPtr(colSubPrice, r.NextPrice), CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt)}
	if w.err != nil {
		return nil, fmt.Errorf("subscription of user %d: %w", r.UserID, w.err)
	}
	return s, nil
}

func toSubscriptionRow(s *plan.Subscription) (subscriptionRow, error) {
	var w moneyWriter
	r := subscriptionRow{ID: s.ID, UserID: s.UserID, PlanCode: s.PlanCode, Price: w.put(colSubPrice, s.Price),
		Period: s.Period, PeriodStart: stamp(s.PeriodStart), PeriodEnd: stamp(s.PeriodEnd), Status: string(s.Status),
		PastDueSince: timePtrToDB(s.PastDueSince), NextPlanCode: s.NextPlanCode, NextPrice: w.putPtr(colSubPrice, s.NextPrice),
		CreatedAt: stamp(s.CreatedAt), UpdatedAt: stamp(s.UpdatedAt)}
	return r, w.err
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
	var w moneyWriter
	p := &plan.Period{ID: r.ID, SubscriptionID: r.SubscriptionID, UserID: r.UserID, Period: r.Period, PlanCode: r.PlanCode,
		Amount: w.get(colAmount, r.Amount), Status: plan.PeriodStatus(r.Status), PaidAt: timePtrFromDB(r.PaidAt),
		CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt)}
	if w.err != nil {
		return nil, fmt.Errorf("period %s of user %d: %w", r.Period, r.UserID, w.err)
	}
	return p, nil
}

func toPeriodRow(p *plan.Period) (periodRow, error) {
	var w moneyWriter
	r := periodRow{ID: p.ID, SubscriptionID: p.SubscriptionID, UserID: p.UserID, Period: p.Period, PlanCode: p.PlanCode,
		Amount: w.put(colAmount, p.Amount), Status: string(p.Status), PaidAt: timePtrToDB(p.PaidAt),
		CreatedAt: stamp(p.CreatedAt), UpdatedAt: stamp(p.UpdatedAt)}
	return r, w.err
}

type planStore struct{ base }

var (
	_ plan.Catalog       = (*planStore)(nil)
	_ plan.Subscriptions = (*subscriptionStore)(nil)
)

func (s *planStore) List(ctx context.Context, publicOnly bool) ([]plan.Plan, error) {
	q := s.conn(ctx).Order("id")
	if publicOnly {
		q = q.Where("public = ? AND status = ?", true, string(plan.StatusActive))
	}
	var rows []planRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list plans: %w", translate(err))
	}
	return convertRows(rows, toDomainPlan)
}

func (s *planStore) ByCode(ctx context.Context, code string) (*plan.Plan, error) {
	var r planRow
	if err := s.conn(ctx).Where("code = ?", code).Take(&r).Error; err != nil {
		return nil, fmt.Errorf("plan %s: %w", code, errNotFoundOr(err, plan.ErrPlanNotFound))
	}
	p, err := toDomainPlan(&r)
	return &p, err
}

func (s *planStore) Create(ctx context.Context, p *plan.Plan) error {
	r, err := toPlanRow(p)
	if err != nil {
		return fmt.Errorf("create plan %s: %w", p.Code, err)
	}
	r.ID = 0
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		if msg, dup := duplicateOf(err); dup && mentions(msg, "plans_code_unique", "plans.code") {
			return plan.ErrCodeTaken.Wrap(err)
		}
		return fmt.Errorf("create plan %s: %w", p.Code, translate(err))
	}
	p.ID = r.ID
	return nil
}

func toPlanRow(p *plan.Plan) (planRow, error) {
	var w moneyWriter
	price := w.putPtr(colPlanPrice, p.MonthlyPrice)
	if w.err != nil {
		return planRow{}, w.err
	}
	features, err := jsonToDB("features", p.Features)
	if err != nil {
		return planRow{}, err
	}
	created, updated := dbTime(p.CreatedAt), dbTime(p.UpdatedAt)
	return planRow{ID: p.ID, Code: p.Code, Name: p.Name, MonthlyPrice: price, MonthlyCalls: p.MonthlyCalls, Features: features,
		Public: p.Public, Status: string(p.Status), CreatedAt: &created, UpdatedAt: &updated}, nil
}

func (s *planStore) Update(ctx context.Context, p *plan.Plan) error {
	r, err := toPlanRow(p)
	if err != nil {
		return fmt.Errorf("update plan %s: %w", p.Code, err)
	}
	res := s.conn(ctx).Model(&planRow{}).Where("code = ?", p.Code).Updates(map[string]any{
		"name": r.Name, "monthly_price": r.MonthlyPrice, "monthly_calls": r.MonthlyCalls, "features": r.Features,
		"public": r.Public, "status": r.Status, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("update plan %s: %w", p.Code, translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return plan.ErrPlanNotFound
	}
	if err := s.conn(ctx).Exec("UPDATE users SET plan_monthly_calls = ? WHERE plan = ?", p.MonthlyCalls, p.Code).Error; err != nil {
		return fmt.Errorf("allowance of plan %s: %w", p.Code, translate(err))
	}
	return nil
}

type subscriptionStore struct{ base }

// openBatch bounds the users one Open statement gives a subscription.
const openBatch = 500

// Open first finds the users without a subscription with a plain read (no
// lock: in steady state there are none, and a locking INSERT … SELECT over
// every user would take shared locks on the rows metered calls lock), then
// inserts theirs, a batch at a time.
func (s *subscriptionStore) Open(ctx context.Context, period string, start, end, now time.Time) (int, error) {
	now = dbTime(now)
	total := 0
	for {
		var ids []uint64
		err := s.conn(ctx).Raw("SELECT u.id FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id WHERE s.id IS NULL ORDER BY u.id LIMIT ?",
			openBatch).Scan(&ids).Error
		if err != nil {
			return total, fmt.Errorf("users without a subscription: %w", translate(err))
		}
		if len(ids) == 0 {
			return total, nil
		}
		res := s.conn(ctx).Exec(s.insertIgnore()+"subscriptions (user_id, plan_code, price, period, period_start, period_end, status, created_at, updated_at) "+
			"SELECT u.id, u.plan, COALESCE(p.monthly_price, '0.00'), ?, ?, ?, ?, ?, ? FROM users u JOIN plans p ON p.code = u.plan WHERE u.id IN ?",
			period, dbTime(start), dbTime(end), string(plan.SubActive), now, now, ids)
		if res.Error != nil {
			return total, fmt.Errorf("open subscriptions: %w", translate(res.Error))
		}
		// Their first period is waived: nothing is charged retroactively.
		err = s.conn(ctx).Exec(s.insertIgnore()+"subscription_periods (subscription_id, user_id, period, plan_code, amount, status, created_at, updated_at) "+
			"SELECT s.id, s.user_id, s.period, s.plan_code, '0.00', ?, ?, ? FROM subscriptions s WHERE s.user_id IN ? "+
			"AND NOT EXISTS (SELECT 1 FROM subscription_periods sp WHERE sp.user_id = s.user_id AND sp.period = s.period)",
			string(plan.PeriodWaived), now, now, ids).Error
		if err != nil {
			return total, fmt.Errorf("open first periods: %w", translate(err))
		}
		total += int(res.RowsAffected)
		if res.RowsAffected == 0 || len(ids) < openBatch {
			// Nothing inserted: another instance opened them, or their plan
			// has no row (left for an operator; not retried in a loop).
			return total, nil
		}
	}
}

func (s *subscriptionStore) byUser(ctx context.Context, lock bool, userID uint64) (*plan.Subscription, error) {
	q := s.conn(ctx)
	if lock {
		q = s.locking(q)
	}
	var r subscriptionRow
	if err := q.Where("user_id = ?", userID).Take(&r).Error; err != nil {
		return nil, fmt.Errorf("subscription of user %d: %w", userID, errNotFoundOr(err, plan.ErrNoSubscription))
	}
	return toDomainSubscription(&r)
}

func (s *subscriptionStore) ByUser(ctx context.Context, userID uint64) (*plan.Subscription, error) {
	return s.byUser(ctx, false, userID)
}

func (s *subscriptionStore) LockByUser(ctx context.Context, userID uint64) (*plan.Subscription, error) {
	return s.byUser(ctx, true, userID)
}

func (s *subscriptionStore) Save(ctx context.Context, sub *plan.Subscription) error {
	r, err := toSubscriptionRow(sub)
	if err != nil {
		return fmt.Errorf("save subscription of user %d: %w", sub.UserID, err)
	}
	res := s.conn(ctx).Model(&subscriptionRow{}).Where("id = ?", sub.ID).Updates(map[string]any{
		"plan_code": r.PlanCode, "price": r.Price, "period": r.Period, "period_start": r.PeriodStart,
		"period_end": r.PeriodEnd, "status": r.Status, "past_due_since": r.PastDueSince,
		"next_plan_code": r.NextPlanCode, "next_price": r.NextPrice, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("save subscription of user %d: %w", sub.UserID, translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return plan.ErrNoSubscription
	}
	return nil
}

func (s *subscriptionStore) Behind(ctx context.Context, period string, after uint64, limit int) ([]uint64, error) {
	ids := []uint64{}
	err := s.conn(ctx).Table("subscriptions s").Joins("JOIN users u ON u.id = s.user_id").
		Where("s.period < ? AND s.status = ? AND s.user_id > ? AND u.deleted_at IS NULL", period, string(plan.SubActive), after).
		Order("s.user_id").Limit(limit).Pluck("s.user_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("subscriptions behind %s: %w", period, translate(err))
	}
	return ids, nil
}

func (s *subscriptionStore) PastDue(ctx context.Context, after uint64, limit int) ([]uint64, error) {
	ids := []uint64{}
	err := s.conn(ctx).Model(&subscriptionRow{}).Where("status = ? AND user_id > ?", string(plan.SubPastDue), after).
		Order("user_id").Limit(limit).Pluck("user_id", &ids).Error
	if err != nil {
		return nil, fmt.Errorf("past-due subscriptions: %w", translate(err))
	}
	return ids, nil
}

func (s *subscriptionStore) InsertPeriod(ctx context.Context, p *plan.Period) (bool, error) {
	r, err := toPeriodRow(p)
	if err != nil {
		return false, fmt.Errorf("insert period %s of user %d: %w", p.Period, p.UserID, err)
	}
	r.ID = 0
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		if _, dup := duplicateOf(err); dup {
			return false, nil
		}
		return false, fmt.Errorf("insert period %s of user %d: %w", p.Period, p.UserID, translate(err))
	}
	p.ID = r.ID
	return true, nil
}

func (s *subscriptionStore) SavePeriod(ctx context.Context, p *plan.Period) error {
	r, err := toPeriodRow(p)
	if err != nil {
		return fmt.Errorf("save period %d: %w", p.ID, err)
	}
	res := s.conn(ctx).Model(&periodRow{}).Where("id = ?", p.ID).Updates(map[string]any{
		"plan_code": r.PlanCode, "amount": r.Amount, "status": r.Status, "paid_at": r.PaidAt, "updated_at": r.UpdatedAt,
	})
	if res.Error != nil {
		return fmt.Errorf("save period %d: %w", p.ID, translate(res.Error))
	}
	return nil
}

var errPeriodNotFound = errs.E(errs.NotFound, "period_not_found", "Subscription period not found")

func (s *subscriptionStore) PeriodOf(ctx context.Context, userID uint64, period string) (*plan.Period, error) {
	var r periodRow
	if err := s.conn(ctx).Where("user_id = ? AND period = ?", userID, period).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, errPeriodNotFound
		}
		return nil, fmt.Errorf("period %s of user %d: %w", period, userID, translate(err))
	}
	return toDomainPeriod(&r)
}

func (s *subscriptionStore) Periods(ctx context.Context, userID uint64) ([]plan.Period, error) {
	var rows []periodRow
	if err := s.conn(ctx).Where("user_id = ?", userID).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("periods of user %d: %w", userID, translate(err))
	}
	return convertRows(rows, func(r *periodRow) (plan.Period, error) {
		p, err := toDomainPeriod(r)
		if err != nil {
			return plan.Period{}, err
		}
		return *p, nil
	})
}
