package customers

import (
	"log/slog"
	"strings"
	"sync"
	"time"

	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/platform/store"
)

// Config is what the customers' use cases need from the configuration.
type Config struct {
	PasswordCost  int       // bcrypt cost; 0 means user.DefaultPasswordCost
	PublicBaseURL string    // base of links in mail
	DefaultPlan   user.Plan // plan of new customers; "" means starter
	Livemode      bool      // the livemode of balance.low of a transfer
}

// Deps are the ports of the customers' use cases. Now and Log may be nil.
type Deps struct {
	Tx     store.TransactorOf[TxStores]
	Stores Stores
	Mailer panel.Mailer // nil drops mail with a log line
	Now    func() time.Time
	Log    *slog.Logger
	Config Config
}

// Customers are a reseller's use cases over its customers.
type Customers struct {
	tx     store.TransactorOf[TxStores]
	st     Stores
	mailer panel.Mailer
	now    func() time.Time
	log    *slog.Logger
	cfg    Config
	pw     *user.Passwords
	bg     sync.WaitGroup
}

// New wires the customers' use cases.
func New(d Deps) *Customers {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Config.DefaultPlan == "" {
		d.Config.DefaultPlan = user.PlanStarter
	}
	if d.Config.PublicBaseURL == "" {
		d.Config.PublicBaseURL = "http://localhost:8080"
	}
	d.Config.PublicBaseURL = strings.TrimRight(d.Config.PublicBaseURL, "/")
	return &Customers{tx: d.Tx, st: d.Stores, mailer: d.Mailer, now: d.Now, log: d.Log, cfg: d.Config,
		pw: user.NewPasswords(d.Config.PasswordCost)}
}

// Wait blocks until mail sent after an answer is done.
func (p *Customers) Wait() { p.bg.Wait() }
