// Package app holds the use cases that span domains: metering a service
// call, panel operations, bootstrap and the ledger check. It depends on
// ports only; adapters are wired in cmd/.
package app

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"time"

	"paygate/core/apikey"
	"paygate/core/audit"
	"paygate/core/catalog"
	"paygate/core/hitlog"
	"paygate/core/hold"
	"paygate/core/ledger"
	"paygate/core/payment"
	"paygate/core/pricing"
	"paygate/core/recharge"
	"paygate/core/report"
	"paygate/core/session"
	"paygate/core/topup"
	"paygate/core/user"
	"paygate/core/verification"
	"paygate/core/webhook"
)

// Stores are the repositories, all bound to one database handle or to one
// transaction.
type Stores struct {
	Users    user.Repository
	Keys     apikey.Repository
	Services catalog.Repository
	Pricing  pricing.Repository
	Ledger   ledger.Repository
	Hits     hitlog.Repository
	Sessions session.Repository
	Settings session.Settings
	Audit    audit.Repository
	Resets   user.ResetRepository
	TopUps   topup.Repository
	Reports  report.Repository

	Payments      payment.Repository
	Idempotency   payment.IdempotencyKeys
	Recharges     recharge.Repository
	Verifications verification.Repository

	Webhooks webhook.Repository // the event outbox
	Holds    hold.Repository    // holds of metered calls (holds.go)

	// BatchLocks is set only in the Stores a BatchTransactor hands the
	// metering writer, by a store that can take the batch's locks in one
	// exchange with the database; nil elsewhere.
	BatchLocks BatchLocks
	// BatchInserts likewise, by a store that can send the batch's new rows
	// with its last writes (the hit ids it needs for the debits are then
	// taken inside the database); nil elsewhere.
	BatchInserts BatchInserts
}

// KeyCount asks a key's daily counter for N more calls on Day.
type KeyCount struct {
	KeyID uint64
	Day   string
	N     int
}

// BatchLocks locks the metering batch's rows in one exchange with the
// database where it can. LockAndCount does what user.Repository.LockByID
// for each of userIDs (ascending) and then apikey.Repository.CountHits for
// each of counts (in order, ascending key ids) would: the users (locked),
// and for each count how many calls were granted (0 for a key that no
// longer exists). A user that does not exist is user.ErrNotFound.
type BatchLocks interface {
	LockAndCount(ctx context.Context, userIDs []uint64, counts []KeyCount, at time.Time) (map[uint64]*user.User, []int, error)
}

// BatchInserts writes the metering batch's new rows. Insert does what
// hitlog.Repository.InsertMany(hits) and then
// ledger.Repository.InsertMany(entries) would, where each entry i with
// hitOf[i] >= 0 references hits[hitOf[i]] (its ReferenceID is that hit's
// id; the other entries keep theirs). The store may send the rows with the
// transaction's next statement or its COMMIT: the hits' ids and those
// ReferenceIDs are set once the rows are written, at the latest when the
// transaction has committed, and before any later statement whose result
// the transaction reads. A transaction that fails leaves them unset.
type BatchInserts interface {
	Insert(ctx context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error
}

// Transactor runs fn in one database transaction with Stores bound to it.
// fn's error rolls back; nil commits. Row locks taken through the stores
// (user.Repository.LockByID) last until the end of fn.
type Transactor interface {
	WithinTx(ctx context.Context, fn func(ctx context.Context, s Stores) error) error
}

// BatchTransactor may be implemented by the Transactor as well: the
// metering writer (batch.go) runs its transactions with WithinBatchTx,
// same contract as WithinTx, so the store can give them a path of its own
// (MySQL: a dedicated connection pool on which the batch's last writes
// travel with the COMMIT, fewer round trips while the users' rows are
// locked). Without it the writer uses WithinTx.
type BatchTransactor interface {
	WithinBatchTx(ctx context.Context, fn func(ctx context.Context, s Stores) error) error
}

// UpstreamRequest is one call to a provider.
type UpstreamRequest struct {
	Method  string
	URL     string
	Header  http.Header
	Query   url.Values // appended to URL's query
	Body    []byte     // JSON, for POST/PUT
	Timeout time.Duration
}

// UpstreamResponse is the provider's answer (the body capped by the adapter).
type UpstreamResponse struct {
	Status int
	Body   []byte
}

// Upstream performs provider calls. An error means no usable answer
// (refused address, timeout, reset, body over the cap).
type Upstream interface {
	Do(ctx context.Context, req UpstreamRequest) (UpstreamResponse, error)
}

// AccessTokens issues and reads short-lived panel access tokens. A token
// names its session (the refresh token's row), so revoking the session ends
// the access token too.
type AccessTokens interface {
	Issue(userID, sessionID uint64, role user.Role, now time.Time) (token string, expiresIn time.Duration, err error)
	Parse(token string, now time.Time) (userID, sessionID uint64, err error)
}

// EmailTokens issues and reads the signed, expiring tokens of email
// verification links; they serve no other purpose.
type EmailTokens interface {
	IssueEmailVerification(userID uint64, email string, expiresAt time.Time) (string, error)
	// ParseEmailVerification fails for a token that is forged, expired or
	// made for another purpose.
	ParseEmailVerification(token string, now time.Time) (userID uint64, email string, err error)
}

// Message is one plain-text email.
type Message struct {
	To      string
	Subject string
	Text    string
	Link    string // the action link in Text (what the log mailer shows)
}

// Mailer sends email. The use cases call it after their transaction has
// committed; a failure is logged and changes no answer.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// Files keeps uploaded files (balance request screenshots) under names the
// server chose; an adapter refuses any other name, so no path can escape its
// folder.
type Files interface {
	// Save writes r's content under name atomically: a reader's error leaves
	// nothing behind.
	Save(ctx context.Context, name string, r io.Reader) error
	Open(ctx context.Context, name string) (io.ReadCloser, error) // errs NotFound when missing
	Delete(ctx context.Context, name string) error                // a missing file is no error
}
