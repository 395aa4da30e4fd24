package web

import (
	"github.com/labstack/echo/v4"

	"paygate/core/accounts/user"
)

// What the middleware puts in a request's context: the signed-in caller
// and its session (accounts' SignedIn), the request id (every request).

const (
	ctxUser    = "user"
	ctxSession = "session_id"
)

// Caller is the signed-in user of a panel request.
func Caller(c echo.Context) *user.User {
	u, _ := c.Get(ctxUser).(*user.User)
	return u
}

// CallerSession is the id of the session the caller's access token belongs to.
func CallerSession(c echo.Context) uint64 {
	id, _ := c.Get(ctxSession).(uint64)
	return id
}

const ctxRequestID = "request_id"

// RequestID is the request's id (X-Request-ID).
func RequestID(c echo.Context) string {
	id, _ := c.Get(ctxRequestID).(string)
	return id
}

// SignIn records the caller and its session for the handlers.
func SignIn(c echo.Context, u *user.User, session uint64) {
	c.Set(ctxUser, u)
	c.Set(ctxSession, session)
}

// SetRequestID records the request's id.
func SetRequestID(c echo.Context, id string) { c.Set(ctxRequestID, id) }
