package customers

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/directory"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// ErrNotFound answers an id that is not the caller's customer.
var ErrNotFound = errs.E(errs.NotFound, "customer_not_found", "Customer not found")

// RequireReseller refuses anyone but an active reseller (errs.ErrForbidden).
func RequireReseller(actor *user.User) error {
	if actor == nil || actor.Role != user.RoleReseller {
		return errs.ErrForbidden
	}
	return nil
}

// NewCustomer is a customer as its reseller creates it; Password may be
// empty (the customer then gets a mail to set one).
type NewCustomer struct {
	user.Profile
}

// Create creates a customer of the calling reseller: role user, status
// pending, parent the reseller. The customer is always mailed an invite
// link (user.InvitePrefix, valid user.InviteTTL) that confirms its email
// and sets its password, and with it activates the account (with its
// webhook secret and default key): core/accounts.ResetPassword. A
// password given here only stands until then.
func (p *Customers) Create(ctx context.Context, actor *user.User, in NewCustomer) (*user.User, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	if err := actor.CanAct(); err != nil {
		return nil, err
	}
	fe := errs.FieldErrors{}
	if err := fe.Merge(in.Profile.Validate(false)); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		field, v string
		find     func(context.Context, string) (*user.User, error)
	}{{"email", in.Email, p.st.Users.ByEmail}, {"phone", in.Phone, p.st.Users.ByPhone}} {
		if _, bad := fe[c.field]; bad {
			continue
		}
		if _, err := c.find(ctx, c.v); err == nil {
			fe.Add(c.field, user.TakenMessage)
		} else if errs.KindOf(err) != errs.NotFound {
			return nil, fmt.Errorf("check %s: %w", c.field, err)
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	password := in.Password
	if password == "" {
		// Nobody knows this one: the customer sets its own by the link.
		password = apikey.RandomBase62(40)
	}
	// Pending until the address's owner confirms through the link: the
	// reseller chose the address, which may not be the customer's to give.
	hash, err := p.pw.Hash(password)
	if err != nil {
		return nil, fmt.Errorf("hash password: %w", err)
	}
	now := p.now().UTC()
	parent := actor.ID
	u := &user.User{
		ParentID: &parent, Name: in.Name, Email: in.Email, Phone: in.Phone, PasswordHash: hash,
		Role: user.RoleUser, Status: user.StatusPending, Plan: p.cfg.DefaultPlan,
		Balance: decimal.Zero, TotalSpent: decimal.Zero, CreatedAt: now, UpdatedAt: now,
		// Its reseller's limits and fees (decisions "Resellers: a customer is never looser than its reseller").
		CollectionFeePercent: actor.CollectionFeePercent, DailyPayoutLimit: actor.DailyPayoutLimit,
	}
	var token string
	err = p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Users.Create(ctx, u); err != nil {
			return err
		}
		token = user.InvitePrefix + apikey.RandomBase62(43)
		if err := s.Resets.Put(ctx, user.ResetToken{Email: u.Email, TokenHash: session.Hash(token), CreatedAt: now}); err != nil {
			return fmt.Errorf("store invite token: %w", err)
		}
		if err := store.EmitMode(ctx, s.Webhooks, now, actor, webhook.CustomerCreated, map[string]any{
			"customer_id": u.ID, "name": u.Name, "email": u.Email, "phone": u.Phone, "status": string(u.Status),
			"created_at": u.CreatedAt.UTC().Format(time.RFC3339Nano),
		}, "", p.cfg.Livemode); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, actor, audit.CustomerCreate, audit.TargetUser, u.ID, nil, customerSnapshot(u))
	})
	if err != nil {
		return nil, user.TakenFields(err)
	}
	p.mailWelcome(ctx, actor, u, token)
	return u, nil
}

// provision gives a new active customer its webhook signing secret and its
// default API key, as an activated account gets them.
func provision(ctx context.Context, s TxStores, u *user.User, now time.Time) error {
	sec := webhook.NewSecret()
	u.WebhookSecret = &sec
	k, _, err := panel.NewKey(ctx, s.Keys, u, apikey.Restrictions{Name: "Default", DailyLimit: apikey.DefaultDailyLimit}, now)
	if err != nil {
		return err
	}
	u.APIKey = &k.Key
	return s.Users.Update(ctx, u)
}

// mailWelcome mails a new customer its invite: the link that confirms its
// email, sets its password and accepts its reseller.
func (p *Customers) mailWelcome(ctx context.Context, reseller, u *user.User, token string) {
	login := p.cfg.PublicBaseURL + "/login"
	link := p.cfg.PublicBaseURL + "/reset-password?token=" + url.QueryEscape(token) + "&email=" + url.QueryEscape(u.Email)
	m := panel.Message{To: u.Email, Subject: "Confirm your email and set your password", Link: link,
		Text: "Hello " + u.Name + ",\n\n" + reseller.Name + " created an account for you with this email address, as its customer. " +
			"To confirm the address, choose your password and start using the account, open this link:\n\n" + link +
			"\n\nThe account stays inactive until you do. The link is valid for 72 hours; after that, use \"Forgot password\" at " + login +
			".\nIf you do not know " + reseller.Name + ", ignore this message, or use \"Forgot password\" to take the account as your own.\n"}
	if p.mailer == nil {
		p.log.Warn("mail not sent: no mailer configured", "subject", m.Subject)
		return
	}
	ctx = context.WithoutCancel(ctx)
	p.bg.Add(1)
	go func() {
		defer p.bg.Done()
		ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		if err := p.mailer.Send(ctx, m); err != nil {
			p.log.Error("send mail", "to", m.To, "subject", m.Subject, "err", err)
		}
	}()
}

// List lists the caller's customers (Role and ParentID of f are set here).
func (p *Customers) List(ctx context.Context, actor *user.User, f user.Filter) ([]user.User, int64, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, 0, err
	}
	id := actor.ID
	f.ParentID, f.Role = &id, ""
	return p.st.Users.List(ctx, f)
}

// Get reads one of the caller's customers.
func (p *Customers) Get(ctx context.Context, actor *user.User, id uint64) (*user.User, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	u, err := p.st.Users.ByID(ctx, id)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, ErrNotFound
		}
		return nil, err
	}
	if !ownCustomer(actor, u) {
		return nil, ErrNotFound
	}
	return u, nil
}

// ownCustomer: u is reseller's customer (never an admin or a reseller,
// whatever parent_id says: the database refuses such rows anyway).
func ownCustomer(reseller, u *user.User) bool {
	return u.ParentID != nil && *u.ParentID == reseller.ID && u.Role == user.RoleUser && !u.IsDeleted()
}

// ErrNotConfirmed answers a status change of a customer whose email is
// not confirmed: activating it would skip the confirmation, and blocking a
// pending one would keep the address's owner from claiming it.
var ErrNotConfirmed = errs.E(errs.Conflict, "customer_not_confirmed",
	"The customer has not confirmed its email address yet")

// SetStatus blocks (user.StatusBlocked) or activates (user.StatusActive)
// one of the caller's customers.
func (p *Customers) SetStatus(ctx context.Context, actor *user.User, id uint64, st user.Status) (*user.User, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	if st != user.StatusActive && st != user.StatusBlocked {
		return nil, fmt.Errorf("customer status %q", st)
	}
	var out *user.User
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return ErrNotFound
			}
			return err
		}
		if !ownCustomer(actor, u) {
			return ErrNotFound
		}
		// Unconfirmed: no activation (it would skip the confirmation), and
		// no change at all while pending (the invite activates it).
		if unconfirmed := u.EmailVerifiedAt == nil; u.Status != st && unconfirmed && (st == user.StatusActive || u.Status == user.StatusPending) {
			return ErrNotConfirmed
		}
		before := customerSnapshot(u)
		action := audit.CustomerBlock
		if st == user.StatusActive {
			action = audit.CustomerActivate
		}
		if u.Status != st {
			u.Status, u.UpdatedAt = st, p.now().UTC()
			if st == user.StatusActive && (u.WebhookSecret == nil || u.APIKey == nil) {
				if err := provision(ctx, s, u, p.now()); err != nil {
					return err
				}
			} else if err := s.Users.Update(ctx, u); err != nil {
				return err
			}
			if st == user.StatusBlocked {
				if err := s.Sessions.DeleteByUser(ctx, u.ID); err != nil {
					return err
				}
			}
		}
		out = u
		return store.Record(ctx, s.Audit, p.now(), actor, action, audit.TargetUser, u.ID, before, customerSnapshot(u))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Keys lists a customer's API keys (the store never reads secrets back).
func (p *Customers) Keys(ctx context.Context, actor *user.User, id uint64) ([]apikey.Key, error) {
	c, err := p.Get(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	return p.st.Keys.ListByUser(ctx, c.ID)
}

// CustomerHit is a customer's hit as its reseller sees it: without the
// payloads (the customer's own data), with the reseller's commission and
// the names of the customer's key and of the service ("" when unknown: a
// deleted service).
type CustomerHit struct {
	hitlog.Hit
	Commission           decimal.Decimal
	KeyName, ServiceName string
}

// Hits lists a customer's hit logs (f's UserID is the customer).
func (p *Customers) Hits(ctx context.Context, actor *user.User, id uint64, f hitlog.Filter) ([]CustomerHit, int64, error) {
	c, err := p.Get(ctx, actor, id)
	if err != nil {
		return nil, 0, err
	}
	f.UserID = &c.ID
	hits, total, err := p.st.Hits.List(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]uint64, len(hits))
	var named directory.IDs
	for i := range hits {
		ids[i] = hits[i].ID
		named = named.Add(nil, []uint64{hits[i].APIKeyID}, []uint64{hits[i].ServiceID})
	}
	com, err := p.st.Reports.HitCommissions(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	// The page's keys and services, by one lookup after the page (decisions
	// "Lists and exports name users, keys and services"); a key is named
	// only as this customer's.
	names, err := p.st.Names.Names(ctx, directory.IDs{Keys: directory.Unique(named.Keys), Services: directory.Unique(named.Services)})
	if err != nil {
		return nil, 0, fmt.Errorf("name customer hits: %w", err)
	}
	out := make([]CustomerHit, len(hits))
	for i, h := range hits {
		h.RequestPayload, h.ResponsePayload = "", nil
		out[i] = CustomerHit{Hit: h, Commission: decimal.Zero, ServiceName: names.Services[h.ServiceID].Name}
		if k, ok := names.Keys[h.APIKeyID]; ok && k.UserID == c.ID {
			out[i].KeyName = k.Name
		}
		if v, ok := com[h.ID]; ok {
			out[i].Commission = v
		}
	}
	return out, total, nil
}

// Transactions lists a customer's ledger entries.
func (p *Customers) Transactions(ctx context.Context, actor *user.User, id uint64, f ledger.Filter) ([]ledger.Entry, int64, error) {
	c, err := p.Get(ctx, actor, id)
	if err != nil {
		return nil, 0, err
	}
	f.UserID = &c.ID
	return p.st.Ledger.List(ctx, f)
}

type customerAudit struct {
	ParentID uint64 `json:"parent_id"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Phone    string `json:"phone"`
	Status   string `json:"status"`
	Balance  string `json:"balance"`
}

func customerSnapshot(u *user.User) customerAudit {
	a := customerAudit{Name: u.Name, Email: u.Email, Phone: u.Phone, Status: string(u.Status), Balance: inr.Format2(u.Balance)}
	if u.ParentID != nil {
		a.ParentID = *u.ParentID
	}
	return a
}
