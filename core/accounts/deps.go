package accounts

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/panel"
	"paygate/core/accounts/signin"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/platform/store"
)

// Config is what the account use cases need from the service's
// configuration.
type Config struct {
	RefreshTTL    time.Duration // refresh tokens; 0 means 30 days
	PasswordCost  int           // bcrypt cost; 0 means user.DefaultPasswordCost
	PublicBaseURL string        // base of links in mail (PUBLIC_BASE_URL)
	// DefaultPlan is the plan of new accounts (DEFAULT_PLAN); "" means
	// starter.
	DefaultPlan user.Plan
	// SignIn limits password guessing; zero means signin.DefaultPolicy.
	SignIn signin.Policy
	// CollectionFeePercent is the collection fee an account starts with
	// (COLLECTION_FEE_PERCENT); admins change it per account afterwards.
	CollectionFeePercent decimal.Decimal
	// Livemode says whether this instance's money is real: the livemode of
	// an admin adjustment's balance.low.
	Livemode bool
}

// Deps are the ports and configuration the account use cases run on. Now
// may be nil (time.Now).
type Deps struct {
	Tx     store.TransactorOf[TxStores]
	Stores Stores
	Tokens panel.AccessTokens
	Now    func() time.Time
	Config Config
	// Mailer sends account mail (verification, password reset); nil drops
	// it with a log line. EmailTokens signs verification links.
	Mailer      panel.Mailer
	EmailTokens panel.EmailTokens
	Log         *slog.Logger         // background work (mail); nil discards
	Targets     webhook.TargetPolicy // refuses internal webhook addresses; nil allows any
	// Settled returns once this instance's metered calls are charged, so
	// a balance read after it shows them; nil: nothing to wait for.
	Settled func(ctx context.Context) error
}

// Accounts are the use cases of accounts, sessions and users.
type Accounts struct {
	tx      store.TransactorOf[TxStores]
	st      Stores
	tokens  panel.AccessTokens
	now     func() time.Time
	cfg     Config
	pw      *user.Passwords
	mailer  panel.Mailer
	email   panel.EmailTokens
	log     *slog.Logger
	targets webhook.TargetPolicy
	settled func(ctx context.Context) error
	bg      sync.WaitGroup // mail sent after the answer
}

// New wires the account use cases.
func New(d Deps) *Accounts {
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
	if cfg.RefreshTTL == 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	if cfg.SignIn == (signin.Policy{}) {
		cfg.SignIn = signin.DefaultPolicy
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://localhost:8080"
	}
	cfg.PublicBaseURL = strings.TrimRight(cfg.PublicBaseURL, "/")
	return &Accounts{
		tx: d.Tx, st: d.Stores, tokens: d.Tokens, now: d.Now, cfg: cfg, pw: user.NewPasswords(cfg.PasswordCost),
		mailer: d.Mailer, email: d.EmailTokens, log: d.Log, targets: d.Targets, settled: d.Settled,
	}
}

// Wait blocks until the mail sent after an answer is done; the server
// calls it (through app.App.Wait) on shutdown.
func (p *Accounts) Wait() { p.bg.Wait() }
