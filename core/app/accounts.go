package app

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/shopspring/decimal"

	"paygate/core/apikey"
	"paygate/core/errs"
	"paygate/core/money"
	"paygate/core/session"
	"paygate/core/user"
	"paygate/core/webhook"
)

var (
	// ErrInvalidVerification answers a verification token that is forged,
	// expired, made for another purpose or for an account that is gone.
	ErrInvalidVerification = &errs.Error{Kind: errs.Invalid, Code: "invalid_verification_token",
		Message: "Verification link is invalid or has expired", Fields: map[string][]string{"token": {"is invalid or has expired"}}}
	// ErrInvalidReset answers a reset token that is wrong, used or older than user.ResetTTL.
	ErrInvalidReset = &errs.Error{Kind: errs.Invalid, Code: "invalid_reset_token",
		Message: "Password reset link is invalid or has expired", Fields: map[string][]string{"token": {"is invalid or has expired"}}}
	// ErrWrongCurrentPassword answers a password change whose current password is wrong.
	ErrWrongCurrentPassword = &errs.Error{Kind: errs.Invalid, Code: "current_password_incorrect",
		Message: "Current password is incorrect", Fields: map[string][]string{"current_password": {"is incorrect"}}}
	ErrAlreadyVerified = errs.E(errs.Conflict, "email_already_verified", "Email address is already verified")
)

// Register creates a pending account (role user, plan starter) and mails
// its email verification link. An email or phone that another account holds,
// whatever that account's state, is a 422 field error.
func (a *App) Register(ctx context.Context, p user.Profile, ip string) (*user.User, error) {
	fe := errs.FieldErrors{}
	if err := fe.Merge(p.Validate(true)); err != nil {
		return nil, err
	}
	if _, bad := fe["email"]; !bad {
		if err := a.checkFree(ctx, fe, "email", a.st.Users.ByEmail, p.Email); err != nil {
			return nil, err
		}
	}
	if _, bad := fe["phone"]; !bad {
		if err := a.checkFree(ctx, fe, "phone", a.st.Users.ByPhone, p.Phone); err != nil {
			return nil, err
		}
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	u, err := a.createUser(ctx, NewUser{Profile: p, Role: user.RoleUser, Status: user.StatusPending, Plan: user.PlanStarter, IPAddress: ip}, nil)
	if err != nil {
		// Another registration took the email or phone since the check.
		return nil, user.TakenFields(err)
	}
	a.mailVerification(ctx, u)
	return u, nil
}

func (a *App) checkFree(ctx context.Context, fe errs.FieldErrors, field string, find func(context.Context, string) (*user.User, error), v string) error {
	_, err := find(ctx, v)
	switch {
	case err == nil:
		fe.Add(field, user.TakenMessage)
	case errs.KindOf(err) != errs.NotFound:
		return fmt.Errorf("check %s: %w", field, err)
	}
	return nil
}

// mailVerification mails the account's verification link, after the answer.
func (a *App) mailVerification(ctx context.Context, u *user.User) {
	if a.email == nil {
		a.log.Warn("verification mail not sent: no email token signer", "user_id", u.ID)
		return
	}
	tok, err := a.email.IssueEmailVerification(u.ID, u.Email, a.now().Add(user.VerificationTTL))
	if err != nil {
		a.log.Error("issue verification token", "user_id", u.ID, "err", err)
		return
	}
	link := a.cfg.PublicBaseURL + "/verify-email?token=" + url.QueryEscape(tok)
	a.mailLater(ctx, Message{To: u.Email, Subject: "Verify your email address", Link: link,
		Text: "Hello,\n\nplease confirm your email address by opening this link:\n\n" + link +
			"\n\nThe link is valid for 48 hours. If you did not register, ignore this message.\n"})
}

// VerifyEmail marks the email of the token's account as verified. Using a
// valid link again changes nothing and succeeds.
func (a *App) VerifyEmail(ctx context.Context, token string) error {
	if a.email == nil {
		return ErrInvalidVerification
	}
	id, email, err := a.email.ParseEmailVerification(token, a.now())
	if err != nil {
		return ErrInvalidVerification
	}
	return a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
		u, err := s.Users.LockByID(ctx, id)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return ErrInvalidVerification
			}
			return err
		}
		if u.IsDeleted() || !strings.EqualFold(u.Email, email) {
			return ErrInvalidVerification
		}
		if u.EmailVerifiedAt != nil {
			return nil
		}
		now := a.now().UTC()
		u.EmailVerifiedAt, u.UpdatedAt = &now, now
		return s.Users.Update(ctx, u)
	})
}

// ResendVerification mails the caller a new verification link.
func (a *App) ResendVerification(ctx context.Context, caller *user.User) error {
	if caller.EmailVerifiedAt != nil {
		return ErrAlreadyVerified
	}
	a.mailVerification(ctx, caller)
	return nil
}

// ForgotPassword starts a password reset. It returns at once, before looking
// the email up, so its answer and its time are the same whether or not an
// account has that email; the lookup, the token and the mail follow in the
// background. Unknown, deleted and blocked accounts get no mail.
func (a *App) ForgotPassword(ctx context.Context, email string) error {
	email = strings.ToLower(strings.TrimSpace(email))
	if !user.ValidEmail(email) {
		return errs.Validation(map[string][]string{"email": {"must be a valid email address"}})
	}
	a.later(ctx, func(ctx context.Context) {
		if err := a.startReset(ctx, email); err != nil {
			a.log.Error("password reset", "err", err)
		}
	})
	return nil
}

func (a *App) startReset(ctx context.Context, email string) error {
	u, err := a.st.Users.ByEmail(ctx, email)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil
		}
		return fmt.Errorf("find user: %w", err)
	}
	if u.IsDeleted() || u.Status == user.StatusBlocked {
		return nil
	}
	token := "pr_" + apikey.RandomBase62(43)
	// One token per email: a new request replaces the previous one.
	if err := a.st.Resets.Put(ctx, user.ResetToken{Email: u.Email, TokenHash: session.Hash(token), CreatedAt: a.now().UTC()}); err != nil {
		return fmt.Errorf("store reset token: %w", err)
	}
	link := a.cfg.PublicBaseURL + "/reset-password?token=" + url.QueryEscape(token) + "&email=" + url.QueryEscape(u.Email)
	a.mailLater(ctx, Message{To: u.Email, Subject: "Reset your password", Link: link,
		Text: "Hello,\n\nsomeone asked to reset the password of this account. To choose a new one, open this link:\n\n" + link +
			"\n\nThe link is valid for 60 minutes and works once. If it was not you, ignore this message; your password stays as it is.\n"})
	return nil
}

// ResetPassword sets a new password with a reset token. The token works once
// (a conditional delete: of two concurrent uses exactly one succeeds) and for
// user.ResetTTL. Every session of the account ends, and the email counts as
// verified (the link reached it). A blocked account gets 403.
func (a *App) ResetPassword(ctx context.Context, email, token, password string) error {
	email = strings.ToLower(strings.TrimSpace(email))
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
	hash, err := a.pw.Hash(password)
	if err != nil {
		return fmt.Errorf("hash password: %w", err)
	}
	return a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
		now := a.now().UTC()
		took, err := s.Resets.Take(ctx, email, session.Hash(token), now.Add(-user.ResetTTL))
		if err != nil {
			return fmt.Errorf("take reset token: %w", err)
		}
		if !took {
			return ErrInvalidReset
		}
		found, err := s.Users.ByEmail(ctx, email)
		if err != nil {
			if errs.KindOf(err) == errs.NotFound {
				return ErrInvalidReset
			}
			return err
		}
		u, err := s.Users.LockByID(ctx, found.ID)
		if err != nil {
			return err
		}
		if u.IsDeleted() {
			return ErrInvalidReset
		}
		if u.Status == user.StatusBlocked {
			return user.ErrNotActive
		}
		u.PasswordHash, u.UpdatedAt = hash, now
		if u.EmailVerifiedAt == nil {
			u.EmailVerifiedAt = &now
		}
		if err := s.Users.Update(ctx, u); err != nil {
			return err
		}
		if err := s.Sessions.DeleteByUser(ctx, u.ID); err != nil {
			return fmt.Errorf("end sessions: %w", err)
		}
		return nil
	})
}

// Nullable is a patch field that may be absent (Set false), null (Value
// nil) or a value.
type Nullable[T any] struct {
	Set   bool
	Value *T
}

// MePatch is what a signed-in user may change of their own account; nil or
// unset fields stay as they are.
type MePatch struct {
	Name            *string
	Phone           *string
	WebhookURL      Nullable[string] // "" clears it like null
	LowBalanceAlert Nullable[string] // decimal ≥ 0, at most 2 places
	Password        *string
	CurrentPassword string
}

// UpdateMe changes the caller's own account. A new password needs the current
// one and ends every other session of the account (sessionID, the caller's
// own, stays).
func (a *App) UpdateMe(ctx context.Context, caller *user.User, sessionID uint64, p MePatch) (*user.User, error) {
	fe := errs.FieldErrors{}
	if p.Name != nil {
		n := strings.TrimSpace(*p.Name)
		if n == "" {
			fe.Add("name", "is required")
		} else if len(n) > 255 {
			fe.Add("name", "must be at most 255 characters")
		}
		p.Name = &n
	}
	if p.Phone != nil {
		ph := strings.TrimSpace(*p.Phone)
		if !user.ValidPhone(ph) {
			fe.Add("phone", "must be 10 to 15 digits")
		}
		p.Phone = &ph
	}
	if v := p.WebhookURL.Value; p.WebhookURL.Set && v != nil {
		if w := strings.TrimSpace(*v); w == "" {
			p.WebhookURL.Value = nil
		} else if msg := user.WebhookURLProblem(w); msg != "" {
			fe.Add("webhook_url", msg)
		} else if msg := webhook.TargetProblem(a.targets, w); msg != "" {
			fe.Add("webhook_url", msg)
		} else {
			p.WebhookURL.Value = &w
		}
	}
	var alert *decimal.Decimal
	if v := p.LowBalanceAlert.Value; p.LowBalanceAlert.Set && v != nil {
		d, ok := money.Parse(*v, 2)
		if !ok || d.IsNegative() || !money.FitsColumn(d, 12, 2) {
			fe.Add("low_balance_alert", "must be an amount of at least 0 with at most 2 decimals")
		} else {
			alert = &d
		}
	}
	if p.Password != nil {
		if msg := user.PasswordProblem(*p.Password); msg != "" {
			fe.Add("password", msg)
		}
		if p.CurrentPassword == "" {
			fe.Add("current_password", "is required to change the password")
		}
	} else if p.CurrentPassword != "" {
		fe.Add("password", "is required with current_password")
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	var newHash string
	if p.Password != nil {
		if !a.pw.Check(caller, p.CurrentPassword) {
			return nil, ErrWrongCurrentPassword
		}
		h, err := a.pw.Hash(*p.Password)
		if err != nil {
			return nil, fmt.Errorf("hash password: %w", err)
		}
		newHash = h
	}
	var out *user.User
	err := a.tx.WithinTx(ctx, func(ctx context.Context, s Stores) error {
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
		if p.Name != nil {
			u.Name = *p.Name
		}
		if p.Phone != nil {
			u.Phone = *p.Phone
		}
		if p.WebhookURL.Set {
			u.WebhookURL = p.WebhookURL.Value
		}
		if p.LowBalanceAlert.Set {
			u.LowBalanceAlert = alert
		}
		u.UpdatedAt = a.now().UTC()
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
