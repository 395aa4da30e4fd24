package app

import (
	"strings"
	"time"

	"paygate/core/recharge"
	"paygate/core/user"
	"paygate/core/verification"
)

// Config is what the use cases need from the service's configuration.
type Config struct {
	Location        *time.Location // day and month boundaries (TIMEZONE)
	UpstreamTimeout time.Duration  // per provider call
	RefreshTTL      time.Duration  // panel refresh tokens
	MaxPayloadBytes int            // hit log payloads larger than this are summarised
	PasswordCost    int            // bcrypt cost; 0 means user.DefaultPasswordCost
	PublicBaseURL   string         // base of payment_url (PUBLIC_BASE_URL)
}

// App is the set of use cases. It holds ports only.
type App struct {
	tx     Transactor
	st     Stores
	up     Upstream
	tokens AccessTokens
	now    func() time.Time
	cfg    Config
	pw     *user.Passwords

	verifier  verification.Provider
	recharger recharge.Provider
}

// Deps are the ports and configuration the use cases run on. Now may be nil
// (time.Now).
type Deps struct {
	Tx       Transactor
	Stores   Stores
	Upstream Upstream
	Tokens   AccessTokens
	Now      func() time.Time
	Config   Config

	// Gateway providers (sandbox adapters by default, wired in cmd/).
	Verifier  verification.Provider
	Recharger recharge.Provider
}

// New wires the use cases.
func New(d Deps) *App {
	cfg := d.Config
	if d.Now == nil {
		d.Now = time.Now
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.UpstreamTimeout == 0 {
		cfg.UpstreamTimeout = 15 * time.Second
	}
	if cfg.RefreshTTL == 0 {
		cfg.RefreshTTL = 30 * 24 * time.Hour
	}
	if cfg.MaxPayloadBytes == 0 {
		cfg.MaxPayloadBytes = 60_000
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://localhost:8080"
	}
	cfg.PublicBaseURL = strings.TrimRight(cfg.PublicBaseURL, "/")
	return &App{tx: d.Tx, st: d.Stores, up: d.Upstream, tokens: d.Tokens, now: d.Now, cfg: cfg, pw: user.NewPasswords(cfg.PasswordCost),
		verifier: d.Verifier, recharger: d.Recharger}
}

// day is the local calendar day of t ("2006-01-02"), month its month ("2006-01").
func (a *App) day(t time.Time) string   { return t.In(a.cfg.Location).Format("2006-01-02") }
func (a *App) month(t time.Time) string { return t.In(a.cfg.Location).Format("2006-01") }
