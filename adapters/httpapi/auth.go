package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"paygate/core/audit"
	"paygate/core/errs"
	"paygate/core/panel"
	"paygate/core/user"
)

const (
	ctxUser    = "user"
	ctxSession = "session_id"
)

// signedIn requires a valid panel access token of an active user.
func (s *server) signedIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header.Get(echo.HeaderAuthorization)
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || tok == "" {
			return errs.ErrUnauthorized
		}
		u, sid, err := s.app.Panel.Authenticate(c.Request().Context(), strings.TrimSpace(tok))
		if err != nil {
			return err
		}
		c.Set(ctxUser, u)
		c.Set(ctxSession, sid)
		return next(c)
	}
}

// adminOnly answers 403 to signed-in users who are not admins. For admins it
// puts the request's address and id in the context, for the audit log.
func adminOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if caller(c).Role != user.RoleAdmin {
			return errs.ErrForbidden
		}
		req := c.Request()
		src := audit.Source{IPAddress: c.RealIP(), RequestID: requestIDOf(c)}
		c.SetRequest(req.WithContext(audit.WithSource(req.Context(), src)))
		return next(c)
	}
}

func caller(c echo.Context) *user.User {
	u, _ := c.Get(ctxUser).(*user.User)
	return u
}

// callerSession is the id of the session the caller's access token belongs to.
func callerSession(c echo.Context) uint64 {
	id, _ := c.Get(ctxSession).(uint64)
	return id
}

type loginRequest struct {
	Email    string `json:"email" validate:"required,max=255"`
	Password string `json:"password" validate:"required,max=255"`
}

type tokenResponse struct {
	AccessToken  string       `json:"access_token"`
	RefreshToken string       `json:"refresh_token"`
	TokenType    string       `json:"token_type"`
	ExpiresIn    int          `json:"expires_in"`
	User         userResponse `json:"user"`
}

func loginResponse(l *panel.Login) tokenResponse {
	return tokenResponse{
		AccessToken: l.AccessToken, RefreshToken: l.RefreshToken, TokenType: "Bearer",
		ExpiresIn: int(l.ExpiresIn / time.Second), User: toUserResponse(l.User),
	}
}

func (s *server) login(c echo.Context) error {
	var req loginRequest
	if err := s.bind(c, &req); err != nil {
		return err
	}
	done, ok := s.logins.attempt(req.Email, c.RealIP(), time.Now())
	if !ok {
		return errTooManyLogins
	}
	l, err := s.app.Panel.Login(c.Request().Context(), req.Email, req.Password, c.Request().UserAgent())
	done(!errors.Is(err, user.ErrBadCredentials))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, loginResponse(l))
}

type refreshRequest struct {
	RefreshToken string `json:"refresh_token" validate:"required,max=200"`
}

func (s *server) refresh(c echo.Context) error {
	var req refreshRequest
	if err := s.bind(c, &req); err != nil {
		return err
	}
	l, err := s.app.Panel.Refresh(c.Request().Context(), req.RefreshToken)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, loginResponse(l))
}

func (s *server) logout(c echo.Context) error {
	var req refreshRequest
	if err := s.bind(c, &req); err != nil {
		return err
	}
	if err := s.app.Panel.Logout(c.Request().Context(), caller(c), req.RefreshToken); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (s *server) me(c echo.Context) error {
	u, err := s.app.Panel.Me(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toUserResponse(u))
}
