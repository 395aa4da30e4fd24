// Package session holds panel refresh tokens (personal access tokens).
//
// A refresh token's personal_access_tokens row is the session. A refresh
// rotates the row's hash by a conditional update (of two concurrent
// refreshes one wins) and extends it by 30 days, never past 90 days from
// sign-in. Each sign-in removes expired sessions and all but the newest 50.
// Access tokens (HS256, 15 min) carry the session id as sid; every request
// checks the session exists, is the user's and unexpired, and that the user
// is active (role and status are read from the database, not the token),
// so revoking a session, a password change or reset, blocking or deleting
// end access at once.
//
// The refresh token travels in the paygate_refresh cookie (HttpOnly,
// SameSite=Strict, path /api/v1/panel/auth, Max-Age 90 days, Secure when
// PUBLIC_BASE_URL is https), set by login and refresh. POST /auth/refresh
// takes the token from the body, else the cookie; login still returns
// refresh_token in the body for API clients, a cookie refresh leaves it
// out. Logout always ends the access token's own session, and also the
// session of the refresh token sent (body, else cookie) when that is
// another of the caller's; an unknown token or another user's ends only the
// caller's own (a 204 never leaves the caller signed in). It clears the
// cookie.
//
// Reuse detection: the row keeps the hash before its last rotation;
// presenting it (or losing a concurrent rotation with it) deletes the
// session at once, so its current refresh and access tokens die too: 401
// and a WARN line. Keeping only the last rotated hash gives the signal
// without a row per refresh. An answer lost on the network after a rotation
// ends the session (sign in again).
package session
