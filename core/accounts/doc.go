// Package accounts holds the panel's use cases of accounts: registration,
// email verification, password reset, sign-in and sessions, the caller's own
// account, the admins' user management and balance adjustments, and the
// operators' first admin. The decisions are docs/decisions.md's "Panel and
// accounts"; the rules of each record are its domain package's
// (core/accounts/user, core/accounts/session, core/accounts/signin).
//
// Registration creates a pending user (role user, plan starter), who
// cannot sign in (403 account_not_active, whose message says the account
// awaits an administrator's approval and a mail follows) until an admin
// activates the account; email verification is not a condition. An
// activation mails the owner a sign-in link; an account an admin creates
// is mailed where to sign in (never its password), or, pending, that a
// mail follows on activation. A taken email or phone is
// a 422 field error "has already been taken", the same whatever the other
// account's state, also when a concurrent registration wins the unique key.
// Soft-deleted users keep their email and phone, so the unique indexes stay
// simple and a deleted identity cannot be taken over. Every email is
// user.NormalizeEmail's form before any lookup or write.
//
// Verification links carry a JWT (48 h) naming user and email, signed with
// a key derived from JWT_SECRET for this purpose, with its own audience;
// nothing is stored, and rotating JWT_SECRET invalidates outstanding links.
// forgot-password answers the same 200 at once for any well-formed email;
// lookup, cooldown and mail happen after the answer. The cooldown
// (signin.TakeMail: one mail of each kind per account every 5 minutes,
// whoever asks) is a login_attempts counter, keyed by the SHA-256 of kind
// and user id, whose blocked_until is the next allowed mail, claimed under
// its row lock, so N instances still send one mail. A request inside the
// window sends nothing and replaces no token (the last link stays valid);
// a mail the SMTP server refuses still counts. The reset
// token (pr_ + 43 base62) is stored as its SHA-256, one per email; a reset
// deletes the row only when email, hash and age (< 60 min) match, so one of
// two concurrent uses wins; the password is checked first, so a refused one
// leaves the link valid. A reset ends every session and marks the email
// verified. Mail leaves after the commit, in the background (bounded to 2
// minutes, awaited on shutdown: app.App.Wait); a failure is logged and does
// not change the answer. With SMTP_URL empty (development only) each
// message's recipient, subject and link go to the log. The asking address
// is limited in this instance's memory (adapters/httpapi's keyedLimiter):
// reset mail 5 in a row then one per 10 minutes (IPv6 per /64),
// registrations 10 an hour; resend-verification, signed in, is never
// refused. With N instances an address gets up to N times those, which
// slows abuse of mail, not password guessing (core/accounts/signin covers that).
//
// An unconfirmed customer (user.Unconfirmed: a reseller chose the email
// and nobody confirmed it) is the address owner's to claim: a registration
// with that email answers 422 (user.UnconfirmedMessage) and mails the
// address, never the asker, the reset link ("Claim your account"); a reset
// request does the same. Using such a link detaches the account from its
// reseller (customer.detach; it keeps its status: a pending one waits for an
// admin) unless the owner follows the mail's second link (stay=1,
// stay_with_reseller), and the reseller's own invite (pi_) confirms the
// reseller and activates the account (customer.confirm); both are audited
// with the account as actor, in the reset's transaction. Promoting a
// customer to admin or reseller (PatchUser) ends its reseller relation in
// the same audited write (user.ValidParent; the database's
// users_customer_is_user refuses the row otherwise).
//
// PATCH /auth/me changes name, phone, webhook_url (absolute http(s), no
// credentials, ≤ 255), low_balance_alert (≥ 0, 2 places), the billing
// profile and the password (with current_password, counted by the sign-in
// limiter; a new password ends every other session), writing the row
// under its lock; email, role, status and plan are not changed there.
// Activation gives the account its webhook secret and, if it has none, a
// key "Default" mirrored in users.api_key, whose secret nobody sees until
// the owner rotates it. Admins cannot demote, block or delete themselves
// (409 cannot_change_self), so the acting admin always remains.
//
// It is the accounts area: this package (registration, sign-in, profiles,
// admins' user management and balance adjustments), user (accounts, roles,
// balances), apikey (key rules), keys (an owner's keys), session, signin,
// audit (the audit log's records), auditlog (its list) and panel (the
// outward ports and helpers the panel's use cases share).
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package accounts
