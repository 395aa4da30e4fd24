package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
)

type userRow struct {
	ID              uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	Name            string     `gorm:"column:name"`
	Email           string     `gorm:"column:email"`
	Phone           string     `gorm:"column:phone"`
	Password        string     `gorm:"column:password"`
	Role            string     `gorm:"column:role"`
	Status          string     `gorm:"column:status"`
	Plan            string     `gorm:"column:plan"`
	PlanMonth       *string    `gorm:"column:plan_month"`
	PlanCalls       int        `gorm:"column:plan_calls"`
	MonthlyCalls    *int       `gorm:"column:plan_monthly_calls"`
	Balance         string     `gorm:"column:balance"`
	TotalSpent      string     `gorm:"column:total_spent"`
	HeldAmount      string     `gorm:"column:held_amount"`
	LowBalanceAlert *string    `gorm:"column:low_balance_alert"`
	FeePercent      string     `gorm:"column:collection_fee_percent"`
	PayoutLimit     string     `gorm:"column:daily_payout_limit"`
	APIKey          *string    `gorm:"column:api_key"`
	APISecret       *string    `gorm:"column:api_secret"`
	WebhookURL      *string    `gorm:"column:webhook_url"`
	IPAddress       *string    `gorm:"column:ip_address"`
	EmailVerifiedAt *time.Time `gorm:"column:email_verified_at"`
	RememberToken   *string    `gorm:"column:remember_token"`
	CreatedAt       *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt       *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
	DeletedAt       *time.Time `gorm:"column:deleted_at"`
	ParentID        *uint64    `gorm:"column:parent_id"`
}

func (userRow) TableName() string { return "users" }

// userRowColumns are userRow's columns in field order. The batch's locked
// read selects and scans them (userColumns, fields) and the optimistic
// batch's guard compares them (snapshotMatch), so a column added to userRow
// is read and checked with no other list to update.
var userRowColumns = rowColumns[userRow]()

// userColumns are userRowColumns for a SELECT that scans without GORM (the
// metering batch's user locks).
var userColumns = columnNames(userRowColumns)

// fields are the scan destinations of userColumns.
func (r *userRow) fields() []any { return fieldPointers(r, userRowColumns) }

func toUserRow(u *user.User) (userRow, error) {
	var w moneyWriter
	r := userRow{
		ID:              u.ID,
		Name:            u.Name,
		Email:           u.Email,
		Phone:           u.Phone,
		Password:        u.PasswordHash,
		Role:            string(u.Role),
		Status:          string(u.Status),
		Plan:            string(u.Plan),
		PlanMonth:       nullString(u.PlanMonth),
		PlanCalls:       u.PlanCalls,
		MonthlyCalls:    u.MonthlyCalls,
		Balance:         w.put(colBalance, u.Balance),
		TotalSpent:      w.put(colSpent, u.TotalSpent),
		HeldAmount:      w.put(colHeld, u.HeldAmount),
		LowBalanceAlert: w.putPtr(colLowBalance, u.LowBalanceAlert),
		FeePercent:      w.put(colFeePercent, u.CollectionFeePercent),
		PayoutLimit:     w.put(colPayoutLimit, u.DailyPayoutLimit),
		APIKey:          u.APIKey,
		APISecret:       u.WebhookSecret,
		WebhookURL:      u.WebhookURL,
		IPAddress:       u.IPAddress,
		EmailVerifiedAt: timePtrToDB(u.EmailVerifiedAt),
		CreatedAt:       stamp(u.CreatedAt),
		UpdatedAt:       stamp(u.UpdatedAt),
		DeletedAt:       timePtrToDB(u.DeletedAt),
		ParentID:        u.ParentID,
	}
	if r.Role == "" {
		r.Role = string(user.RoleUser)
	}
	if r.Status == "" {
		r.Status = string(user.StatusPending)
	}
	if r.Plan == "" {
		r.Plan = string(user.PlanStarter)
	}
	return r, w.err
}

func toDomainUser(r *userRow) (*user.User, error) {
	var w moneyWriter
	u := &user.User{
		ID:                   r.ID,
		Name:                 r.Name,
		Email:                r.Email,
		Phone:                r.Phone,
		PasswordHash:         r.Password,
		Role:                 user.Role(r.Role),
		Status:               user.Status(r.Status),
		Plan:                 user.Plan(r.Plan),
		Balance:              w.get(colBalance, r.Balance),
		TotalSpent:           w.get(colSpent, r.TotalSpent),
		HeldAmount:           w.get(colHeld, r.HeldAmount),
		PlanMonth:            deref(r.PlanMonth),
		PlanCalls:            r.PlanCalls,
		MonthlyCalls:         r.MonthlyCalls,
		APIKey:               r.APIKey,
		WebhookSecret:        r.APISecret,
		WebhookURL:           r.WebhookURL,
		LowBalanceAlert:      w.getPtr(colLowBalance, r.LowBalanceAlert),
		CollectionFeePercent: w.get(colFeePercent, r.FeePercent),
		DailyPayoutLimit:     w.get(colPayoutLimit, r.PayoutLimit),
		IPAddress:            r.IPAddress,
		EmailVerifiedAt:      timePtrFromDB(r.EmailVerifiedAt),
		CreatedAt:            timeFromDB(r.CreatedAt),
		UpdatedAt:            timeFromDB(r.UpdatedAt),
		DeletedAt:            timePtrFromDB(r.DeletedAt),
		ParentID:             r.ParentID,
	}
	if w.err != nil {
		return nil, fmt.Errorf("user %d: %w", r.ID, w.err)
	}
	return u, nil
}

type userStore struct{ base }

var _ user.Repository = (*userStore)(nil)

// userWriteError names which unique key refused a user.
func userWriteError(op string, err error) error {
	if msg, dup := duplicateOf(err); dup {
		switch {
		case mentions(msg, "users_email_unique", "users.email"):
			return user.ErrEmailTaken.Wrap(err)
		case mentions(msg, "users_phone_unique", "users.phone"):
			return user.ErrPhoneTaken.Wrap(err)
		}
	}
	return fmt.Errorf("%s: %w", op, translate(err))
}

func (s *userStore) Create(ctx context.Context, u *user.User) error {
	r, err := sealedUserRow(s.base, u)
	if err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	r.ID = 0
	if r.MonthlyCalls, err = planAllowance(s.base, ctx, r.Plan); err != nil {
		return err
	}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return userWriteError("create user", err)
	}
	u.ID, u.MonthlyCalls = r.ID, r.MonthlyCalls
	u.CreatedAt, u.UpdatedAt = timeFromDB(r.CreatedAt), timeFromDB(r.UpdatedAt)
	return nil
}

func (s *userStore) find(ctx context.Context, lock bool, where string, arg any) (*user.User, error) {
	r, err := s.findRow(ctx, lock, where, arg)
	if err != nil {
		return nil, err
	}
	return openUser(s.base, r)
}

// findRow reads a user's row as stored (its secret sealed).
func (s *userStore) findRow(ctx context.Context, lock bool, where string, arg any) (*userRow, error) {
	q := s.conn(ctx)
	if lock {
		q = s.locking(q)
	}
	var r userRow
	if err := q.Where(where, arg).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, user.ErrNotFound
		}
		return nil, fmt.Errorf("find user: %w", translate(err))
	}
	return &r, nil
}

// sealedUserRow is u's row as stored: its webhook signing secret sealed.
func sealedUserRow(b base, u *user.User) (userRow, error) {
	r, err := toUserRow(u)
	if err != nil {
		return r, err
	}
	r.APISecret, err = b.sealPtr("api_secret", r.APISecret)
	return r, err
}

// openUser is the user of a row as stored: its webhook signing secret opened.
func openUser(b base, r *userRow) (*user.User, error) {
	u, err := toDomainUser(r)
	if err != nil {
		return nil, err
	}
	if u.WebhookSecret, err = b.openPtr("api_secret", r.APISecret); err != nil {
		return nil, fmt.Errorf("user %d: %w", r.ID, err)
	}
	return u, nil
}

func (s *userStore) ByID(ctx context.Context, id uint64) (*user.User, error) {
	return s.find(ctx, false, "id = ?", id)
}

func (s *userStore) ByEmail(ctx context.Context, email string) (*user.User, error) {
	return s.find(ctx, false, "email = ?", email)
}

func (s *userStore) ByPhone(ctx context.Context, phone string) (*user.User, error) {
	return s.find(ctx, false, "phone = ?", phone)
}

func (s *userStore) LockByID(ctx context.Context, id uint64) (*user.User, error) {
	return s.find(ctx, true, "id = ?", id)
}

func (s *userStore) Update(ctx context.Context, u *user.User) error {
	r, err := sealedUserRow(s.base, u)
	if err != nil {
		return fmt.Errorf("update user %d: %w", u.ID, err)
	}
	cols := map[string]any{
		"name":                   r.Name,
		"phone":                  r.Phone,
		"password":               r.Password,
		"role":                   r.Role,
		"status":                 r.Status,
		"plan":                   r.Plan,
		"plan_monthly_calls":     gorm.Expr("(SELECT monthly_calls FROM plans WHERE code = ?)", r.Plan),
		"api_key":                r.APIKey,
		"api_secret":             r.APISecret,
		"webhook_url":            r.WebhookURL,
		"low_balance_alert":      r.LowBalanceAlert,
		"collection_fee_percent": r.FeePercent,
		"daily_payout_limit":     r.PayoutLimit,
		"email_verified_at":      r.EmailVerifiedAt,
		"deleted_at":             r.DeletedAt,
		"updated_at":             r.UpdatedAt,
	}
	// parent_id is set on creation and only ever cleared (user.Detach):
	// a copy read before a detach cannot bring the reseller back.
	if u.ParentID == nil {
		cols["parent_id"] = nil
	}
	res := s.conn(ctx).Model(&userRow{}).Where("id = ?", u.ID).Updates(cols)
	if res.Error != nil {
		return userWriteError(fmt.Sprintf("update user %d", u.ID), res.Error)
	}
	if res.RowsAffected == 0 {
		return user.ErrNotFound
	}
	u.UpdatedAt = timeFromDB(r.UpdatedAt)
	if u.MonthlyCalls, err = planAllowance(s.base, ctx, r.Plan); err != nil {
		return err
	}
	return nil
}

// planAllowance is the monthly allowance of plan code (nil: unlimited), the
// value users.plan_monthly_calls carries: the store writes it with the
// plan, so the metered call reads it from the row it locks anyway.
func planAllowance(b base, ctx context.Context, code string) (*int, error) {
	var rows []struct{ MonthlyCalls *int }
	if err := b.conn(ctx).Raw("SELECT monthly_calls FROM plans WHERE code = ?", code).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("allowance of plan %s: %w", code, translate(err))
	}
	if len(rows) == 0 {
		return nil, plan.ErrPlanNotFound
	}
	return rows[0].MonthlyCalls, nil
}

// balanceValues are the columns SaveBalance writes for u, updated at now.
func balanceValues(u *user.User, now time.Time) (map[string]any, error) {
	var w moneyWriter
	values := map[string]any{
		"balance":     w.put(colBalance, u.Balance),
		"total_spent": w.put(colSpent, u.TotalSpent),
		"held_amount": w.put(colHeld, u.HeldAmount),
		"plan_month":  nullString(u.PlanMonth),
		"plan_calls":  u.PlanCalls,
		"updated_at":  now,
	}
	if w.err != nil {
		return nil, fmt.Errorf("save balance of user %d: %w", u.ID, w.err)
	}
	return values, nil
}

func (s *userStore) SaveBalance(ctx context.Context, u *user.User) error {
	now := dbTime(time.Now())
	values, err := balanceValues(u, now)
	if err != nil {
		return err
	}
	res := s.conn(ctx).Model(&userRow{}).Where("id = ?", u.ID).Updates(values)
	if res.Error != nil {
		return fmt.Errorf("save balance of user %d: %w", u.ID, translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return user.ErrNotFound
	}
	u.UpdatedAt = now
	return nil
}

// List lists accounts that are not soft-deleted, newest first.
func (s *userStore) List(ctx context.Context, f user.Filter) ([]user.User, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		q = q.Where("deleted_at IS NULL")
		if f.Role != "" {
			q = q.Where("role = ?", string(f.Role))
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Q != "" {
			p := likePattern(f.Q)
			q = q.Where("(name LIKE ?"+likeEscape+" OR email LIKE ?"+likeEscape+" OR phone LIKE ?"+likeEscape+")", p, p, p)
		}
		if f.ParentID != nil {
			q = q.Where("parent_id = ?", *f.ParentID)
		}
		return q
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "users", func(r *userRow) (user.User, error) {
		v, err := openUser(s.base, r)
		if err != nil {
			return user.User{}, err
		}
		return *v, nil
	})
}

func (s *userStore) IDs(ctx context.Context) ([]uint64, error) {
	ids := []uint64{}
	if err := s.conn(ctx).Model(&userRow{}).Order("id").Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("list user ids: %w", translate(err))
	}
	return ids, nil
}

// CountByRole counts accounts of a role that are not soft-deleted.
func (s *userStore) CountByRole(ctx context.Context, role user.Role) (int64, error) {
	var n int64
	err := s.conn(ctx).Model(&userRow{}).Where("role = ? AND deleted_at IS NULL", string(role)).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("count users of role %s: %w", role, translate(err))
	}
	return n, nil
}
