package accountstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
)

// UserRow is a users row as stored (its webhook signing secret sealed).
type UserRow struct {
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

func (UserRow) TableName() string { return "users" }

// UserRowColumns are userRow's columns in field order. The batch's locked
// read selects and scans them (userColumns, fields) and the optimistic
// batch's guard compares them (snapshotMatch), so a column added to userRow
// is read and checked with no other list to update.
var UserRowColumns = sqlbase.RowColumns[UserRow]()

// UserColumns are userRowColumns for a SELECT that scans without GORM (the
// metering batch's user locks).
var UserColumns = sqlbase.ColumnNames(UserRowColumns)

// Fields are the scan destinations of userColumns.
func (r *UserRow) Fields() []any { return sqlbase.FieldPointers(r, UserRowColumns) }

func toUserRow(u *user.User) (UserRow, error) {
	var w sqlbase.MoneyWriter
	r := UserRow{
		ID:              u.ID,
		Name:            u.Name,
		Email:           u.Email,
		Phone:           u.Phone,
		Password:        u.PasswordHash,
		Role:            string(u.Role),
		Status:          string(u.Status),
		Plan:            string(u.Plan),
		PlanMonth:       sqlbase.NullString(u.PlanMonth),
		PlanCalls:       u.PlanCalls,
		MonthlyCalls:    u.MonthlyCalls,
		Balance:         w.Put(sqlbase.ColBalance, u.Balance),
		TotalSpent:      w.Put(sqlbase.ColSpent, u.TotalSpent),
		HeldAmount:      w.Put(sqlbase.ColHeld, u.HeldAmount),
		LowBalanceAlert: w.PutPtr(sqlbase.ColLowBalance, u.LowBalanceAlert),
		FeePercent:      w.Put(sqlbase.ColFeePercent, u.CollectionFeePercent),
		PayoutLimit:     w.Put(sqlbase.ColPayoutLimit, u.DailyPayoutLimit),
		APIKey:          u.APIKey,
		APISecret:       u.WebhookSecret,
		WebhookURL:      u.WebhookURL,
		IPAddress:       u.IPAddress,
		EmailVerifiedAt: sqlbase.TimePtrToDB(u.EmailVerifiedAt),
		CreatedAt:       sqlbase.Stamp(u.CreatedAt),
		UpdatedAt:       sqlbase.Stamp(u.UpdatedAt),
		DeletedAt:       sqlbase.TimePtrToDB(u.DeletedAt),
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
	return r, w.Err
}

func toDomainUser(r *UserRow) (*user.User, error) {
	var w sqlbase.MoneyWriter
	u := &user.User{
		ID:                   r.ID,
		Name:                 r.Name,
		Email:                r.Email,
		Phone:                r.Phone,
		PasswordHash:         r.Password,
		Role:                 user.Role(r.Role),
		Status:               user.Status(r.Status),
		Plan:                 user.Plan(r.Plan),
		Balance:              w.Get(sqlbase.ColBalance, r.Balance),
		TotalSpent:           w.Get(sqlbase.ColSpent, r.TotalSpent),
		HeldAmount:           w.Get(sqlbase.ColHeld, r.HeldAmount),
		PlanMonth:            sqlbase.Deref(r.PlanMonth),
		PlanCalls:            r.PlanCalls,
		MonthlyCalls:         r.MonthlyCalls,
		APIKey:               r.APIKey,
		WebhookSecret:        r.APISecret,
		WebhookURL:           r.WebhookURL,
		LowBalanceAlert:      w.GetPtr(sqlbase.ColLowBalance, r.LowBalanceAlert),
		CollectionFeePercent: w.Get(sqlbase.ColFeePercent, r.FeePercent),
		DailyPayoutLimit:     w.Get(sqlbase.ColPayoutLimit, r.PayoutLimit),
		IPAddress:            r.IPAddress,
		EmailVerifiedAt:      sqlbase.TimePtrFromDB(r.EmailVerifiedAt),
		CreatedAt:            sqlbase.TimeFromDB(r.CreatedAt),
		UpdatedAt:            sqlbase.TimeFromDB(r.UpdatedAt),
		DeletedAt:            sqlbase.TimePtrFromDB(r.DeletedAt),
		ParentID:             r.ParentID,
	}
	if w.Err != nil {
		return nil, fmt.Errorf("user %d: %w", r.ID, w.Err)
	}
	return u, nil
}

// UserStore is the database's user.Repository.
type UserStore struct{ sqlbase.Base }

var _ user.Repository = (*UserStore)(nil)

// userWriteError names which unique key refused a user.
func userWriteError(op string, err error) error {
	if msg, dup := sqlbase.DuplicateOf(err); dup {
		switch {
		case sqlbase.Mentions(msg, "users_email_unique", "users.email"):
			return user.ErrEmailTaken.Wrap(err)
		case sqlbase.Mentions(msg, "users_phone_unique", "users.phone"):
			return user.ErrPhoneTaken.Wrap(err)
		}
	}
	return fmt.Errorf("%s: %w", op, sqlbase.Translate(err))
}

func (s *UserStore) Create(ctx context.Context, u *user.User) error {
	r, err := sealedUserRow(s.Base, u)
	if err != nil {
		return fmt.Errorf("create user: %w", err)
	}
	r.ID = 0
	if r.MonthlyCalls, err = planAllowance(s.Base, ctx, r.Plan); err != nil {
		return err
	}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return userWriteError("create user", err)
	}
	u.ID, u.MonthlyCalls = r.ID, r.MonthlyCalls
	u.CreatedAt, u.UpdatedAt = sqlbase.TimeFromDB(r.CreatedAt), sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

func (s *UserStore) find(ctx context.Context, lock bool, where string, arg any) (*user.User, error) {
	r, err := s.FindRow(ctx, lock, where, arg)
	if err != nil {
		return nil, err
	}
	return OpenUser(s.Base, r)
}

// FindRow reads a user's row as stored (its secret sealed).
func (s *UserStore) FindRow(ctx context.Context, lock bool, where string, arg any) (*UserRow, error) {
	q := s.Conn(ctx)
	if lock {
		q = s.Locking(q)
	}
	var r UserRow
	if err := q.Where(where, arg).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, user.ErrNotFound
		}
		return nil, fmt.Errorf("find user: %w", sqlbase.Translate(err))
	}
	return &r, nil
}

// sealedUserRow is u's row as stored: its webhook signing secret sealed.
func sealedUserRow(b sqlbase.Base, u *user.User) (UserRow, error) {
	r, err := toUserRow(u)
	if err != nil {
		return r, err
	}
	r.APISecret, err = b.SealPtr("api_secret", r.APISecret)
	return r, err
}

// OpenUser is the user of a row as stored: its webhook signing secret opened.
func OpenUser(b sqlbase.Base, r *UserRow) (*user.User, error) {
	u, err := toDomainUser(r)
	if err != nil {
		return nil, err
	}
	if u.WebhookSecret, err = b.OpenPtr("api_secret", r.APISecret); err != nil {
		return nil, fmt.Errorf("user %d: %w", r.ID, err)
	}
	return u, nil
}

func (s *UserStore) ByID(ctx context.Context, id uint64) (*user.User, error) {
	return s.find(ctx, false, "id = ?", id)
}

func (s *UserStore) ByEmail(ctx context.Context, email string) (*user.User, error) {
	return s.find(ctx, false, "email = ?", email)
}

func (s *UserStore) ByPhone(ctx context.Context, phone string) (*user.User, error) {
	return s.find(ctx, false, "phone = ?", phone)
}

func (s *UserStore) LockByID(ctx context.Context, id uint64) (*user.User, error) {
	return s.find(ctx, true, "id = ?", id)
}

func (s *UserStore) Update(ctx context.Context, u *user.User) error {
	r, err := sealedUserRow(s.Base, u)
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
	res := s.Conn(ctx).Model(&UserRow{}).Where("id = ?", u.ID).Updates(cols)
	if res.Error != nil {
		return userWriteError(fmt.Sprintf("update user %d", u.ID), res.Error)
	}
	if res.RowsAffected == 0 {
		return user.ErrNotFound
	}
	u.UpdatedAt = sqlbase.TimeFromDB(r.UpdatedAt)
	if u.MonthlyCalls, err = planAllowance(s.Base, ctx, r.Plan); err != nil {
		return err
	}
	return nil
}

// planAllowance is the monthly allowance of plan code (nil: unlimited), the
// value users.plan_monthly_calls carries: the store writes it with the
// plan, so the metered call reads it from the row it locks anyway.
func planAllowance(b sqlbase.Base, ctx context.Context, code string) (*int, error) {
	var rows []struct{ MonthlyCalls *int }
	if err := b.Conn(ctx).Raw("SELECT monthly_calls FROM plans WHERE code = ?", code).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("allowance of plan %s: %w", code, sqlbase.Translate(err))
	}
	if len(rows) == 0 {
		return nil, plan.ErrPlanNotFound
	}
	return rows[0].MonthlyCalls, nil
}

// BalanceValues are the columns SaveBalance writes for u, updated at now.
func BalanceValues(u *user.User, now time.Time) (map[string]any, error) {
	var w sqlbase.MoneyWriter
	values := map[string]any{
		"balance":     w.Put(sqlbase.ColBalance, u.Balance),
		"total_spent": w.Put(sqlbase.ColSpent, u.TotalSpent),
		"held_amount": w.Put(sqlbase.ColHeld, u.HeldAmount),
		"plan_month":  sqlbase.NullString(u.PlanMonth),
		"plan_calls":  u.PlanCalls,
		"updated_at":  now,
	}
	if w.Err != nil {
		return nil, fmt.Errorf("save balance of user %d: %w", u.ID, w.Err)
	}
	return values, nil
}

func (s *UserStore) SaveBalance(ctx context.Context, u *user.User) error {
	now := sqlbase.DBTime(time.Now())
	values, err := BalanceValues(u, now)
	if err != nil {
		return err
	}
	res := s.Conn(ctx).Model(&UserRow{}).Where("id = ?", u.ID).Updates(values)
	if res.Error != nil {
		return fmt.Errorf("save balance of user %d: %w", u.ID, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return user.ErrNotFound
	}
	u.UpdatedAt = now
	return nil
}

// List lists accounts that are not soft-deleted, newest first.
func (s *UserStore) List(ctx context.Context, f user.Filter) ([]user.User, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		q = q.Where("deleted_at IS NULL")
		if f.Role != "" {
			q = q.Where("role = ?", string(f.Role))
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.Q != "" {
			p := sqlbase.LikePattern(f.Q)
			q = q.Where("(name LIKE ?"+sqlbase.LikeEscape+" OR email LIKE ?"+sqlbase.LikeEscape+" OR phone LIKE ?"+sqlbase.LikeEscape+")", p, p, p)
		}
		if f.ParentID != nil {
			q = q.Where("parent_id = ?", *f.ParentID)
		}
		return q
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "users", func(r *UserRow) (user.User, error) {
		v, err := OpenUser(s.Base, r)
		if err != nil {
			return user.User{}, err
		}
		return *v, nil
	})
}

func (s *UserStore) IDs(ctx context.Context) ([]uint64, error) {
	ids := []uint64{}
	if err := s.Conn(ctx).Model(&UserRow{}).Order("id").Pluck("id", &ids).Error; err != nil {
		return nil, fmt.Errorf("list user ids: %w", sqlbase.Translate(err))
	}
	return ids, nil
}

// CountByRole counts accounts of a role that are not soft-deleted.
func (s *UserStore) CountByRole(ctx context.Context, role user.Role) (int64, error) {
	var n int64
	err := s.Conn(ctx).Model(&UserRow{}).Where("role = ? AND deleted_at IS NULL", string(role)).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("count users of role %s: %w", role, sqlbase.Translate(err))
	}
	return n, nil
}
