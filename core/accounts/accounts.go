package accounts

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/session"
	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

var (
	// errInvalidVerification answers a verification token that is forged,
	// expired, made for another purpose or for an account that is gone.
	errInvalidVerification = &errs.Error{Kind: errs.Invalid, Code: "invalid_verification_token",
		Message: "Verification link is invalid or has expired", Fields: map[string][]string{"token": {"is invalid or has expired"}}}
	// errInvalidReset answers a reset token that is wrong, used or older than user.ResetTTL.
	errInvalidReset = &errs.Error{Kind: errs.Invalid, Code: "invalid_reset_token",
		Message: "Password reset link is invalid or has expired", Fields: map[string][]string{"token": {"is invalid or has expired"}}}
	// ErrWrongCurrentPassword answers a password change whose current password is wrong.
	ErrWrongCurrentPassword = &errs.Error{Kind: errs.Invalid, Code: "current_password_incorrect",
		Message: "Current password is incorrect", Fields: map[string][]string{"current_password": {"is incorrect"}}}
	errAlreadyVerified = errs.E(errs.Conflict, "email_already_verified", "Email address is already verified")
)

// Register creates a pending account (role user, plan starter) and mails
// its email verification link. An email or phone that another account holds,
// whatever that account's state, is a 422 field error.
func (p *Accounts) Register(ctx context.Context, profile user.Profile, ip string) (*user.User, error) {
	return p.register(ctx, profile, ip, nil)
}

// RegisterCustomer is Register on a reseller's domain (brands.Brands.ResellerOfHost):
// the pending account is that reseller's customer, for it to activate.
func (p *Accounts) RegisterCustomer(ctx context.Context, resellerID uint64, profile user.Profile, ip string) (*user.User, error) {
	return p.register(ctx, profile, ip, &resellerID)
}

func (p *Accounts) register(ctx context.Context, profile user.Profile, ip string, parent *uint64) (*user.User, error) {
	fe := errs.FieldErrors{}
	if err := fe.Merge(profile.Validate(true)); err != nil {
		return nil, err
	}
	if _, bad := fe["email"]; !bad {
		held, err := p.st.Users.ByEmail(ctx, profile.Email)
		switch {
		case err == nil && !held.IsDeleted() && held.Unconfirmed():
			// The address's owner, maybe: the mail goes to it, with the
			// link that claims the account (startReset), never to the asker.
			fe.Add("email", user.UnconfirmedMessage)
			p.later(ctx, func(ctx context.Context) {
				if err := p.startReset(ctx, profile.Email); err != nil {
					p.log.Error("claim mail of an unconfirmed customer", "err", err)
				}
			})
		case err == nil:
			fe.Add("email", user.TakenMessage)
		case errs.KindOf(err) != errs.NotFound:
			return nil, fmt.Errorf("check email: %w", err)
		}
	}
	if _, bad := fe["phone"]; !bad {
		if err := p.checkFree(ctx, fe, "phone", p.st.Users.ByPhone, profile.Phone); err != nil {
			return nil, err
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	u, err := p.createUser(ctx, NewUser{Profile: profile, Role: user.RoleUser, Status: user.StatusPending, Plan: p.defaultPlan(), IPAddress: ip, ParentID: parent}, nil)
	if err != nil {
		// Another registration took the email or phone since the check.
		return nil, user.TakenFields(err)
	}
	p.mailVerification(ctx, u)
	return u, nil
}

func (p *Accounts) checkFree(ctx context.Context, fe errs.FieldErrors, field string, find func(context.Context, string) (*user.User, error), v string) error {
	_, err := find(ctx, v)
	switch {
	case err == nil:
		fe.Add(field, user.TakenMessage)
	case errs.KindOf(err) != errs.NotFound:
		return fmt.Errorf("check %s: %w", field, err)
	}
	return nil
}

// mailVerification mails the account's verification link, after the
// answer, unless one went within signin.MailEvery.
func (p *Accounts) mailVerification(ctx context.Context, u *user.User) {
	if p.email == nil {
		p.log.Warn("verification mail not sent: no email token signer", "user_id", u.ID)
		return
	}
	if due, err := p.mailDue(ctx, signin.MailVerification, u.ID); err != nil || !due {
		if err != nil {
			p.log.Error("verification mail not sent", "user_id", u.ID, "err", err)
		}
		return
	}
	tok, err := p.email.IssueEmailVerification(u.ID, u.Email, p.now().Add(user.VerificationTTL))
	if err != nil {
		p.log.Error("issue verification token", "user_id", u.ID, "err", err)
		return
	}
	link := p.cfg.PublicBaseURL + "/verify-email?token=" + url.QueryEscape(tok)
	p.mailLater(ctx, panel.Message{To: u.Email, Subject: "Verify your email address", Link: link,
		Text: "Hello,\n\nplease confirm your email address by opening this link:\n\n" + link +
			"\n\nThe link is valid for 48 hours. If you did not register, ignore this message.\n"})
}

// VerifyEmail marks the email of the token's account as verified. Using a
// valid link again changes nothing and succeeds.
func (p *Accounts) VerifyEmail(ctx context.Context, token string) error {
	if p.email == nil {
		return errInvalidVerification
	}
	id, email, err := p.email.ParseEmailVerification(token, p.now())
	if err != nil {
		return errInvalidVerification
	}
	return p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return errInvalidVerification
			}
			return err
		}
		if u.IsDeleted() || !strings.EqualFold(u.Email, email) {
			return errInvalidVerification
		}
		if u.EmailVerifiedAt != nil {
			return nil
		}
		now := p.now().UTC()
		u.EmailVerifiedAt, u.UpdatedAt = &now, now
		return s.Users.Update(ctx, u)
	})
}

// mailDue claims the one mail of kind that u's account may get in the next
// signin.MailEvery, on counters every instance shares; false when one went
// within it (this one is then not sent). With no counter store (unit tests
// of other rules) every mail is due.
func (p *Accounts) mailDue(ctx context.Context, kind signin.MailKind, userID uint64) (bool, error) {
	if p.st.Logins == nil {
		return true, nil
	}
	key := []string{signin.MailKey(kind, signin.UserAccount(userID))}
	now := p.now()
	if err := p.st.Logins.Ensure(ctx, key, now); err != nil {
		return false, fmt.Errorf("create mail counter: %w", err)
	}
	due := false
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		cs, err := s.Logins.Lock(ctx, key)
		if err != nil {
			return fmt.Errorf("lock mail counter: %w", err)
		}
		next, ok := signin.TakeMail(cs[0], now, signin.MailEvery)
		if !ok {
			return nil
		}
		due = true
		return s.Logins.Save(ctx, []signin.Counter{next})
	})
	return due && err == nil, err
}

// ResendVerification mails the caller a new verification link, unless one
// went within signin.MailEvery; the answer is the same either way.
func (p *Accounts) ResendVerification(ctx context.Context, caller *user.User) error {
	if caller.EmailVerifiedAt != nil {
		return errAlreadyVerified
	}
	p.mailVerification(ctx, caller)
	return nil
}

// ForgotPassword starts a password reset. It returns at once, before looking
// the email up, so its answer and its time are the same whether or not an
// account has that email; the lookup, the token and the mail follow in the
// background. Unknown, deleted and blocked accounts get no mail.
func (p *Accounts) ForgotPassword(ctx context.Context, email string) error {
	email = user.NormalizeEmail(email)
	if !user.ValidEmail(email) {
		return errs.Validation(map[string][]string{"email": {"must be a valid email address"}})
	}
	p.later(ctx, func(ctx context.Context) {
		if err := p.startReset(ctx, email); err != nil {
			p.log.Error("password reset", "err", err)
		}
	})
	return nil
}

func (p *Accounts) startReset(ctx context.Context, email string) error {
	u, err := p.st.Users.ByEmail(ctx, email)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		return fmt.Errorf("find user: %w", err)
	}
	if u.IsDeleted() || u.Status == user.StatusBlocked {
		return nil
	}
	// Within signin.MailEvery of the last link nothing changes: that link
	// stays valid, and whoever keeps asking only keeps it coming.
	if due, err := p.mailDue(ctx, signin.MailReset, u.ID); err != nil || !due {
		return err
	}
	token := user.ResetPrefix + apikey.RandomBase62(43)
	// One token per email: a new request replaces the previous one.
	if err := p.st.Resets.Put(ctx, user.ResetToken{Email: u.Email, TokenHash: session.Hash(token), CreatedAt: p.now().UTC()}); err != nil {
		return fmt.Errorf("store reset token: %w", err)
	}
	link := p.cfg.PublicBaseURL + "/reset-password?token=" + url.QueryEscape(token) + "&email=" + url.QueryEscape(u.Email)
	if u.Unconfirmed() {
		return p.mailClaim(ctx, u, link)
	}
	p.mailLater(ctx, panel.Message{To: u.Email, Subject: "Reset your password", Link: link,
		Text: "Hello,\n\nsomeone asked to reset the password of this account. To choose a new one, open this link:\n\n" + link +
			"\n\nThe link is valid for 60 minutes and works once. If it was not you, ignore this message; your password stays as it is.\n"})
	return nil
}

// mailClaim mails the owner of an unconfirmed customer's address the reset
// link (from a registration or a reset request with that address): by
// default it takes the account as its own, detached from the reseller; the
// second link (stay=1, ResetPassword's stay) keeps the reseller. It is the
// platform's mail, never the reseller's brand or domain (Unbranded): the
// link takes the account away from that reseller.
func (p *Accounts) mailClaim(ctx context.Context, u *user.User, link string) error {
	reseller := "a reseller"
	if r, err := p.st.Users.ByID(ctx, *u.ParentID); err == nil {
		reseller = r.Name
	} else if errs.KindOf(err) != errs.NotFound {
		return fmt.Errorf("find reseller: %w", err)
	}
	p.mailLater(ctx, panel.Message{To: u.Email, Subject: "Claim your account", Link: link, Unbranded: true,
		Text: "Hello,\n\n" + reseller + " created an account with this email address, as its customer, and it was never confirmed. " +
			"Someone has just asked to register or to reset the password with this address. If the address is yours, choose your password " +
			"through one of these links.\n\nTo take the account as your own (it stops being " + reseller + "'s customer; " +
			"an administrator then activates it, as any new account):\n\n" + link +
			"\n\nTo stay a customer of " + reseller + ":\n\n" + link + "&stay=1" +
			"\n\nThe links are valid for 60 minutes and work once. If it was not you, ignore this message.\n"})
	return nil
}

// ResetPassword sets a new password with a reset token. The token works once
// (a conditional delete: of two concurrent uses exactly one succeeds) and for
// user.TokenTTL. Every session of the account ends, and the email counts as
// verified (the link reached it). A blocked account gets 403.
//
// For an unconfirmed customer (user.Unconfirmed) the link is also the
// owner's answer to its reseller: a reseller's invite (user.InvitePrefix)
// or stay accepts it (customer.confirm; the invite, the reseller's own
// approval, activates a pending account with its key and webhook secret);
// a reset link without stay ends the relation (customer.detach): the
// account is the owner's, nobody's customer, and keeps its status (a
// pending one waits for an administrator, as any registration). Both are
// audited with the account as actor, in the same transaction.
func (p *Accounts) ResetPassword(ctx context.Context, email, token, password string, stay bool) error {
	email = user.NormalizeEmail(email)
	fe := errs.FieldErrors{}
	if !user.ValidEmail(email) {
		fe.Add("email", "must be a valid email address")
	}
	if token == "" {
		fe.Add("token", "is required")
	}
	if msg := user.PasswordProblem(password); msg != "" {
		fe.Add("password", msg)
	}
	if err := fe.Err(); err != nil {
		return err
	}
	hash, err := p.pw.Hash(password)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	return p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		now := p.now().UTC()
		took, err := s.Resets.Take(ctx, email, session.Hash(token), now.Add(-user.TokenTTL(token)))
		if err != nil {
			return fmt.Errorf("take reset token: %w", err)
		}
		if !took {
			return errInvalidReset
		}
		found, err := s.Users.ByEmail(ctx, email)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return errInvalidReset
			}
			return err
		}
		u, err := s.Users.LockByID(ctx, found.ID)
		if err != nil {
			return err
		}
		if u.IsDeleted() {
			return errInvalidReset
		}
		if u.Status == user.StatusBlocked {
			return user.ErrNotActive
		}
		claim := u.Unconfirmed()
		before := userSnapshot(u)
		u.PasswordHash, u.UpdatedAt = hash, now
		if u.EmailVerifiedAt == nil {
			u.EmailVerifiedAt = &now
		}
		action := audit.CustomerConfirm
		invite := strings.HasPrefix(token, user.InvitePrefix)
		activated := false
		switch {
		case !claim:
		case invite || stay:
			if invite && u.Status == user.StatusPending {
				u.Status, activated = user.StatusActive, true
			}
		default:
			u.Detach()
			action = audit.CustomerDetach
		}
		if err := s.Users.Update(ctx, u); err != nil {
			return err
		}
		if activated {
			if err := p.provisionActive(ctx, s, u); err != nil {
				return err
			}
		}
		if err := s.Sessions.DeleteByUser(ctx, u.ID); err != nil {
			return fmt.Errorf("end sessions: %w", err)
		}
		if claim {
			return store.Record(ctx, s.Audit, now, u, action, audit.TargetUser, u.ID, before, userSnapshot(u))
		}
		return nil
	})
}

// MePatch is what a signed-in user may change of their own account; nil or
// unset fields stay as they are.
type MePatch struct {
	Name            *string
	Phone           *string
	WebhookURL      panel.Nullable[string] // "" clears it like null
	LowBalanceAlert panel.Nullable[string] // decimal ≥ 0, at most 2 places
	Password        *string
	CurrentPassword string
}

// UpdateMe changes the caller's own account. A new password needs the current
// one and ends every other session of the account (sessionID, the caller's
// own, stays).
func (p *Accounts) UpdateMe(ctx context.Context, caller *user.User, sessionID uint64, patch MePatch) (*user.User, error) {
	fe := errs.FieldErrors{}
	if patch.Name != nil {
		n := strings.TrimSpace(*patch.Name)
		if n == "" {
			fe.Add("name", "is required")
		} else if len(n) > 255 {
			fe.Add("name", "must be at most 255 characters")
		}
		patch.Name = &n
	}
	if patch.Phone != nil {
		ph := strings.TrimSpace(*patch.Phone)
		if !user.ValidPhone(ph) {
			fe.Add("phone", "must be 10 to 15 digits")
		}
		patch.Phone = &ph
	}
	if v := patch.WebhookURL.Value; patch.WebhookURL.Set && v != nil {
		if w := strings.TrimSpace(*v); w == "" {
			patch.WebhookURL.Value = nil
		} else if msg := user.WebhookURLProblem(w); msg != "" {
			fe.Add("webhook_url", msg)
		} else if msg := webhook.TargetProblem(p.targets, w); msg != "" {
			fe.Add("webhook_url", msg)
		} else {
			patch.WebhookURL.Value = &w
		}
	}
	var alert *decimal.Decimal
	if v := patch.LowBalanceAlert.Value; patch.LowBalanceAlert.Set && v != nil {
		d, ok := inr.Parse(*v, 2)
		if !ok || d.IsNegative() || !inr.FitsColumn(d, 12, 2) {
			fe.Add("low_balance_alert", "must be an amount of at least 0 with at most 2 decimals")
		} else {
			alert = &d
		}
	}
	if patch.Password != nil {
		if msg := user.PasswordProblem(*patch.Password); msg != "" {
			fe.Add("password", msg)
		}
		if patch.CurrentPassword == "" {
			fe.Add("current_password", "is required to change the password")
		}
	} else if patch.CurrentPassword != "" {
		fe.Add("password", "is required with current_password")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	var newHash string
	if patch.Password != nil {
		if !p.pw.Check(caller, patch.CurrentPassword) {
			return nil, ErrWrongCurrentPassword
		}
		h, err := p.pw.Hash(*patch.Password)
		if err != nil {
			return nil, fmt.Errorf("hash password: %w", err)
		}
		newHash = h
	}
	var out *user.User
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, caller.ID)
		if err != nil {
			return err
		}
		if u.IsDeleted() || u.CanAct() != nil {
			return errs.ErrUnauthorized
		}
		if newHash != "" {
			if u.PasswordHash != caller.PasswordHash {
				return ErrWrongCurrentPassword // changed since it was checked
			}
			u.PasswordHash = newHash
		}
		if patch.Name != nil {
			u.Name = *patch.Name
		}
		if patch.Phone != nil {
			u.Phone = *patch.Phone
		}
		if patch.WebhookURL.Set {
			u.WebhookURL = patch.WebhookURL.Value
		}
		if patch.LowBalanceAlert.Set {
			u.LowBalanceAlert = alert
		}
		u.UpdatedAt = p.now().UTC()
		if err := s.Users.Update(ctx, u); err != nil {
			return user.TakenFields(err)
		}
		if newHash != "" {
			if err := s.Sessions.DeleteOthers(ctx, u.ID, sessionID); err != nil {
				return fmt.Errorf("end other sessions: %w", err)
			}
			// A reset link mailed before the change must not undo it.
			if err := s.Resets.Delete(ctx, u.Email); err != nil {
				return err
			}
		}
		out = u
		return nil
	})
	return out, err
}
