package panel

import (
	"context"
	"io"
	"time"

	"paygate/core/accounts/user"
)

// AccessTokens issues and reads short-lived panel access tokens. A token
// names its session (the refresh token's row), so revoking the session ends
// the access token too.
type AccessTokens interface {
	Issue(userID, sessionID uint64, role user.Role, now time.Time) (token string, expiresIn time.Duration, err error)
	Parse(token string, now time.Time) (userID, sessionID uint64, err error)
	// IssuePayout and ParsePayout are the payout credential: minted for a
	// session after the password is typed again, short-lived, signed apart
	// (an access token never passes as one).
	IssuePayout(userID, sessionID uint64, now time.Time) (token string, expiresIn time.Duration, err error)
	ParsePayout(token string, now time.Time) (userID, sessionID uint64, err error)
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
	// FromName is the sender's display name; "" is MAIL_FROM's. A reseller's
	// customer gets its reseller's brand name (brands.Brands.Mailer).
	FromName string
	// Unbranded: the platform's own word to the address's owner about its
	// reseller (the claim of an unconfirmed customer): never under the
	// reseller's brand nor through its domain.
	Unbranded bool
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
