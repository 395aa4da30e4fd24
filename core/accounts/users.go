package accounts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
	"paygate/core/events/webhook"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// NewUser is an account an admin creates directly.
type NewUser struct {
	user.Profile
	Role      user.Role
	Status    user.Status
	Plan      user.Plan
	IPAddress string  // the registering client's address, if any
	ParentID  *uint64 // the reseller of a customer; nil for everyone else
}

// CreateUser creates an account of any role and status (admin only).
func (p *Accounts) CreateUser(ctx context.Context, actor *user.User, in NewUser) (*user.User, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	if err := fe.Merge(in.Profile.Validate(true)); err != nil {
		return nil, err
	}
	if in.Role == "" {
		in.Role = user.RoleUser
	}
	if in.Status == "" {
		in.Status = user.StatusPending
	}
	if in.Plan == "" {
		in.Plan = p.defaultPlan()
	}
	user.CheckAccount(fe, &in.Role, &in.Status, &in.Plan)
	if !user.ValidParent(in.Role, in.ParentID) {
		fe.Add("role", "must be user for a reseller's customer")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	u, err := p.createUser(ctx, in, actor)
	if err != nil {
		return nil, err
	}
	p.mailInvite(ctx, u)
	return u, nil
}

// mailInvite tells the owner of an account an admin created where to sign
// in (the admin gives the password; "Forgot password" chooses another),
// or, for a pending one, that a mail follows on activation.
func (p *Accounts) mailInvite(ctx context.Context, u *user.User) {
	login := p.cfg.PublicBaseURL + "/login"
	next := "You can sign in now with this email address at\n\n" + login +
		"\n\nwith the password your administrator gives you, or choose your own with \"Forgot password\" there.\n"
	if u.Status != user.StatusActive {
		next = "Your account is waiting for an administrator's approval; we will email you as soon as it is active.\n"
	}
	p.mailLater(ctx, panel.Message{To: u.Email, Subject: "An account was created for you", Link: login,
		Text: "Hello " + u.Name + ",\n\nan administrator created an account for you.\n\n" + next})
}

// mailActivated tells the owner of an account that was just activated
// that they can sign in.
func (p *Accounts) mailActivated(ctx context.Context, u *user.User) {
	login := p.cfg.PublicBaseURL + "/login"
	p.mailLater(ctx, panel.Message{To: u.Email, Subject: "Your account is active", Link: login,
		Text: "Hello " + u.Name + ",\n\nyour account has been approved. Sign in at\n\n" + login +
			"\n\nto create API keys, add balance and start calling services.\n"})
}

// createUser stores a new account; actor, when not nil, is the admin
// recorded in the audit log.
func (p *Accounts) createUser(ctx context.Context, in NewUser, actor *user.User) (*user.User, error) {
	hash, err := p.pw.Hash(in.Password)
	if err != nil {
		return nil, fmt.Errorf("hash password: %w", err)
	}
	now := p.now().UTC()
	u := &user.User{
		Name: in.Name, Email: in.Email, Phone: in.Phone, PasswordHash: hash,
		Role: in.Role, Status: in.Status, Plan: in.Plan,
		Balance: decimal.Zero, TotalSpent: decimal.Zero, CreatedAt: now, UpdatedAt: now,
		CollectionFeePercent: p.cfg.CollectionFeePercent, DailyPayoutLimit: user.DefaultDailyPayoutLimit,
		ParentID: in.ParentID,
	}
	if ip := in.IPAddress; ip != "" && len(ip) <= 45 {
		u.IPAddress = &ip
	}
	err = p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := planOffered(ctx, s, u.Plan); err != nil {
			return err
		}
		if u.ParentID != nil {
			// A reseller's customer starts with its reseller's limits and
			// fees (decisions "Resellers: a customer is never looser than its reseller").
			r, err := s.Users.ByID(ctx, *u.ParentID)
			if err != nil {
				return fmt.Errorf("read reseller %d: %w", *u.ParentID, err)
			}
			u.CollectionFeePercent, u.DailyPayoutLimit = r.CollectionFeePercent, r.DailyPayoutLimit
		}
		if err := s.Users.Create(ctx, u); err != nil {
			return err
		}
		if u.Status == user.StatusActive {
			if err := p.provisionActive(ctx, s, u); err != nil {
				return err
			}
		}
		if actor != nil {
			return store.Record(ctx, s.Audit, p.now(), actor, audit.UserCreate, audit.TargetUser, u.ID, nil, userSnapshot(u))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// provisionActive gives a newly active account its webhook signing secret and
// its default API key (whose secret the owner obtains by rotating it).
func (p *Accounts) provisionActive(ctx context.Context, s TxStores, u *user.User) error {
	changed := false
	if u.WebhookSecret == nil {
		sec := webhook.NewSecret()
		u.WebhookSecret = &sec
		changed = true
	}
	if u.APIKey == nil {
		keys, err := s.Keys.ListByUser(ctx, u.ID)
		if err != nil {
			return fmt.Errorf("list keys: %w", err)
		}
		if len(keys) == 0 {
			k, _, err := panel.NewKey(ctx, s.Keys, u, apikey.Restrictions{Name: "Default", DailyLimit: apikey.DefaultDailyLimit}, p.now())
			if err != nil {
				return err
			}
			u.APIKey = &k.Key
		} else {
			u.APIKey = &keys[len(keys)-1].Key
		}
		changed = true
	}
	if changed {
		u.UpdatedAt = p.now().UTC()
		return s.Users.Update(ctx, u)
	}
	return nil
}

// ListUsers lists accounts (admin only).
func (p *Accounts) ListUsers(ctx context.Context, actor *user.User, f user.Filter) ([]user.User, int64, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, 0, err
	}
	return p.st.Users.List(ctx, f)
}

// Me reads the caller's own account again, its balance with this
// instance's metered calls charged (GET /auth/me).
func (p *Accounts) Me(ctx context.Context, actor *user.User) (*user.User, error) {
	if err := p.settled(ctx); err != nil {
		return nil, err
	}
	u, err := p.st.Users.ByID(ctx, actor.ID)
	if err != nil || u.ParentID == nil {
		return u, err
	}
	// A customer is shown the limits that apply to it: the stricter of its
	// own and its reseller's (user.EffectiveLimits), as they are charged.
	r, err := p.st.Users.ByID(ctx, *u.ParentID)
	if err != nil {
		return nil, fmt.Errorf("read reseller %d: %w", *u.ParentID, err)
	}
	lim := user.EffectiveLimits(u, r)
	u.DailyPayoutLimit, u.CollectionFeePercent = lim.DailyPayoutLimit, lim.CollectionFeePercent
	return u, nil
}

// GetUser shows one account (admin only), its balance with this
// instance's metered calls charged.
func (p *Accounts) GetUser(ctx context.Context, actor *user.User, id uint64) (*user.User, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	if err := p.settled(ctx); err != nil {
		return nil, err
	}
	return p.st.Users.ByID(ctx, id)
}

// UserPatch lists the fields an admin may change; nil leaves a field alone.
type UserPatch struct {
	Name   *string
	Phone  *string
	Role   *user.Role
	Status *user.Status
	Plan   *user.Plan
	// CollectionFeePercent: 0 to 100 with at most 2 decimals.
	CollectionFeePercent *string
	// DailyPayoutLimit: rupees, at most 2 decimals.
	DailyPayoutLimit *string
}

// PatchUser changes an account (admin only). An admin cannot demote, block
// or delete themself, so the platform always keeps an admin.
func (p *Accounts) PatchUser(ctx context.Context, actor *user.User, id uint64, patch UserPatch) (*user.User, error) {
	return p.patchUser(ctx, actor, id, patch, audit.UserUpdate)
}

func (p *Accounts) patchUser(ctx context.Context, actor *user.User, id uint64, patch UserPatch, action string) (*user.User, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	if patch.Name != nil {
		if n := strings.TrimSpace(*patch.Name); n == "" || len(n) > 255 {
			fe.Add("name", "is required, at most 255 characters")
		}
	}
	if patch.Phone != nil && !user.ValidPhone(strings.TrimSpace(*patch.Phone)) {
		fe.Add("phone", "must be 10 to 15 digits")
	}
	user.CheckAccount(fe, patch.Role, patch.Status, patch.Plan)
	var fee decimal.Decimal
	if patch.CollectionFeePercent != nil {
		var ok bool
		if fee, ok = user.ParseCollectionFee(*patch.CollectionFeePercent); !ok {
			fe.Add("collection_fee_percent", user.CollectionFeeMessage)
		}
	}
	var payoutLimit decimal.Decimal
	if patch.DailyPayoutLimit != nil {
		var ok bool
		if payoutLimit, ok = user.ParseDailyPayoutLimit(*patch.DailyPayoutLimit); !ok {
			fe.Add("daily_payout_limit", user.DailyPayoutLimitMessage)
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	if id == actor.ID && ((patch.Role != nil && *patch.Role != user.RoleAdmin) || (patch.Status != nil && *patch.Status != user.StatusActive)) {
		return nil, errs.E(errs.Conflict, "cannot_change_self", "You cannot demote or deactivate your own account")
	}
	var out *user.User
	activated := false
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := lockLiveUser(ctx, s, id)
		if err != nil {
			return err
		}
		before := userSnapshot(u)
		wasActive := u.Status == user.StatusActive
		if patch.Name != nil {
			u.Name = strings.TrimSpace(*patch.Name)
		}
		if patch.Phone != nil {
			u.Phone = strings.TrimSpace(*patch.Phone)
		}
		if patch.Role != nil {
			u.Role = *patch.Role
			// An admin or a reseller is nobody's customer: promoting a
			// customer ends its reseller relation (audited below, with
			// parent_id in the snapshots).
			if !user.ValidParent(u.Role, u.ParentID) {
				u.Detach()
			}
		}
		if patch.Status != nil {
			u.Status = *patch.Status
		}
		if patch.Plan != nil && *patch.Plan != u.Plan {
			if err := planOffered(ctx, s, *patch.Plan); err != nil {
				return err
			}
			u.Plan = *patch.Plan
		}
		if patch.CollectionFeePercent != nil {
			u.CollectionFeePercent = fee
		}
		if patch.DailyPayoutLimit != nil {
			u.DailyPayoutLimit = payoutLimit
		}
		u.UpdatedAt = p.now().UTC()
		if err := s.Users.Update(ctx, u); err != nil {
			return err
		}
		if patch.Plan != nil && string(u.Plan) != before.Plan {
			if err := followPlan(ctx, s, u, p.now()); err != nil {
				return err
			}
		}
		if u.Status == user.StatusActive {
			if err := p.provisionActive(ctx, s, u); err != nil {
				return err
			}
		}
		if u.Status != user.StatusActive {
			if err := s.Sessions.DeleteByUser(ctx, u.ID); err != nil {
				return fmt.Errorf("end sessions: %w", err)
			}
		}
		out, activated = u, !wasActive && u.Status == user.StatusActive
		return store.Record(ctx, s.Audit, p.now(), actor, action, audit.TargetUser, u.ID, before, userSnapshot(u))
	})
	if err != nil {
		return nil, err
	}
	if activated {
		p.mailActivated(ctx, out)
	}
	return out, nil
}

// defaultPlan is the plan of new accounts.
func (p *Accounts) defaultPlan() user.Plan {
	if p.cfg.DefaultPlan == "" {
		return user.PlanStarter
	}
	return p.cfg.DefaultPlan
}

// planOffered refuses, as a field error, a plan the catalog does not hold
// or has retired: accounts are put only on plans on offer.
func planOffered(ctx context.Context, s TxStores, code user.Plan) error {
	pl, err := s.Plans.ByCode(ctx, string(code))
	if errors.Is(err, plan.ErrPlanNotFound) || (err == nil && pl.Status != plan.StatusActive) {
		fe := errs.FieldErrors{}
		fe.Add("plan", "must be the code of an active plan")
		return fe.Err()
	}
	return err
}

// followPlan moves u's subscription, if it has one yet, to the plan the
// user's plan field now names, at that plan's price (0.00 for a custom
// price), charging nothing: the user's plan field is the plain way to set
// a plan; PATCH /users/{id}/subscription is the charged one
// (docs/decisions.md, "Plans that bill").
func followPlan(ctx context.Context, s TxStores, u *user.User, now time.Time) error {
	sub, err := s.Subscriptions.LockByUser(ctx, u.ID)
	if errors.Is(err, plan.ErrNoSubscription) {
		return nil
	}
	if err != nil {
		return err
	}
	pl, err := s.Plans.ByCode(ctx, string(u.Plan))
	if err != nil {
		return err
	}
	sub.PlanCode, sub.Price, sub.NextPlanCode, sub.NextPrice, sub.UpdatedAt = pl.Code, decimal.Zero, nil, nil, now.UTC()
	if pl.MonthlyPrice != nil {
		sub.Price = *pl.MonthlyPrice
	}
	return s.Subscriptions.Save(ctx, sub)
}

// SetUserStatus activates or blocks an account (admin only).
func (p *Accounts) SetUserStatus(ctx context.Context, actor *user.User, id uint64, st user.Status) (*user.User, error) {
	action := audit.UserActivate
	if st != user.StatusActive {
		action = audit.UserBlock
	}
	return p.patchUser(ctx, actor, id, UserPatch{Status: &st}, action)
}

// DeleteUser soft-deletes an account and ends its sessions (admin only).
func (p *Accounts) DeleteUser(ctx context.Context, actor *user.User, id uint64) error {
	if err := panel.RequireAdmin(actor); err != nil {
		return err
	}
	if id == actor.ID {
		return errs.E(errs.Conflict, "cannot_change_self", "You cannot delete your own account")
	}
	return p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := lockLiveUser(ctx, s, id)
		if err != nil {
			return err
		}
		before := userSnapshot(u)
		now := p.now().UTC()
		u.DeletedAt = &now
		u.UpdatedAt = now
		if err := s.Users.Update(ctx, u); err != nil {
			return err
		}
		if err := s.Sessions.DeleteByUser(ctx, u.ID); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.UserDelete, audit.TargetUser, u.ID, before, userSnapshot(u))
	})
}

// Adjustment is an admin's manual credit or debit.
type Adjustment struct {
	Type        ledger.Type
	Amount      string
	Description string
}

// AdjustBalance posts a manual credit or debit with a required description
// (admin only). A debit never takes the balance below zero, nor the money
// held for metered calls under way.
func (p *Accounts) AdjustBalance(ctx context.Context, actor *user.User, userID uint64, adj Adjustment) (*ledger.Entry, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	if adj.Type != ledger.Credit && adj.Type != ledger.Debit {
		fe.Add("type", "must be credit or debit")
	}
	amount, ok := inr.Parse(adj.Amount, 2)
	if !ok || !amount.IsPositive() || !inr.FitsColumn(amount, 12, 2) {
		fe.Add("amount", "must be a positive amount with at most 2 decimals")
	}
	adj.Description = strings.TrimSpace(adj.Description)
	if adj.Description == "" {
		fe.Add("description", "is required")
	} else if len(adj.Description) > 1000 {
		fe.Add("description", "must be at most 1000 characters")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	// The charges of metered calls this instance answered before come
	// first in the ledger, as they came first.
	if err := p.settled(ctx); err != nil {
		return nil, err
	}
	var entry *ledger.Entry
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := lockLiveUser(ctx, s, userID)
		if err != nil {
			return err
		}
		if adj.Type == ledger.Credit && !inr.FitsColumn(u.Balance.Add(amount), 12, 2) {
			return errBalanceTooLarge
		}
		before := map[string]string{"balance": inr.Format2(u.Balance)}
		entry, err = store.Post(ctx, s.Books, p.now(), p.cfg.Livemode, u, adj.Type, amount, ledger.RefAdjustment, nil, adj.Description+" (by admin #"+fmt.Sprint(actor.ID)+")")
		if err != nil {
			return err
		}
		if err := s.Users.SaveBalance(ctx, u); err != nil {
			return err
		}
		after := map[string]any{"balance": inr.Format2(u.Balance), "transaction": entrySnapshot(entry)}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.BalanceAdjust, audit.TargetUser, u.ID, before, after)
	})
	return entry, err
}

// lockLiveUser locks a user's row for the rest of the transaction; a
// soft-deleted user is not found.
func lockLiveUser(ctx context.Context, s TxStores, id uint64) (*user.User, error) {
	u, err := s.Users.LockByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if u.IsDeleted() {
		return nil, user.ErrNotFound
	}
	return u, nil
}
