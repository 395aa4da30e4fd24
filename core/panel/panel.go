package panel

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/export"
	"paygate/core/signin"
	"paygate/core/store"
	"paygate/core/topup"
	"paygate/core/user"
	"paygate/core/webhook"
)

// Config is what the panel needs from the service's configuration.
type Config struct {
	Location      *time.Location  // day and month boundaries (TIMEZONE); nil means UTC
	RefreshTTL    time.Duration   // refresh tokens; 0 means 30 days
	PasswordCost  int             // bcrypt cost; 0 means user.DefaultPasswordCost
	MaxTopUp      decimal.Decimal // largest balance request (BALANCE_REQUEST_MAX); 0 means topup.DefaultMaxAmount
	PublicBaseURL string          // base of links in mail (PUBLIC_BASE_URL)
	// DefaultPlan is the plan of new accounts (DEFAULT_PLAN); "" means
	// starter.
	DefaultPlan user.Plan
	// RollupGrace is how long after a local day ends the dashboard waits
	// before rolling it up (hits started just before midnight settle after
	// it); 0 means 15 minutes.
	RollupGrace time.Duration
	// SignIn limits password guessing; zero means signin.DefaultPolicy.
	SignIn signin.Policy
	// CollectionFeePercent is the collection fee an account starts with
	// (COLLECTION_FEE_PERCENT); admins change it per account afterwards.
	CollectionFeePercent decimal.Decimal
	// PayloadRetention is how long hit payloads are shown
	// (HIT_PAYLOAD_RETENTION): an older hit's are not, even while its store
	// still holds them (MySQL removes a month at once). 0: all are shown.
	PayloadRetention time.Duration
	// Livemode says whether this instance's money is real (its payment
	// provider is live): the livemode of balance_request.* and balance.low.
	Livemode bool
	// ExportLease is how long an export's slot lease lasts without renewal;
	// a running export renews it every sixth of it. 0 means export.LeaseTTL.
	ExportLease time.Duration
}

// Deps are the ports and configuration the panel runs on. Now may be nil
// (time.Now).
type Deps struct {
	Tx     store.Transactor
	Stores store.Stores
	Tokens AccessTokens
	Files  Files // uploads; nil refuses screenshots (operator commands need none)
	Now    func() time.Time
	Config Config
	// Mailer sends account mail (verification, password reset); nil drops
	// it with a log line. EmailTokens signs verification links.
	Mailer      Mailer
	EmailTokens EmailTokens
	Log         *slog.Logger         // background work (mail); nil discards
	Targets     webhook.TargetPolicy // refuses internal webhook addresses; nil allows any
	// Settled returns once the charges of metered calls this instance has
	// answered are written, so balances, the ledger and the hit log read
	// after it show them; nil: nothing to wait for.
	Settled func(ctx context.Context) error
}

// Panel is the set of panel use cases. It holds ports only.
type Panel struct {
	tx      store.Transactor
	st      store.Stores
	tokens  AccessTokens
	files   Files
	now     func() time.Time
	cfg     Config
	pw      *user.Passwords
	mailer  Mailer
	email   EmailTokens
	log     *slog.Logger
	targets webhook.TargetPolicy
	settled func(ctx context.Context) error
	bg      sync.WaitGroup // mail sent after the answer
}

// New wires the panel.
func New(d Deps) *Panel {
	cfg := d.Config
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Settled == nil {
		d.Settled = func(context.Context) error { return nil }
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.RefreshTTL == 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	if cfg.SignIn == (signin.Policy{}) {
		cfg.SignIn = signin.DefaultPolicy
	}
	if cfg.ExportLease <= 0 {
		cfg.ExportLease = export.LeaseTTL
	}
	if cfg.RollupGrace == 0 {
		cfg.RollupGrace = 15 * time.Minute
	}
	if !cfg.MaxTopUp.IsPositive() {
		cfg.MaxTopUp = topup.DefaultMaxAmount
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://localhost:8080"
	}
	cfg.PublicBaseURL = strings.TrimRight(cfg.PublicBaseURL, "/")
	return &Panel{
		tx: d.Tx, st: d.Stores, tokens: d.Tokens, files: d.Files, now: d.Now, cfg: cfg, pw: user.NewPasswords(cfg.PasswordCost),
		mailer: d.Mailer, email: d.EmailTokens, log: d.Log, targets: d.Targets, settled: d.Settled,
	}
}

// Wait blocks until the mail sent after an answer is done; the server
// calls it (through app.App.Wait) on shutdown.
func (p *Panel) Wait() { p.bg.Wait() }

// day is the local calendar day of t ("2006-01-02").
func (p *Panel) day(t time.Time) string { return t.In(p.cfg.Location).Format("2006-01-02") }
