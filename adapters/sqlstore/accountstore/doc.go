// Package accountstore keeps the accounts area's rows: users, API keys
// (with their daily hit counts), sessions, logins, password resets, the
// audit log and the server's generated settings. Repositories are built
// by adapters/sqlstore over a sqlbase.Base.
package accountstore
