package storetest

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
)

// usersRepo: Update writes the profile (not the email; parent_id only
// when it clears it; a phone another
// user has is ErrPhoneTaken), SaveBalance the money and plan counters, each
// leaving the other's fields as stored; Create and Update write the plan's
// allowance (MonthlyCalls) from the plan catalog (an unknown plan is
// plan.ErrPlanNotFound); LockByID is ByID (the transaction's mutex is the
// lock).
type usersRepo struct{ d *DB }

// errCustomerRole is the fake's users_customer_is_user: a row with a parent
// whose role is not user (the databases refuse it with an error of their own).
var errCustomerRole = errors.New("users_customer_is_user: only a user has a parent")

var _ user.Repository = usersRepo{}

func (r usersRepo) Create(_ context.Context, u *user.User) error {
	return r.d.do("Users.Create", func(t *tables) error {
		for _, o := range t.users {
			if o.Email == u.Email {
				return user.ErrEmailTaken
			}
			if u.Phone != "" && o.Phone == u.Phone {
				return user.ErrPhoneTaken
			}
		}
		if !user.ValidParent(u.Role, u.ParentID) {
			return errCustomerRole
		}
		calls, err := t.allowance(u.Plan)
		if err != nil {
			return err
		}
		u.ID, u.MonthlyCalls = t.id("users", u.ID), calls
		t.users[u.ID] = *u
		u.MonthlyCalls = copyPtr(calls)
		return nil
	})
}

// allowance is the monthly allowance of the plan with code (nil:
// unlimited), which the store writes on the user's row with the plan.
func (t *tables) allowance(code user.Plan) (*int, error) {
	for _, p := range t.plans {
		if p.Code == string(code) {
			return copyPtr(p.MonthlyCalls), nil
		}
	}
	return nil, plan.ErrPlanNotFound
}

func (r usersRepo) get(method string, match func(user.User) bool) (*user.User, error) {
	var out *user.User
	err := r.d.do(method, func(t *tables) error {
		for _, u := range sorted(t.users) {
			if match(u) {
				out = &u
				return nil
			}
		}
		return user.ErrNotFound
	})
	return out, err
}

func (r usersRepo) ByID(_ context.Context, id uint64) (*user.User, error) {
	return r.get("Users.ByID", func(u user.User) bool { return u.ID == id })
}

func (r usersRepo) LockByID(_ context.Context, id uint64) (*user.User, error) {
	return r.get("Users.LockByID", func(u user.User) bool { return u.ID == id })
}

func (r usersRepo) ByEmail(_ context.Context, email string) (*user.User, error) {
	return r.get("Users.ByEmail", func(u user.User) bool { return u.Email == email })
}

func (r usersRepo) ByPhone(_ context.Context, phone string) (*user.User, error) {
	return r.get("Users.ByPhone", func(u user.User) bool { return u.Phone == phone })
}

func (r usersRepo) Update(_ context.Context, u *user.User) error {
	return r.d.do("Users.Update", func(t *tables) error {
		old, ok := t.users[u.ID]
		if !ok {
			return user.ErrNotFound
		}
		for _, o := range t.users {
			if o.ID != u.ID && u.Phone != "" && o.Phone == u.Phone {
				return user.ErrPhoneTaken // the unique index on phone
			}
		}
		next := *u
		next.Email = old.Email // not a field Update writes
		if u.ParentID != nil {
			next.ParentID = old.ParentID // only ever cleared
		}
		if !user.ValidParent(next.Role, next.ParentID) {
			return errCustomerRole // the database's users_customer_is_user
		}
		next.Balance, next.TotalSpent, next.HeldAmount = old.Balance, old.TotalSpent, old.HeldAmount
		next.PlanMonth, next.PlanCalls, next.CreatedAt = old.PlanMonth, old.PlanCalls, old.CreatedAt
		calls, err := t.allowance(u.Plan)
		next.MonthlyCalls = calls // written with the plan, as the store's does
		t.users[u.ID] = next
		u.MonthlyCalls = copyPtr(calls)
		return err
	})
}

func (r usersRepo) SaveBalance(_ context.Context, u *user.User) error {
	return r.d.do("Users.SaveBalance", func(t *tables) error {
		row, ok := t.users[u.ID]
		if !ok {
			return user.ErrNotFound
		}
		row.Balance, row.TotalSpent, row.HeldAmount = u.Balance, u.TotalSpent, u.HeldAmount
		row.PlanMonth, row.PlanCalls = u.PlanMonth, u.PlanCalls
		t.users[u.ID] = row
		return nil
	})
}

// List keeps Role, Status, ParentID and Q (a substring of name, email or
// phone), newest first.
func (r usersRepo) List(_ context.Context, f user.Filter) ([]user.User, int64, error) {
	var out []user.User
	var total int64
	err := r.d.do("Users.List", func(t *tables) error {
		var all []user.User
		for _, u := range newestFirst(sorted(t.users)) {
			if u.DeletedAt != nil || (f.Role != "" && u.Role != f.Role) || (f.Status != "" && u.Status != f.Status) ||
				(f.ParentID != nil && (u.ParentID == nil || *u.ParentID != *f.ParentID)) {
				continue
			}
			if f.Q != "" && !strings.Contains(u.Name, f.Q) && !strings.Contains(u.Email, f.Q) && !strings.Contains(u.Phone, f.Q) {
				continue
			}
			all = append(all, u)
		}
		total, out = int64(len(all)), slices.Clone(page(all, f.Page, f.PerPage))
		return nil
	})
	return out, total, err
}

func (r usersRepo) IDs(context.Context) ([]uint64, error) {
	var ids []uint64
	err := r.d.do("Users.IDs", func(t *tables) error {
		for _, u := range sorted(t.users) {
			ids = append(ids, u.ID)
		}
		return nil
	})
	return ids, err
}

func (r usersRepo) CountByRole(_ context.Context, role user.Role) (int64, error) {
	var n int64
	err := r.d.do("Users.CountByRole", func(t *tables) error {
		for _, u := range t.users {
			if u.Role == role && u.DeletedAt == nil {
				n++
			}
		}
		return nil
	})
	return n, err
}

// resetsRepo: one token per email; Take deletes it at most once.
type resetsRepo struct{ d *DB }

var _ user.ResetRepository = resetsRepo{}

func (r resetsRepo) Put(_ context.Context, tk user.ResetToken) error {
	return r.d.do("Resets.Put", func(t *tables) error {
		t.resets[tk.Email] = tk
		return nil
	})
}

func (r resetsRepo) Take(_ context.Context, email, tokenHash string, notBefore time.Time) (bool, error) {
	var took bool
	err := r.d.do("Resets.Take", func(t *tables) error {
		tk, ok := t.resets[email]
		if ok && tk.TokenHash == tokenHash && tk.CreatedAt.After(notBefore) {
			delete(t.resets, email)
			took = true
		}
		return nil
	})
	return took, err
}

func (r resetsRepo) Delete(_ context.Context, email string) error {
	return r.d.do("Resets.Delete", func(t *tables) error {
		delete(t.resets, email)
		return nil
	})
}

// ResetTokens are the stored password reset tokens, by email.
func (d *DB) ResetTokens() map[string]user.ResetToken {
	return read(d, func(t *tables) map[string]user.ResetToken {
		return maps.Clone(t.resets)
	})
}
