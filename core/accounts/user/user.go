// Package user holds accounts: roles, statuses, plans and balances.
package user

import (
	"context"
	"errors"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/text/unicode/norm"

	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
)

type Role string

const (
	RoleAdmin    Role = "admin"
	RoleReseller Role = "reseller"
	RoleUser     Role = "user"
)

func (r Role) Valid() bool { return r == RoleAdmin || r == RoleReseller || r == RoleUser }

type Status string

const (
	StatusPending Status = "pending"
	StatusActive  Status = "active"
	StatusBlocked Status = "blocked"
)

func (s Status) Valid() bool { return s == StatusPending || s == StatusActive || s == StatusBlocked }

type Plan string

const (
	PlanStarter    Plan = "starter"
	PlanEnterprise Plan = "enterprise"
)

// Valid reports whether p is spelled as a plan's code (a lowercase slug);
// whether the catalog holds it is the store's to say.
func (p Plan) Valid() bool { return planCode.MatchString(string(p)) }

var planCode = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,49}$`)

// StarterMonthlyCalls is the seeded Starter plan's allowance of billed calls
// per month (plans.monthly_calls decides; an admin may change it).
const StarterMonthlyCalls = 100

// Allowance is a limited plan's allowance of n calls a month.
func Allowance(n int) *int { return &n }

// User is an account. Balance and TotalSpent change only through the ledger.
type User struct {
	ID uint64
	// ParentID is the reseller a customer belongs to (decisions "Resellers: customers and their scoping":
	// admin → reseller → customer); nil for everyone else. Set when the
	// account is created; it only ever goes back to nil (Detach), never to
	// another reseller. Only an account of role user has one (ValidParent).
	ParentID     *uint64
	Name         string
	Email        string
	Phone        string
	PasswordHash string
	Role         Role
	Status       Status
	Plan         Plan
	Balance      decimal.Decimal
	TotalSpent   decimal.Decimal
	HeldAmount   decimal.Decimal // the money of open holds of metered calls (core/metering/hold); no debit takes it
	PlanMonth    string          // "2026-11": the month PlanCalls counts for
	PlanCalls    int             // billed calls in PlanMonth
	// MonthlyCalls is the plan's allowance of billed calls per local month
	// (nil: unlimited), carried on the row the metered call locks anyway.
	// The store writes it from the plan named by Plan.
	MonthlyCalls    *int
	APIKey          *string
	WebhookSecret   *string // users.api_secret: the whsec_ signing secret
	WebhookURL      *string
	LowBalanceAlert *decimal.Decimal
	// CollectionFeePercent is the percentage of each successful payment
	// debited as a fee with its credit (0 to 100, 2 places).
	CollectionFeePercent decimal.Decimal
	// DailyPayoutLimit is the most the account may pay out in one local
	// day (pending, processing and successful payouts).
	DailyPayoutLimit decimal.Decimal
	IPAddress        *string
	EmailVerifiedAt  *time.Time
	CreatedAt        time.Time
	UpdatedAt        time.Time
	DeletedAt        *time.Time
}

var (
	ErrNotActive = errs.E(errs.Forbidden, "account_not_active", "Account is not active")
	// ErrAwaitingApproval is ErrNotActive (same code) for an account not
	// activated yet: it says what happens next.
	ErrAwaitingApproval = errs.E(errs.Forbidden, "account_not_active",
		"Your account is waiting for an administrator's approval; we will email you as soon as it is active")
	ErrBadCredentials = errs.E(errs.Unauthenticated, "invalid_credentials", "Invalid email or password")
	ErrNotFound       = errs.E(errs.NotFound, "user_not_found", "User not found")
	ErrEmailTaken     = errs.E(errs.Conflict, "email_taken", "Email is already registered")
	ErrPhoneTaken     = errs.E(errs.Conflict, "phone_taken", "Phone is already registered")
)

// ValidParent reports whether an account of role may have parent: only a
// user is anyone's customer, never an admin or a reseller (the database
// holds the same rule: users_customer_is_user).
func ValidParent(role Role, parent *uint64) bool { return parent == nil || role == RoleUser }

// Unconfirmed reports a customer that has not confirmed its email: its
// reseller chose the address, which may not be the customer's to give, so
// the address's owner may still claim the account (core/accounts).
func (u *User) Unconfirmed() bool { return u.ParentID != nil && u.EmailVerifiedAt == nil }

// Detach ends the reseller relation: the account is nobody's customer.
func (u *User) Detach() { u.ParentID = nil }

// IsDeleted reports a soft-deleted account.
func (u *User) IsDeleted() bool { return u.DeletedAt != nil }

// CanAct reports whether the account may log in or call APIs.
func (u *User) CanAct() error {
	if u.IsDeleted() {
		return ErrBadCredentials
	}
	switch u.Status {
	case StatusActive:
		return nil
	case StatusPending:
		return ErrAwaitingApproval
	}
	return ErrNotActive
}

// Resells reports whether u earns on its customers' calls: an active,
// undeleted reseller. Its customers of a blocked or demoted one pay list
// prices (decisions "Resellers: one price, shown and charged").
func (u *User) Resells() bool {
	return u.Role == RoleReseller && u.Status == StatusActive && !u.IsDeleted()
}

// Available is the balance a debit or a new hold may take: the balance
// less the money held for metered calls under way.
func (u *User) Available() decimal.Decimal { return u.Balance.Sub(u.HeldAmount) }

// PlanLimited reports whether the plan counts calls against a monthly
// allowance (calls of such plans are not run on holds).
func (u *User) PlanLimited() bool { return u.MonthlyCalls != nil }

// PlanAllows reports whether one more billed call fits the plan in month,
// and records it. It is called under the user's row lock.
func (u *User) PlanAllows(month string) bool {
	if u.MonthlyCalls == nil {
		return true
	}
	if u.PlanMonth < month { // "2026-11" < "2026-12": a new month starts empty
		return *u.MonthlyCalls > 0
	}
	return u.PlanCalls < *u.MonthlyCalls
}

// CountPlanCall records a billed call in month. The count never moves back
// to an earlier month: a call started before midnight of the 1st but
// applied after a call of the new month counts in the new month.
func (u *User) CountPlanCall(month string) {
	if u.PlanMonth < month {
		u.PlanMonth = month
		u.PlanCalls = 0
	}
	u.PlanCalls++
}

// UncountPlanCall gives back a call that was refunded in month.
func (u *User) UncountPlanCall(month string) {
	if u.PlanMonth == month && u.PlanCalls > 0 {
		u.PlanCalls--
	}
}

var phonePattern = regexp.MustCompile(`^\+?[0-9]{10,15}$`)

// Profile is what a person gives at registration or an admin at creation.
type Profile struct {
	Name, Email, Phone, Password string
}

// Validate checks the profile's fields against the schema's rules.
func (p *Profile) Validate(requirePassword bool) error {
	fe := errs.FieldErrors{}
	p.Name = strings.TrimSpace(p.Name)
	p.Email = NormalizeEmail(p.Email)
	p.Phone = strings.TrimSpace(p.Phone)
	if p.Name == "" {
		fe.Add("name", "is required")
	} else if len(p.Name) > 255 {
		fe.Add("name", "must be at most 255 characters")
	}
	if !ValidEmail(p.Email) {
		fe.Add("email", "must be a valid email address")
	}
	if !ValidPhone(p.Phone) {
		fe.Add("phone", "must be 10 to 15 digits")
	}
	if requirePassword || p.Password != "" {
		if msg := PasswordProblem(p.Password); msg != "" {
			fe.Add("password", msg)
		}
	}
	return fe.Err()
}

// CheckAccount adds a message to fe for each given role, status or plan that
// is not one of its values; nil means "not given" and is not checked.
func CheckAccount(fe errs.FieldErrors, role *Role, status *Status, plan *Plan) {
	if role != nil && !role.Valid() {
		fe.Add("role", "must be admin, reseller or user")
	}
	if status != nil && !status.Valid() {
		fe.Add("status", "must be pending, active or blocked")
	}
	if plan != nil && !plan.Valid() {
		fe.Add("plan", "must be a plan's code")
	}
}

// DefaultDailyPayoutLimit is the daily payout limit of a new account.
var DefaultDailyPayoutLimit = decimal.NewFromInt(200000)

// maxDailyPayoutLimit bounds what an admin may set: it fits the column.
var maxDailyPayoutLimit = decimal.RequireFromString("999999999.99")

// DailyPayoutLimitMessage explains a refused daily payout limit.
const DailyPayoutLimitMessage = "must be an amount from 0.00 to 999999999.99 with at most 2 decimals"

// ParseDailyPayoutLimit reads a daily payout limit in rupees; ok false
// when it is not an amount from 0 to maxDailyPayoutLimit with at most 2
// decimals.
func ParseDailyPayoutLimit(s string) (decimal.Decimal, bool) {
	d, ok := inr.Parse(strings.TrimSpace(s), 2)
	if !ok || d.IsNegative() || d.GreaterThan(maxDailyPayoutLimit) {
		return decimal.Zero, false
	}
	return d, true
}

// MaxCollectionFeePercent bounds a collection fee: never more than the
// payment itself.
var MaxCollectionFeePercent = decimal.NewFromInt(100)

// ParseCollectionFee reads a collection fee percentage: 0 to 100 with at
// most 2 decimals; ok false otherwise.
func ParseCollectionFee(s string) (decimal.Decimal, bool) {
	d, ok := inr.Parse(strings.TrimSpace(s), 2)
	if !ok || d.IsNegative() || d.GreaterThan(MaxCollectionFeePercent) {
		return decimal.Zero, false
	}
	return d, true
}

// CollectionFeeMessage is the field error of a bad collection fee.
const CollectionFeeMessage = "must be a percentage from 0 to 100 with at most 2 decimals"

// TakenMessage is the field error for an email or phone that another account
// holds, whatever that account's state (pending, blocked, deleted), so the
// answer tells nothing more about it.
const TakenMessage = "has already been taken"

// UnconfirmedMessage is the field error for an email that a reseller's
// customer holds without having confirmed it: the claim link goes to that
// address (core/accounts), never to the one who asked.
const UnconfirmedMessage = "belongs to an account that was never confirmed; we mailed this address a link to claim it"

// TakenFields turns ErrEmailTaken or ErrPhoneTaken into a 422 field error;
// any other error is returned as it is.
func TakenFields(err error) error {
	switch {
	case errors.Is(err, ErrEmailTaken):
		return errs.Validation(map[string][]string{"email": {TakenMessage}})
	case errors.Is(err, ErrPhoneTaken):
		return errs.Validation(map[string][]string{"phone": {TakenMessage}})
	}
	return err
}

// WebhookURLProblem returns why s is not an acceptable webhook address
// (absolute http or https URL with a host, at most 255 characters), or "".
func WebhookURLProblem(s string) string {
	if len(s) > 255 {
		return "must be at most 255 characters"
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" || u.User != nil {
		return "must be an absolute http or https URL"
	}
	return ""
}

// NormalizeEmail is the one form of an email that is stored and looked up:
// NFKC (compatibility forms such as a fullwidth "ｍ" or the ligature "ﬁ"
// become the letters they look like), lower case, no surrounding blanks.
// Every way an email enters (registration, admin creation, sign-in, reset)
// goes through it, so look-alike spellings meet the unique index as one
// address on every database, whatever its collation.
func NormalizeEmail(s string) string {
	// Lower-casing may leave a string that NFKC changes again (and NFKC may
	// produce capitals), hence the second pass: the result is a fixed point.
	return strings.TrimSpace(norm.NFKC.String(strings.ToLower(norm.NFKC.String(s))))
}

// ValidEmail reports a bare email address (no display name) of at most 255 characters.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && len(s) <= 255
}

// ValidPhone reports a phone number of 10 to 15 digits, with an optional leading +.
func ValidPhone(s string) bool { return phonePattern.MatchString(s) }

// PasswordProblem returns why a password is unacceptable, or "".
func PasswordProblem(pw string) string {
	if len(pw) < 8 {
		return "must be at least 8 characters"
	}
	if len(pw) > 72 { // bcrypt's limit
		return "must be at most 72 characters"
	}
	return ""
}

// DefaultPasswordCost is bcrypt's work factor in production (never below 10).
const DefaultPasswordCost = 10

// Passwords hashes and checks passwords at one bcrypt cost. Tests may use a
// lower cost; the server never goes below DefaultPasswordCost.
type Passwords struct {
	cost      int
	dummyOnce sync.Once
	dummy     []byte // compared against when the email is unknown, to spend the same time
}

// NewPasswords makes a hasher; cost outside bcrypt's range means the default.
func NewPasswords(cost int) *Passwords {
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		cost = DefaultPasswordCost
	}
	return &Passwords{cost: cost}
}

// Hash hashes a password.
func (p *Passwords) Hash(pw string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(pw), p.cost)
	return string(b), err
}

// Check compares in constant time; a nil user still spends the time, so an
// unknown email cannot be told from a wrong password by the clock.
func (p *Passwords) Check(u *User, pw string) bool {
	if u == nil {
		p.dummyOnce.Do(func() { p.dummy, _ = bcrypt.GenerateFromPassword([]byte("not-a-real-password"), p.cost) })
		_ = bcrypt.CompareHashAndPassword(p.dummy, []byte(pw))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(u.PasswordHash), []byte(pw)) == nil
}

// Filter selects users in a list.
type Filter struct {
	Role    Role
	Status  Status
	Q       string // matches name, email or phone
	Page    int
	PerPage int

	ParentID *uint64 // the customers of one reseller (users.parent_id)
}

// Repository stores users. ByID and ByEmail return soft-deleted users too;
// callers check IsDeleted.
type Repository interface {
	Create(ctx context.Context, u *User) error // errs Conflict (ErrEmailTaken / ErrPhoneTaken)
	ByID(ctx context.Context, id uint64) (*User, error)
	ByEmail(ctx context.Context, email string) (*User, error)
	ByPhone(ctx context.Context, phone string) (*User, error)
	// LockByID reads the user with a row lock (SELECT … FOR UPDATE) inside a transaction.
	LockByID(ctx context.Context, id uint64) (*User, error)
	// Update writes profile fields: name, phone, password_hash, role, status, plan,
	// api_key, api_secret, webhook_url, low_balance_alert, collection_fee_percent, email_verified_at,
	// deleted_at.
	Update(ctx context.Context, u *User) error
	// SaveBalance writes balance, total_spent, held_amount, plan_month and plan_calls.
	SaveBalance(ctx context.Context, u *User) error
	List(ctx context.Context, f Filter) ([]User, int64, error)
	// IDs lists every user id in ascending order (for the ledger check).
	IDs(ctx context.Context) ([]uint64, error)
	CountByRole(ctx context.Context, role Role) (int64, error)
}

// VerificationTTL is how long an email verification link is valid.
const VerificationTTL = 48 * time.Hour

// ResetTTL is how long a password reset token is valid.
const ResetTTL = 60 * time.Minute

// The tokens of password_reset_tokens: a reset asked for (ResetPrefix) or a
// reseller's invite of a new customer (InvitePrefix), whose use confirms the
// email and accepts the reseller. The prefix is part of the hashed token,
// so it cannot be changed on the way.
const (
	ResetPrefix  = "pr_"
	InvitePrefix = "pi_"
)

// InviteTTL is how long a reseller's invite is valid (a pending account:
// nothing can be done with it until then).
const InviteTTL = 72 * time.Hour

// TokenTTL is how long a token of password_reset_tokens is valid.
func TokenTTL(token string) time.Duration {
	if strings.HasPrefix(token, InvitePrefix) {
		return InviteTTL
	}
	return ResetTTL
}

// ResetToken is a pending password reset (password_reset_tokens): one per
// email; only the SHA-256 of the token travels to the database.
type ResetToken struct {
	Email     string
	TokenHash string
	CreatedAt time.Time
}

// ResetRepository stores password reset tokens.
type ResetRepository interface {
	// Put stores the email's token, replacing any earlier one.
	Put(ctx context.Context, t ResetToken) error
	// Take deletes the email's token if its hash is tokenHash and it was
	// created after notBefore, and reports whether this call deleted it: of
	// two concurrent uses of one token exactly one sees true.
	Take(ctx context.Context, email, tokenHash string, notBefore time.Time) (bool, error)
	// Delete removes the email's token, if any.
	Delete(ctx context.Context, email string) error
}
