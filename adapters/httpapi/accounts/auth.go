package accounts

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/adapters/httpapi/web"
	"paygate/core/accounts"
	"paygate/core/platform/errs"
)

// signedIn requires a valid panel access token of an active user.
func (h *Handler) SignedIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		hdr := c.Request().Header.Get(echo.HeaderAuthorization)
		tok, ok := strings.CutPrefix(hdr, "Bearer ")
		if !ok || tok == "" {
			return errs.ErrUnauthorized
		}
		u, sid, err := h.app.Accounts.Authenticate(c.Request().Context(), strings.TrimSpace(tok))
		if err != nil {
			return err
		}
		web.SignIn(c, u, sid)
		return next(c)
	}
}

type loginRequest struct {
	Email    string `json:"email" validate:"required,max=255"`
	Password string `json:"password" validate:"required,max=255"`
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	// RefreshToken is for API clients; the SPA uses the cookie. A refresh
	// made with the cookie leaves it out, so a script in the page cannot
	// read a long-lived token from the answer.
	RefreshToken string       `json:"refresh_token,omitempty"`
	TokenType    string       `json:"token_type"`
	ExpiresIn    int          `json:"expires_in"`
	User         UserResponse `json:"user"`
}

func loginResponse(l *accounts.Login) tokenResponse {
	return tokenResponse{
		AccessToken: l.AccessToken, RefreshToken: l.RefreshToken, TokenType: "Bearer",
		ExpiresIn: int(l.ExpiresIn / time.Second), User: ToUserResponse(l.User),
	}
}

// refreshCookie carries the refresh token to the SPA: HttpOnly (no script
// reads it), SameSite=Strict (no other site sends it), sent only to the
// auth routes, Secure when PUBLIC_BASE_URL is https.
//
// sessionHintCookie goes with it: "1", readable by the page, secret-free. A
// page load asks /auth/refresh only when it is there, so an anonymous visit
// sends no refresh that can only fail (a 422 in every console).
const (
	refreshCookie     = "paygate_refresh"
	refreshCookiePath = "/api/v1/panel/auth"
	sessionHintCookie = "paygate_session"
)

func (h *Handler) setRefreshCookie(c echo.Context, token string, maxAge time.Duration) {
	c.SetCookie(&http.Cookie{Name: refreshCookie, Value: token, Path: refreshCookiePath, MaxAge: int(maxAge / time.Second),
		HttpOnly: true, Secure: h.secureCookies, SameSite: http.SameSiteStrictMode})
	c.SetCookie(&http.Cookie{Name: sessionHintCookie, Value: "1", Path: "/", MaxAge: int(maxAge / time.Second),
		Secure: h.secureCookies, SameSite: http.SameSiteStrictMode})
}

func (h *Handler) clearRefreshCookie(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: refreshCookie, Value: "", Path: refreshCookiePath, MaxAge: -1,
		HttpOnly: true, Secure: h.secureCookies, SameSite: http.SameSiteStrictMode})
	c.SetCookie(&http.Cookie{Name: sessionHintCookie, Value: "", Path: "/", MaxAge: -1,
		Secure: h.secureCookies, SameSite: http.SameSiteStrictMode})
}

// refreshCookieMaxAge is the cookie's lifetime: the longest a session can
// live, so the browser keeps it while the server may still accept it.
const refreshCookieMaxAge = 90 * 24 * time.Hour

func (h *Handler) Login(c echo.Context) error {
	var req loginRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	l, err := h.app.Accounts.Login(c.Request().Context(), req.Email, req.Password, c.Request().UserAgent(), c.RealIP())
	if err != nil {
		return web.WithRetryAfter(c, err)
	}
	h.setRefreshCookie(c, l.RefreshToken, refreshCookieMaxAge)
	return c.JSON(http.StatusOK, loginResponse(l))
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token" validate:"max=200"`
}

// refreshToken is the request's refresh token: the JSON field (API
// clients) or else the cookie (the SPA); fromCookie tells which.
func refreshToken(c echo.Context, req refreshRequest) (token string, fromCookie bool) {
	if req.RefreshToken != "" {
		return req.RefreshToken, false
	}
	if ck, err := c.Cookie(refreshCookie); err == nil && ck.Value != "" && len(ck.Value) <= 200 {
		return ck.Value, true
	}
	return "", false
}

func (h *Handler) Refresh(c echo.Context) error {
	var req refreshRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	token, fromCookie := refreshToken(c, req)
	if token == "" {
		return errs.Validation(map[string][]string{"refresh_token": {"is required (in the body or the " + refreshCookie + " cookie)"}})
	}
	l, err := h.app.Accounts.Refresh(c.Request().Context(), token)
	if err != nil {
		if fromCookie {
			h.clearRefreshCookie(c)
		}
		return err
	}
	h.setRefreshCookie(c, l.RefreshToken, refreshCookieMaxAge)
	out := loginResponse(l)
	if fromCookie {
		out.RefreshToken = ""
	}
	return c.JSON(http.StatusOK, out)
}

// logout ends the session of the caller's access token, and the session of
// the refresh token sent (body, else cookie) when it is another of the
// caller's; it clears the cookie.
func (h *Handler) Logout(c echo.Context) error {
	var req refreshRequest
	if err := h.kit.Bind(c, &req); err != nil {
		return err
	}
	token, _ := refreshToken(c, req)
	if err := h.app.Accounts.Logout(c.Request().Context(), web.Caller(c), web.CallerSession(c), token); err != nil {
		return err
	}
	h.clearRefreshCookie(c)
	return c.NoContent(http.StatusNoContent)
}

func (h *Handler) Me(c echo.Context) error {
	u, err := h.app.Accounts.Me(c.Request().Context(), web.Caller(c))
	if err != nil {
		return err
	}
	return h.meOut(c, u)
}
