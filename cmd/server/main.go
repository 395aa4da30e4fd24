// Command server runs the payment gateway and API reseller service, and the
// operators' subcommands: migrate, ledger check, billing run, invoices
// issue, commissions settle, brand verify-domain, backup, create-admin,
// secrets rotate, healthcheck.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // TIMEZONE works on machines without a zoneinfo database

	"github.com/shopspring/decimal"

	"paygate/adapters/hostprobe"
	"paygate/adapters/httpapi"
	"paygate/adapters/invoicepdf"
	"paygate/adapters/mail"
	"paygate/adapters/metrics"
	"paygate/adapters/sandbox"
	"paygate/adapters/secretbox"
	"paygate/adapters/sqlstore"
	"paygate/adapters/storage"
	"paygate/adapters/token"
	"paygate/adapters/upidirect"
	"paygate/adapters/upstream"
	webhookadapter "paygate/adapters/webhook"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/panel"
	"paygate/core/app"
	"paygate/core/billing/plan"
	"paygate/core/gateway/payment"
	"paygate/core/money/ledger/check"
	"paygate/core/resale/brand"
	"paygate/frontend"
)

// defaultGCPercent is the server's GOGC unless the environment sets one.
// Its live heap is small (about 5 MB under load) and every call allocates,
// so with Go's default of 100 it collected many times a second and GC took
// about 12% of its CPU under load; 400 lets the heap grow to about five
// times the live heap between collections (tens of MB), an amount a server
// can spare (docs/decisions.md, "Configuration defaults").
const defaultGCPercent = 400

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		var ec exitCode
		if errors.As(err, &ec) {
			os.Exit(int(ec))
		}
		os.Exit(1)
	}
}

type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

const usage = `usage: server [flags] [command]
commands:
  serve          run the HTTP server (default)
  migrate        apply database migrations and exit
  ledger check   verify every balance against the ledger; exit 1 on discrepancies
  billing run [--at INSTANT] [--allow-future]
                 charge every subscription renewal due at INSTANT (RFC 3339;
                 now by default) that was not done, as the billing worker does
  invoices issue [--month YYYY-MM] [--at INSTANT] [--allow-future]
                 issue the month's tax invoices and credit notes (the month
                 before INSTANT, now by default), as the invoicing worker does
  commissions settle [--at INSTANT] [--allow-future]
                 credit resellers' commissions of every UTC hour closed
                 before INSTANT (RFC 3339; now by default) not yet credited,
                 as the commissions worker does
                 (these three refuse an INSTANT later than the clock, exit 2,
                 unless --allow-future, which APP_ENV=production refuses)
  brand verify-domain HOST [--reseller ID]
                 mark the pending brand domain HOST verified on the operator's
                 word (ownership checked otherwise, e.g. a support ticket),
                 audited; first proof wins still holds; ID picks one of
                 several resellers claiming HOST
  backup FILE    write a consistent copy of the running SQLite database to FILE
                 (a new file); MariaDB: use mariadb-dump --single-transaction
  create-admin EMAIL
                 create another active admin; the password is ADMIN_PASSWORD or
                 generated and printed once
  secrets rotate re-encrypt every stored secret under DATA_KEY (values under
                 DATA_KEY_PREVIOUS or in plaintext); safe to run again
  healthcheck    ask the server on HTTP_ADDR for /readyz; exit 1 unless it
                 answers 200 (the image's healthcheck: the image has no curl)
flags:
  -addr ADDR     listen address (HTTP_ADDR)
  -db URL        database URL (DATABASE_URL)`

func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	cfg, rest, err := parseConfig(args, getenv)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, usage)
	}
	if len(rest) == 1 && rest[0] == "healthcheck" { // asks the running server; opens no database
		return healthcheck(ctx, cfg.HTTPAddr, stdout)
	}
	// The log is buffered (logwriter.go) and written out last, after the
	// server, its workers and the database have stopped, on every path out
	// of run. The commands' own output goes through the same writer, so it
	// keeps its place among the log lines.
	logOut := newLogWriter(stdout, logBufferSize, logFlushInterval)
	defer logOut.Close()
	stdout = logOut
	log := newLogger(logOut)

	store, err := sqlstore.Open(ctx, cfg.DatabaseURL, log)
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	defer store.Close()
	store.SetZone(cfg.Location) // migrations that open periods use local months
	if err := store.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate database: %w", err)
	}
	// Hits written before the hourly usage roll-up existed are counted
	// into it once, before this instance writes any (decisions: "The
	// dashboard reads usage roll-ups only"; UPGRADING.md).
	if n, err := store.BackfillUsage(ctx, cfg.Location); err != nil {
		return err
	} else if n > 0 {
		log.Info("usage roll-up backfilled", "hits", n)
	}

	cmd := "serve"
	if len(rest) > 0 {
		cmd = rest[0]
	}
	if cmd != "migrate" && cmd != "backup" { // those two copy or change the schema only
		box, err := dataKeys(ctx, cfg, store, log)
		if err != nil {
			return err
		}
		store.UseSealer(box)
	}
	switch {
	case cmd == "serve" && len(rest) <= 1:
		return serve(ctx, cfg, store, log, logOut)
	case cmd == "migrate" && len(rest) == 1:
		log.Info("migrations applied")
		return nil
	case cmd == "secrets" && len(rest) == 2 && rest[1] == "rotate":
		return rotateSecrets(ctx, store, stdout)
	case cmd == "ledger" && len(rest) == 2 && rest[1] == "check":
		return ledgerCheck(ctx, newApp(cfg, store, nil, nil, nil, log).Ledger, stdout)
	case cmd == "billing" && len(rest) >= 2 && rest[1] == "run":
		return billingRun(ctx, newApp(cfg, store, nil, nil, nil, log), rest[2:], stdout, cfg.production())
	case cmd == "invoices" && len(rest) >= 2 && rest[1] == "issue":
		return invoicesIssue(ctx, newApp(cfg, store, nil, nil, nil, log), rest[2:], stdout, cfg.production())
	case cmd == "commissions" && len(rest) >= 2 && rest[1] == "settle":
		return commissionsSettle(ctx, newApp(cfg, store, nil, nil, nil, log), rest[2:], stdout, cfg.production())
	case cmd == "brand" && len(rest) >= 2 && rest[1] == "verify-domain":
		return brandVerifyDomain(ctx, newApp(cfg, store, nil, nil, nil, log), rest[2:], stdout)
	case cmd == "backup" && len(rest) == 2:
		if err := store.Backup(ctx, rest[1]); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "backup: wrote %s\n", rest[1])
		return nil
	case cmd == "create-admin" && len(rest) == 2:
		generated, err := newApp(cfg, store, nil, nil, nil, log).Accounts.CreateAdmin(ctx, rest[1], cfg.AdminPassword)
		if err != nil {
			return err
		}
		if generated != "" {
			fmt.Fprintf(stdout, "admin %s created; password (shown once): %s\n", rest[1], generated)
		} else {
			fmt.Fprintf(stdout, "admin %s created with ADMIN_PASSWORD\n", rest[1])
		}
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", rest, usage)
}

// newApp wires the use cases; tokens, files and metrics are nil for the
// commands that need no panel tokens or uploads (they send no mail either).
func newApp(cfg config, store *sqlstore.Store, tokens *token.JWT, files panel.Files, m app.Metrics, log *slog.Logger) *app.App {
	up := upstream.New(upstream.Options{AllowPrivate: cfg.UpstreamAllowPrivate, DefaultTimeout: cfg.UpstreamTimeout, Sandbox: sandbox.NewUpstream()})
	d := app.Deps{
		Tx: store, Stores: store.Stores(), Names: store.Names(), Exports: store.Exports(), Upstream: up, Files: files,
		ResellerReports: store.ResellerReports(), Verifications: store.Verifications(), Beneficiaries: store.Beneficiaries(),
		Config: app.Config{Location: cfg.Location, UpstreamTimeout: cfg.UpstreamTimeout, PublicBaseURL: cfg.PublicBaseURL,
			MaxTopUp: cfg.BalanceRequestMax, CollectionFeePercent: cfg.CollectionFeePercent, PendingHitGrace: cfg.HitRecoveryAfter, HitPayloadRetention: cfg.HitPayloadRetention, HoldLifetime: cfg.MeteringHolds,
			WebhookTimeout: cfg.WebhookTimeout, GSTRate: cfg.GSTRate,
			DefaultPlan: cfg.DefaultPlan},
		Log: log, Metrics: m,
		Verifier: sandbox.Verifier{}, Recharger: sandbox.Recharger{}, Payouts: sandbox.Payouts{}, Payments: paymentsOf(cfg),
		Opener: sandbox.Opener{}, Renderer: invoicepdf.NewSigned(cfg.InvoiceSigner),
		// Webhook and callback URLs follow the SSRF rules of provider URLs.
		Webhooks: webhookadapter.New(cfg.UpstreamAllowPrivate), Targets: upstream.Policy{AllowPrivate: cfg.UpstreamAllowPrivate},
		// Brand domain checks reach hosts under the same rules.
		DomainProber: hostprobe.New(cfg.UpstreamAllowPrivate),
	}
	if cfg.MailFrom != nil {
		d.Config.PlatformName = cfg.MailFrom.Name // "" means brand.DefaultPlatformName
	}
	if tokens != nil {
		d.Tokens, d.EmailTokens, d.Mailer = tokens, tokens, newMailer(cfg, log)
	}
	return app.New(d)
}

// paymentsOf is the configured payment provider (parseConfig checked its
// settings).
func paymentsOf(cfg config) payment.Provider {
	if cfg.paymentProvider() == providerUPIDirect {
		p, _ := upidirect.New(cfg.UPIVPA, cfg.UPIPayeeName)
		return p
	}
	return sandbox.Payments{}
}

// newMailer is SMTP when SMTP_URL is set, else, in development only, the
// log (links in the log). Production requires SMTP_URL (parseConfig); were
// it empty there, no mailer is better than links in the log.
// devOut is where development prints, beside the JSON log, the lines a
// developer reads: the initial admin's login and the log mailer's links.
var devOut io.Writer = os.Stderr

func newMailer(cfg config, log *slog.Logger) panel.Mailer {
	if cfg.SMTPURL == "" && cfg.production() {
		return nil
	}
	if cfg.SMTPURL == "" {
		log.Warn("SMTP_URL is empty: mail is written to the log, links included (set SMTP_URL in production)")
		return mail.NewLog(log).Echo(devOut)
	}
	sc, _ := mail.ParseSMTPURL(cfg.SMTPURL) // checked by parseConfig
	sc.From = *cfg.MailFrom
	return mail.NewSMTP(sc)
}

func serve(ctx context.Context, cfg config, store *sqlstore.Store, log *slog.Logger, logOut *logWriter) error {
	if err := store.CheckSecrets(ctx); err != nil {
		return err
	}
	secret := cfg.JWTSecret
	if secret == "" {
		if cfg.production() { // parseConfig refuses this already
			return errors.New("JWT_SECRET is required in production")
		}
		var err error
		secret, err = store.Settings().GetOrCreate(ctx, "jwt_secret", apikey.RandomBase62(48))
		if err != nil {
			return fmt.Errorf("load JWT key: %w", err)
		}
	}
	tokens, err := token.NewJWT([]byte(secret))
	if err != nil {
		return err
	}
	files, err := storage.NewLocal(cfg.StorageDir)
	if err != nil {
		return err
	}
	defer files.Close()
	// Measured always (cheap); exposed at /metrics only with METRICS_TOKEN.
	reg := metrics.New()
	reg.AddDBStats(store.Stats)
	reg.AddConflicts(store.ConflictRetries, store.ConflictAborts)
	a := newApp(cfg, store, tokens, files, reg, log)
	defer a.Wait() // mail still being sent, before the database closes

	created, generated, err := a.Accounts.EnsureAdmin(ctx, cfg.AdminEmail, cfg.AdminPassword)
	if err != nil {
		return err
	}
	if created {
		attrs := []any{"email", cfg.AdminEmail}
		if generated != "" {
			// Shown once, at first start only: there is no built-in password.
			attrs = append(attrs, "password", generated)
		}
		log.Info("initial admin created", attrs...)
		if !cfg.production() {
			password := generated
			if password == "" {
				password = "(ADMIN_PASSWORD)"
			}
			fmt.Fprintf(devOut, "\nadmin login: %s/login\n    email:    %s\n    password: %s (shown once)\n\n", cfg.PublicBaseURL, cfg.AdminEmail, password)
		}
	}
	// New accounts and ended graces need the default plan on offer.
	if p, err := store.Stores().Plans.ByCode(ctx, cfg.DefaultPlan); err != nil {
		return fmt.Errorf("DEFAULT_PLAN %q: %w", cfg.DefaultPlan, err)
	} else if p.Status != plan.StatusActive {
		return fmt.Errorf("DEFAULT_PLAN %q is retired: choose an active plan", cfg.DefaultPlan)
	}
	// The gateway's built-in services exist whatever DEMO_DATA says.
	if n, err := a.EnsureGatewayServices(ctx); err != nil {
		return fmt.Errorf("gateway services: %w", err)
	} else if n > 0 {
		log.Info("gateway services registered", "count", n)
	}
	if cfg.DemoData {
		n, err := a.Catalog.SeedServices(ctx, demoSeeds())
		if err != nil {
			return fmt.Errorf("demo data: %w", err)
		}
		if n > 0 {
			log.Info("demo services registered", "count", n)
		}
	}

	// Crash recovery: calls of a stopped or crashed instance that never
	// settled are refunded once they are older than any call can last;
	// younger ones are left to the recovery worker.
	if n, err := recoverPendingHits(ctx, appRounds{a}); err != nil {
		log.Warn("start-up recovery of pending hits failed; the worker retries", "err", err, "refunded", n)
	} else if n > 0 {
		log.Info("start-up recovery refunded interrupted calls", "count", n)
	}

	assets, err := fs.Sub(frontend.Dist, "dist")
	if err != nil {
		return err
	}
	handler := httpapi.NewServer(httpapi.Deps{
		App: a, Log: log, Ready: store.Ping, TrustedProxies: cfg.TrustedProxies, Assets: assets, TimeZone: cfg.Location.String(),
		Metrics: reg, MetricsToken: cfg.MetricsToken, ExportStallTimeout: cfg.ExportStallTimeout,
		StatementImportMaxBytes: cfg.StatementImportMaxBytes,
	})
	// ReadTimeout bounds a whole request, body included: a 6 MB upload at a
	// slow mobile link's 64 kB/s fits; a client trickling bytes to hold a
	// connection (and a spooled temp file) does not. There is no
	// WriteTimeout: it would cut a long, healthy CSV export; a client that
	// stops reading one is ended by the export's own stall deadline
	// (EXPORT_STALL_TIMEOUT), and every other answer is small.
	srv := &http.Server{Addr: cfg.HTTPAddr, Handler: handler, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 2 * time.Minute, IdleTimeout: 2 * time.Minute}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	log.Info("serving", "addr", ln.Addr().String(), "public_base_url", cfg.PublicBaseURL, "app_env", cfg.AppEnv)
	if cfg.MetricsToken == "" {
		log.Info("METRICS_TOKEN is empty: GET /metrics answers 404 (set it to let Prometheus scrape)")
	}

	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			return err
		}
		defer stopPprof()
	}

	wctx, stopWorkers := context.WithCancel(ctx)
	iv := defaultWorkerIntervals
	iv.hitRecovery = hitRecoveryInterval(cfg.HitRecoveryAfter)
	iv.webhooks = cfg.WebhookPollInterval
	workers := startWorkers(wctx, appRounds{a}, a.Outbox, iv, log)
	defer func() { stopWorkers(); workers.Wait() }()

	logOut.Flush() // the start-up lines are out before the first request is served
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	stopWorkers()
	// SIGTERM: stop accepting, let in-flight calls finish (they settle or
	// refund their reservations), then close the database.
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// billingRun is `billing run [--at <RFC 3339 instant>] [--allow-future]`:
// one billing step at that instant (the clock's by default), as the
// workers run it; a later instant than the clock needs --allow-future
// (instant.go).
func billingRun(ctx context.Context, a *app.App, args []string, out io.Writer, production bool) error {
	now := time.Now()
	in, err := parseInstant("billing run", "usage: billing run [--at <RFC 3339 instant>] [--allow-future]", args, nil, now)
	if err != nil {
		return err
	}
	if err := in.check("billing run", now, production); err != nil {
		return err
	}
	at := in.at
	res, err := a.Billing.Run(ctx, at)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "billing run at %s: %d opened, %d renewed, %d past due, %d paid, %d moved to the default plan\n",
		at.Format(time.RFC3339), res.Opened, res.Renewed, res.PastDue, res.Paid, res.Downgraded)
	return nil
}

// invoicesIssue is `invoices issue [--month YYYY-MM] [--at <RFC 3339>]
// [--allow-future]`: month's documents dated at (the clock by default;
// month defaults to the one before at's), as the invoicing worker issues
// them; a later instant than the clock needs --allow-future (instant.go).
func invoicesIssue(ctx context.Context, a *app.App, args []string, out io.Writer, production bool) error {
	const use = "usage: invoices issue [--month YYYY-MM] [--at <RFC 3339 instant>] [--allow-future]"
	now, month := time.Now(), ""
	in, err := parseInstant("invoices issue", use, args, map[string]*string{"--month": &month}, now)
	if err != nil {
		return err
	}
	if err := in.check("invoices issue", now, production); err != nil {
		return err
	}
	at := in.at
	if month == "" {
		month = plan.PrevMonth(plan.Month(at, a.History.Location()))
	}
	res, err := a.Invoicing.Issue(ctx, month, at)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "invoices issue %s at %s: %d invoices, %d credit notes\n", month, at.Format(time.RFC3339), res.Invoices, res.CreditNotes)
	return nil
}

// commissionsSettle is `commissions settle [--at <RFC 3339>]
// [--allow-future]`: every reseller-hour closed before at (the clock by
// default) not yet credited, as the commissions worker settles them; a
// later instant than the clock needs --allow-future (instant.go).
func commissionsSettle(ctx context.Context, a *app.App, args []string, out io.Writer, production bool) error {
	now := time.Now()
	in, err := parseInstant("commissions settle", "usage: commissions settle [--at <RFC 3339 instant>] [--allow-future]", args, nil, now)
	if err != nil {
		return err
	}
	if err := in.check("commissions settle", now, production); err != nil {
		return err
	}
	at := in.at
	res, err := a.Commissions.SettleBefore(ctx, at)
	if err != nil {
		return err
	}
	total := decimal.Zero
	for _, c := range res.Credits {
		total = total.Add(c.Amount)
	}
	fmt.Fprintf(out, "commissions settle before %s: %d reseller-hours credited (%s), %d waiting on pending calls, %s of refunded calls' commission taken back\n",
		at.Format(time.RFC3339), res.Settled, total.StringFixed(2), res.Waiting, res.Reversed.StringFixed(2))
	return nil
}

// brandVerifyDomain is `brand verify-domain HOST [--reseller ID]`: the
// pending claim on HOST (the reseller ID's, or the only one) verified on
// the operator's word (brands.VerifyDomainForOperator), audited.
func brandVerifyDomain(ctx context.Context, a *app.App, args []string, out io.Writer) error {
	const use = "usage: brand verify-domain HOST [--reseller ID]"
	var host string
	var reseller uint64
	for len(args) > 0 {
		name, value, ok := strings.Cut(args[0], "=")
		if !strings.HasPrefix(name, "-") {
			if host != "" {
				return errors.New(use)
			}
			host, args = args[0], args[1:]
			continue
		}
		if !ok {
			if len(args) < 2 {
				return errors.New(use)
			}
			value, args = args[1], args[1:]
		}
		args = args[1:]
		if name != "--reseller" && name != "-reseller" {
			return errors.New(use)
		}
		id, err := strconv.ParseUint(value, 10, 64)
		if err != nil || id == 0 {
			return fmt.Errorf("brand verify-domain --reseller %q: not an account id\n%s", value, use)
		}
		reseller = id
	}
	if host == "" {
		return errors.New(use)
	}
	if a.Brands == nil {
		return errors.New("brand verify-domain: this database has no brands")
	}
	res, err := a.Brands.VerifyDomainForOperator(ctx, host, reseller)
	if err != nil {
		return fmt.Errorf("brand verify-domain %s: %w", host, err)
	}
	if res.Already {
		fmt.Fprintf(out, "brand verify-domain: %s was already verified for reseller #%d; nothing changed\n", brand.NormalizeHost(host), res.ResellerID)
		return nil
	}
	fmt.Fprintf(out, "brand verify-domain: %s verified for reseller #%d on the operator's word (audited brand.domain_verify)\n", brand.NormalizeHost(host), res.ResellerID)
	return nil
}

func ledgerCheck(ctx context.Context, c *check.Checker, out io.Writer) error {
	ds, err := c.Check(ctx)
	if err != nil {
		return err
	}
	for _, d := range ds {
		fmt.Fprintln(out, "DISCREPANCY", d.String())
	}
	if len(ds) > 0 {
		fmt.Fprintf(out, "ledger check: %d discrepancies\n", len(ds))
		return exitCode(1)
	}
	fmt.Fprintln(out, "ledger check: ok, 0 discrepancies")
	return nil
}

// dataKeys is the box that seals the stored secrets: DATA_KEY (and
// DATA_KEY_PREVIOUS) when set; in development without it, a key generated
// once and kept in the settings table, beside the data it protects, which
// is why production refuses to start without DATA_KEY.
func dataKeys(ctx context.Context, cfg config, store *sqlstore.Store, log *slog.Logger) (*secretbox.Box, error) {
	current := cfg.DataKey
	if current == "" {
		if cfg.production() { // parseConfig refuses this already
			return nil, errors.New("DATA_KEY is required in production")
		}
		var err error
		if current, err = store.Settings().GetOrCreate(ctx, "data_key", secretbox.GenerateKey()); err != nil {
			return nil, fmt.Errorf("load generated data key: %w", err)
		}
		log.Warn("DATA_KEY is empty: stored secrets are sealed under a key generated into the database (development only; set DATA_KEY in production)")
	}
	key, err := secretbox.ParseKey(current)
	if err != nil {
		return nil, fmt.Errorf("data key: %w", err)
	}
	var previous []secretbox.Key
	if cfg.DataKeyPrevious != "" {
		p, err := secretbox.ParseKey(cfg.DataKeyPrevious)
		if err != nil {
			return nil, fmt.Errorf("DATA_KEY_PREVIOUS %w", err)
		}
		previous = append(previous, p)
	}
	return secretbox.New(key, previous...), nil
}

// rotateSecrets re-seals every stored secret under the current data key.
func rotateSecrets(ctx context.Context, store *sqlstore.Store, out io.Writer) error {
	res, err := store.RotateSecrets(ctx, sqlstore.RotateBatch)
	fmt.Fprintf(out, "secrets rotate: %d re-encrypted, %d changed meanwhile (left as written), %d unreadable\n",
		res.Sealed, res.Skipped, res.Failed)
	if err != nil {
		return fmt.Errorf("secrets rotate: %w", err)
	}
	return nil
}
