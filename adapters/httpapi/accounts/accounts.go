package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
)

// messageResponse is the answer of account actions that return no record.
type messageResponse struct {
	Message string `json:"message"`
}

// forgotMessage is the one answer of forgot-password, whatever the email.
const forgotMessage = "If an account with that email exists, a password reset link has been sent to it."

type registerRequest struct {
	Name     string `json:"name" validate:"required,max=255"`
	Email    string `json:"email" validate:"required,max=255"`
	Phone    string `json:"phone" validate:"required,max=20"`
	Password string `json:"password" validate:"required,max=255"`
}

func (h *Handler) Register(c echo.Context) error {
	var req registerRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	ip := c.RealIP()
	if err := h.registrations.Allow(time.Now(), web.AddressKey(ip)); err != nil {
		return err
	}
	ctx := c.Request().Context()
	profile := user.Profile{Name: req.Name, Email: req.Email, Phone: req.Phone, Password: req.Password}
	// On a reseller's domain the account is that reseller's customer.
	var reseller uint64
	if h.app.Brands != nil {
		id, ok, err := h.app.Brands.ResellerOfHost(ctx, c.Request().Host)
		if err != nil {
			return err
		}
		if ok {
			reseller = id
		}
	}
	var u *user.User
	var err error
	if reseller != 0 {
		u, err = h.app.Accounts.RegisterCustomer(ctx, reseller, profile, ip)
	} else {
		u, err = h.app.Accounts.Register(ctx, profile, ip)
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, ToUserResponse(u))
}

type verifyEmailRequest struct {
	Token string `json:"token" validate:"required,max=2000"`
}

func (h *Handler) VerifyEmail(c echo.Context) error {
	var req verifyEmailRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	if err := h.app.Accounts.VerifyEmail(c.Request().Context(), req.Token); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: "Email address verified"})
}

// resendMessage is the one answer of resend-verification, whether a mail
// went or one had gone within the last few minutes.
const resendMessage = "A verification link is on its way, unless one was sent in the last 5 minutes: check your inbox."

func (h *Handler) ResendVerification(c echo.Context) error {
	// No 429 here: the caller is signed in, and the account gets at most
	// one mail every few minutes whoever asks (panel.ResendVerification), so
	// another session's requests never refuse the owner.
	if err := h.app.Accounts.ResendVerification(c.Request().Context(), web.Caller(c)); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: resendMessage})
}

type forgotPasswordRequest struct {
	Email string `json:"email" validate:"required,max=255"`
}

func (h *Handler) ForgotPassword(c echo.Context) error {
	var req forgotPasswordRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	// Only the asking address is limited (a 429 tells nothing about the
	// email); the account gets at most one mail every few minutes, however
	// many addresses ask, and never a refusal (panel.ForgotPassword), so
	// nobody else's requests lock the owner out.
	if err := h.accountMail.Allow(time.Now(), web.AddressKey(c.RealIP())); err != nil {
		return err
	}
	if err := h.app.Accounts.ForgotPassword(c.Request().Context(), req.Email); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: forgotMessage})
}

type resetPasswordRequest struct {
	Email    string `json:"email" validate:"required,max=255"`
	Token    string `json:"token" validate:"required,max=200"`
	Password string `json:"password" validate:"required,max=255"`
	// StayWithReseller: an unconfirmed customer's owner keeps its reseller
	// (the mailed link's stay=1); without it a reset link detaches it.
	StayWithReseller bool `json:"stay_with_reseller"`
}

func (h *Handler) ResetPassword(c echo.Context) error {
	var req resetPasswordRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	if err := h.resets.Allow(time.Now(), web.AddressKey(c.RealIP())); err != nil {
		return err
	}
	if err := h.app.Accounts.ResetPassword(c.Request().Context(), req.Email, req.Token, req.Password, req.StayWithReseller); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, messageResponse{Message: "Password changed; sign in with the new password"})
}

type sessionResponse struct {
	ID         uint64     `json:"id"`
	Name       string     `json:"name"`
	CreatedAt  *time.Time `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	Current    bool       `json:"current"`
}

func toSessionResponse(current uint64) func(*session.Token) sessionResponse {
	return func(t *session.Token) sessionResponse {
		return sessionResponse{ID: t.ID, Name: t.Name, CreatedAt: web.TimePtr(t.CreatedAt), LastUsedAt: t.LastUsedAt,
			ExpiresAt: web.TimePtr(t.ExpiresAt), Current: t.ID == current}
	}
}

func (h *Handler) ListSessions(c echo.Context) error {
	list, err := h.app.Accounts.Sessions(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return web.WritePaged(c, web.MapSlice(list, toSessionResponse(web.CallerSession(c))))
}

func (h *Handler) RevokeSession(c echo.Context) error {
	id, err := web.IDParam(c, "id")
	if err != nil {
		return session.ErrNotFound
	}
	if err := h.app.Accounts.RevokeSession(c.Request().Context(), web.Caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type patchMeRequest struct {
	Name            *string            `json:"name" validate:"omitempty,max=255"`
	Phone           *string            `json:"phone" validate:"omitempty,max=20"`
	WebhookURL      web.NullableString `json:"webhook_url"`
	LowBalanceAlert web.NullableString `json:"low_balance_alert"`
	Password        *string            `json:"password" validate:"omitempty,max=255"`
	CurrentPassword *string            `json:"current_password" validate:"omitempty,max=255"`
	// Billing is the billing profile: absent, null (cleared) or an object
	// (billingprofile.go).
	Billing json.RawMessage `json:"billing"`
}

func (h *Handler) PatchMe(c echo.Context) error {
	var req patchMeRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	// The profile is checked before the account changes, and saved after.
	billing, err := h.readBillingPatch(req.Billing)
	if err != nil {
		return err
	}
	u := web.Caller(c)
	p := accounts.MePatch{Name: req.Name, Phone: req.Phone, WebhookURL: req.WebhookURL.Patch(),
		LowBalanceAlert: req.LowBalanceAlert.Patch(), Password: req.Password}
	release := func(context.Context) {}
	if req.CurrentPassword != nil {
		p.CurrentPassword = *req.CurrentPassword
		// Guessing the current password with a stolen access token is
		// limited like guessing it at login, on the same counters.
		if release, err = h.app.Accounts.GuardPassword(c.Request().Context(), u, c.RealIP()); err != nil {
			return web.WithRetryAfter(c, err)
		}
	}
	out, err := h.app.Accounts.UpdateMe(c.Request().Context(), u, web.CallerSession(c), p)
	if !errors.Is(err, accounts.ErrWrongCurrentPassword) {
		release(c.Request().Context())
	}
	if err != nil {
		return err
	}
	if err := h.applyBillingPatch(c.Request().Context(), out.ID, billing); err != nil {
		return err
	}
	return h.meOut(c, out)
}
