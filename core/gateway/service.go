package gateway

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/events/webhook"
	"paygate/core/gateway/accountopen"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/payout"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/metering"
	"paygate/core/money/topup"
	"paygate/core/platform/store"
)

// Meter bills a gateway operation like a metered call (metering.Metering).
type Meter interface {
	// Meter bills an operation without rows of its own.
	Meter(ctx context.Context, op metering.Op) (*metering.Charge, error)
	// Open checks an operation with rows of its own before its charge;
	// the operation then reserves its charge in its own transaction
	// (Bill.Reserve) and runs (Bill.Run). replayed: an earlier request's
	// answer.
	Open(ctx context.Context, op metering.Op) (b *metering.Bill, replayed *metering.Charge, err error)
	// AuthenticateGateway checks a caller's credentials for calls that are not billed.
	AuthenticateGateway(ctx context.Context, c metering.Credentials, ip string) (*apikey.Key, *user.User, error)
	// ChargeOf is what owner pays for one call of a service, as Meter
	// would charge it (a reseller's customer: its reseller's selling price).
	ChargeOf(ctx context.Context, serviceID uint64, owner *user.User) (decimal.Decimal, error)
}

// Config is what the gateway needs of the service's configuration.
type Config struct {
	UpstreamTimeout time.Duration // per provider call; 0 means 15 s
	PublicBaseURL   string        // base of payment_url; "" means http://localhost:8080
	// RechargeRoundBudget bounds one recharge worker round: it claims no
	// new row after it; 0 means 1 minute.
	RechargeRoundBudget time.Duration
	// MaxBalanceCheckout bounds a balance checkout (BALANCE_REQUEST_MAX);
	// 0 means topup.DefaultMaxAmount.
	MaxBalanceCheckout decimal.Decimal
	// PlatformName is the payee of balance checkouts; "" means
	// DefaultPlatformName.
	PlatformName string
	// OpeningRoundBudget bounds one account-opening worker round as
	// RechargeRoundBudget does; 0 means 1 minute.
	OpeningRoundBudget time.Duration
	// Location is the time zone of the daily payout limit's day; nil
	// means UTC.
	Location *time.Location
}

// Metrics receives the gateway's measurements (adapters/metrics).
type Metrics interface {
	// CollectionHeld counts a confirmed collection whose credit its
	// beneficiary's balance could not hold (payment.ErrCreditHeld).
	CollectionHeld()
	// PayoutEntered counts a payout entering state (pending when created,
	// then each move), once its transaction committed.
	PayoutEntered(state string)
	// PaymentEnded counts a payment reaching its end state (success,
	// failed, expired), once the transaction that ended it committed.
	PaymentEnded(state string)
	// RefundEnded counts a refund reaching processed or failed, likewise.
	RefundEnded(state string)
	// OpeningEnded counts an account opening reaching opened or rejected,
	// likewise.
	OpeningEnded(state string)
}

type nopMetrics struct{}

func (nopMetrics) CollectionHeld()      {}
func (nopMetrics) PayoutEntered(string) {}
func (nopMetrics) PaymentEnded(string)  {}
func (nopMetrics) RefundEnded(string)   {}
func (nopMetrics) OpeningEnded(string)  {}

// Deps are the ports the gateway runs on. Now, Log and Metrics may be nil; Targets
// nil allows any callback address.
type Deps struct {
	Tx        store.TransactorOf[TxStores]
	Stores    Stores // its repositories outside a transaction (StoresOf)
	Meter     Meter
	Now       func() time.Time
	Config    Config
	Log       *slog.Logger
	Metrics   Metrics
	Verifier  verification.Provider
	Recharger recharge.Provider
	Payments  payment.Provider
	Payouts   payout.Provider
	Targets   webhook.TargetPolicy
	Opener    accountopen.Provider // digital account opening
	// TopUps decides who may start a checkout top-up (core/billing/parties: a
	// reseller's customer pays its reseller, never the platform's
	// checkout); nil allows everyone.
	TopUps TopUpGate
}

// TopUpGate says whether an account may top up its balance by the
// platform's checkout: nil, or why not.
type TopUpGate interface {
	CheckoutTopUp(ctx context.Context, actor *user.User) error
}

// Gateway is the gateway's use cases.
type Gateway struct {
	tx        store.TransactorOf[TxStores]
	st        Stores
	meter     Meter
	now       func() time.Time
	cfg       Config
	log       *slog.Logger
	metrics   Metrics
	verifier  verification.Provider
	recharger recharge.Provider
	payments  payment.Provider
	payouts   payout.Provider
	targets   webhook.TargetPolicy
	opener    accountopen.Provider
	topUps    TopUpGate
}

// New builds the gateway from its ports.
func New(d Deps) *Gateway {
	cfg := d.Config
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Metrics == nil {
		d.Metrics = nopMetrics{}
	}
	if cfg.UpstreamTimeout == 0 {
		cfg.UpstreamTimeout = 15 * time.Second
	}
	if cfg.RechargeRoundBudget == 0 {
		cfg.RechargeRoundBudget = time.Minute
	}
	if cfg.OpeningRoundBudget == 0 {
		cfg.OpeningRoundBudget = time.Minute
	}
	if !cfg.MaxBalanceCheckout.IsPositive() {
		cfg.MaxBalanceCheckout = topup.DefaultMaxAmount
	}
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.PlatformName == "" {
		cfg.PlatformName = DefaultPlatformName
	}
	if cfg.PublicBaseURL == "" {
		cfg.PublicBaseURL = "http://localhost:8080"
	}
	cfg.PublicBaseURL = strings.TrimRight(cfg.PublicBaseURL, "/")
	return &Gateway{tx: d.Tx, st: d.Stores, meter: d.Meter, now: d.Now, cfg: cfg, log: d.Log, metrics: d.Metrics,
		verifier: d.Verifier, recharger: d.Recharger, payments: d.Payments, payouts: d.Payouts, targets: d.Targets,
		opener: d.Opener, topUps: d.TopUps}
}
