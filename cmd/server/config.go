package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/invoicepdf"
	mailadapter "paygate/adapters/mail"
	"paygate/adapters/secretbox"
	"paygate/adapters/sqlstore"
	"paygate/adapters/upidirect"
	"paygate/core/accounts/user"
	"paygate/core/billing/gst"
	"paygate/core/metering"
	"paygate/core/metering/retention"
	"paygate/core/platform/inr"
)

// config is the whole configuration, parsed once from the environment
// (docs/decisions.md, "Configuration defaults"; the README's table lists
// every variable); flags mirror the most used variables.
type config struct {
	// AppEnv is "development" (the default: generated keys, mail in the
	// log) or "production" (every secret given, none generated).
	AppEnv               string
	HTTPAddr             string
	DatabaseURL          string
	PublicBaseURL        string
	JWTSecret            string
	AdminEmail           string
	AdminPassword        string
	Location             *time.Location
	UpstreamAllowPrivate bool
	UpstreamTimeout      time.Duration
	TrustedProxies       []netip.Prefix
	StorageDir           string
	BalanceRequestMax    decimal.Decimal
	// CollectionFeePercent is the collection fee new accounts start with
	// (COLLECTION_FEE_PERCENT, 0.00); admins change it per account.
	CollectionFeePercent decimal.Decimal
	// GSTRate is the GST rate of invoices in percent (GST_RATE, 18.00);
	// 0 issues bills of supply.
	GSTRate decimal.Decimal
	// DefaultPlan is the plan of new accounts and of accounts whose
	// grace ended (DEFAULT_PLAN, starter).
	DefaultPlan     string
	SMTPURL         string
	MailFrom        *mail.Address
	DemoData        bool
	ShutdownTimeout time.Duration
	// HitRecoveryAfter is how long a hit may stay pending before crash
	// recovery refunds it (HIT_RECOVERY_AFTER); longer than any call.
	HitRecoveryAfter time.Duration
	// HitPayloadRetention is how long hit payloads are kept
	// (HIT_PAYLOAD_RETENTION: a duration or Nd days, at least 1h; default 90d).
	HitPayloadRetention time.Duration
	// MeteringHolds is how long a hold of metered calls serves calls
	// (METERING_HOLDS: a duration of at most 10s, or "off": every call
	// reserves its charge before its upstream call); app.Config.HoldLifetime.
	MeteringHolds time.Duration
	MetricsToken  string // bearer token of GET /metrics; empty: /metrics answers 404
	// PprofAddr is a loopback address serving net/http/pprof (PPROF_ADDR);
	// empty: no profiling endpoint.
	PprofAddr string
	// WebhookPollInterval is how often the delivery worker looks for due
	// deliveries (WEBHOOK_POLL_INTERVAL, at most 2 s: the first attempt
	// comes within 5 s of the commit); WebhookTimeout bounds one attempt
	// (WEBHOOK_TIMEOUT, 10 s).
	WebhookPollInterval time.Duration
	WebhookTimeout      time.Duration
	// DataKey seals the secrets stored in the database (DATA_KEY, base64 of
	// 32 bytes); DataKeyPrevious (DATA_KEY_PREVIOUS) still opens values
	// sealed before a rotation. Empty DataKey: generated (development only).
	DataKey         string
	DataKeyPrevious string
	// SandboxPayments allows the sandbox payment provider in production
	// (SANDBOX_PAYMENTS), whose payments anyone can mark paid (and so credit
	// balances: collections and balance checkouts).
	SandboxPayments bool
	// PaymentProvider is "sandbox" (the default) or "upi_direct"
	// (PAYMENT_PROVIDER): live UPI into the platform's own UPI_VPA under
	// UPI_PAYEE_NAME, confirmed by bank-statement reconciliation.
	PaymentProvider string
	UPIVPA          string
	UPIPayeeName    string
	// ExportStallTimeout ends a CSV export whose client reads nothing for
	// this long (EXPORT_STALL_TIMEOUT, 30 s).
	ExportStallTimeout time.Duration
	// StatementImportMaxBytes bounds a bank-statement upload
	// (STATEMENT_IMPORT_MAX_BYTES, 20 MB).
	StatementImportMaxBytes int64
	// InvoiceSigner signs every invoice and credit note PDF: the key and
	// certificate of the PKCS#12 file INVOICE_SIGNING_CERT, opened with
	// INVOICE_SIGNING_PASSWORD at start-up. Nil: PDFs are not signed.
	InvoiceSigner *invoicepdf.Signer
}

// App environments (APP_ENV).
const (
	envDevelopment = "development"
	envProduction  = "production"
)

// production reports APP_ENV=production.
func (c config) production() bool { return c.AppEnv == envProduction }

// Payment providers (PAYMENT_PROVIDER).
const (
	providerSandbox   = "sandbox"
	providerUPIDirect = "upi_direct"
)

// paymentProvider names the payment provider the server wires; the sandbox
// stays the default.
func (c config) paymentProvider() string {
	if c.PaymentProvider == "" {
		return providerSandbox
	}
	return c.PaymentProvider
}

func parseConfig(args []string, getenv func(string) string) (config, []string, error) {
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	c := config{
		PublicBaseURL:   strings.TrimRight(env("PUBLIC_BASE_URL", "http://localhost:8080"), "/"),
		JWTSecret:       getenv("JWT_SECRET"),
		AdminEmail:      env("ADMIN_EMAIL", "admin@localhost"),
		AdminPassword:   getenv("ADMIN_PASSWORD"),
		StorageDir:      env("STORAGE_DIR", "./data/uploads"),
		SMTPURL:         getenv("SMTP_URL"),
		MetricsToken:    getenv("METRICS_TOKEN"),
		PprofAddr:       getenv("PPROF_ADDR"),
		AppEnv:          env("APP_ENV", envDevelopment),
		DataKey:         getenv("DATA_KEY"),
		DataKeyPrevious: getenv("DATA_KEY_PREVIOUS"),
		PaymentProvider: env("PAYMENT_PROVIDER", providerSandbox),
		UPIVPA:          strings.TrimSpace(getenv("UPI_VPA")),
		UPIPayeeName:    strings.TrimSpace(getenv("UPI_PAYEE_NAME")),
	}
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.StringVar(&c.HTTPAddr, "addr", env("HTTP_ADDR", ":8080"), "listen address (HTTP_ADDR)")
	fs.StringVar(&c.DatabaseURL, "db", env("DATABASE_URL", "sqlite://./data/app.db"), "database URL (DATABASE_URL)")
	if err := fs.Parse(args); err != nil {
		return c, nil, err
	}
	var err error
	if c.DatabaseURL, err = withDatabasePassword(c.DatabaseURL, getenv("DATABASE_PASSWORD"), getenv("DATABASE_PASSWORD_FILE"), os.ReadFile); err != nil {
		return c, nil, err
	}
	bools := []struct {
		key string
		dst *bool
	}{{"UPSTREAM_ALLOW_PRIVATE", &c.UpstreamAllowPrivate}, {"DEMO_DATA", &c.DemoData}, {"SANDBOX_PAYMENTS", &c.SandboxPayments}}
	for _, b := range bools {
		if v := getenv(b.key); v != "" {
			if *b.dst, err = strconv.ParseBool(v); err != nil {
				return c, nil, fmt.Errorf("%s: %q is not true or false", b.key, v)
			}
		}
	}
	switch c.PaymentProvider {
	case providerSandbox:
	case providerUPIDirect:
		if _, err := upidirect.New(c.UPIVPA, c.UPIPayeeName); err != nil {
			return c, nil, fmt.Errorf("PAYMENT_PROVIDER=upi_direct: %w", err)
		}
	default:
		return c, nil, fmt.Errorf("PAYMENT_PROVIDER: %q is neither sandbox nor upi_direct", c.PaymentProvider)
	}
	switch c.AppEnv {
	case envDevelopment:
	case envProduction:
		if err := c.checkProduction(); err != nil {
			return c, nil, err
		}
	default:
		return c, nil, fmt.Errorf("APP_ENV: %q is neither development nor production", c.AppEnv)
	}
	durations := []struct {
		key, def string
		dst      *time.Duration
	}{{"UPSTREAM_TIMEOUT", "15s", &c.UpstreamTimeout}, {"SHUTDOWN_TIMEOUT", "20s", &c.ShutdownTimeout},
		{"WEBHOOK_POLL_INTERVAL", "1s", &c.WebhookPollInterval}, {"WEBHOOK_TIMEOUT", "10s", &c.WebhookTimeout},
		{"EXPORT_STALL_TIMEOUT", "30s", &c.ExportStallTimeout}}
	for _, d := range durations {
		if *d.dst, err = time.ParseDuration(env(d.key, d.def)); err != nil || *d.dst <= 0 {
			return c, nil, fmt.Errorf("%s: %q is not a positive duration such as 15s", d.key, env(d.key, d.def))
		}
	}
	size := env("STATEMENT_IMPORT_MAX_BYTES", "20MB")
	if c.StatementImportMaxBytes, err = parseByteSize(size); err != nil {
		return c, nil, fmt.Errorf("STATEMENT_IMPORT_MAX_BYTES: %q %v", size, err)
	}
	if c.WebhookPollInterval > 2*time.Second {
		return c, nil, fmt.Errorf("WEBHOOK_POLL_INTERVAL: %s is longer than 2s (the first attempt is due within 5 s of the event)", c.WebhookPollInterval)
	}
	if c.WebhookTimeout > time.Minute {
		return c, nil, fmt.Errorf("WEBHOOK_TIMEOUT: %s is longer than 1m", c.WebhookTimeout)
	}
	c.HitRecoveryAfter = c.UpstreamTimeout + metering.DefaultRecoveryMargin
	if v := getenv("HIT_RECOVERY_AFTER"); v != "" {
		if c.HitRecoveryAfter, err = time.ParseDuration(v); err != nil || c.HitRecoveryAfter <= c.UpstreamTimeout {
			return c, nil, fmt.Errorf("HIT_RECOVERY_AFTER: %q is not a duration longer than UPSTREAM_TIMEOUT (%s)", v, c.UpstreamTimeout)
		}
	}
	keep := env("HIT_PAYLOAD_RETENTION", "90d")
	if c.HitPayloadRetention, err = parseRetention(keep); err != nil {
		return c, nil, fmt.Errorf("HIT_PAYLOAD_RETENTION: %q %v", keep, err)
	}
	if strings.HasPrefix(c.DatabaseURL, "mysql://") && c.HitPayloadRetention > sqlstore.MaxPayloadRetentionMySQL {
		return c, nil, fmt.Errorf("HIT_PAYLOAD_RETENTION: %q is longer than %d days, the most MySQL's ring of monthly payload partitions keeps",
			keep, sqlstore.MaxPayloadRetentionMySQL/(24*time.Hour))
	}
	switch v := env("METERING_HOLDS", metering.DefaultHoldLifetime.String()); v {
	case "off":
		c.MeteringHolds = -1
	default:
		if c.MeteringHolds, err = time.ParseDuration(v); err != nil || c.MeteringHolds <= 0 || c.MeteringHolds > 10*time.Second {
			return c, nil, fmt.Errorf("METERING_HOLDS: %q is neither \"off\" nor a positive duration of at most 10s", v)
		}
	}
	tz := env("TIMEZONE", "Asia/Kolkata")
	if c.Location, err = time.LoadLocation(tz); err != nil {
		return c, nil, fmt.Errorf("TIMEZONE: %q is not a known time zone", tz)
	}
	for _, part := range strings.Split(getenv("TRUSTED_PROXIES"), ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			a, err := netip.ParseAddr(part)
			if err != nil {
				return c, nil, fmt.Errorf("TRUSTED_PROXIES: %q is not an address or CIDR", part)
			}
			part = netip.PrefixFrom(a, a.BitLen()).String()
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return c, nil, fmt.Errorf("TRUSTED_PROXIES: %q is not an address or CIDR", part)
		}
		c.TrustedProxies = append(c.TrustedProxies, p.Masked())
	}
	if u, err := url.Parse(c.PublicBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, nil, fmt.Errorf("PUBLIC_BASE_URL: %q is not an absolute http(s) URL", c.PublicBaseURL)
	}
	if c.SMTPURL != "" {
		if _, err := mailadapter.ParseSMTPURL(c.SMTPURL); err != nil {
			return c, nil, err
		}
	}
	from := env("MAIL_FROM", "Paygate <no-reply@localhost>")
	if c.MailFrom, err = mail.ParseAddress(from); err != nil {
		return c, nil, fmt.Errorf("MAIL_FROM: %q is not an email address (Name <address> or address)", from)
	}
	maxTopUp := env("BALANCE_REQUEST_MAX", "500000.00")
	if c.BalanceRequestMax, err = parseMaxAmount(maxTopUp); err != nil {
		return c, nil, fmt.Errorf("BALANCE_REQUEST_MAX: %q %v", maxTopUp, err)
	}
	c.DefaultPlan = env("DEFAULT_PLAN", "starter")
	if !user.Plan(c.DefaultPlan).Valid() {
		return c, nil, fmt.Errorf("DEFAULT_PLAN: %q is not a plan's code (lowercase letters, digits and dashes)", c.DefaultPlan)
	}
	rate := env("GST_RATE", "18.00")
	if r, err := decimal.NewFromString(rate); err != nil || !gst.ValidRate(r) {
		return c, nil, fmt.Errorf("GST_RATE: %q must be a percentage from 0 to 100 with at most 2 decimals", rate)
	} else {
		c.GSTRate = r
	}
	fee := env("COLLECTION_FEE_PERCENT", "0.00")
	var feeOK bool
	if c.CollectionFeePercent, feeOK = user.ParseCollectionFee(fee); !feeOK {
		return c, nil, fmt.Errorf("COLLECTION_FEE_PERCENT: %q %s", fee, user.CollectionFeeMessage)
	}
	if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
		return c, nil, fmt.Errorf("JWT_SECRET must be at least 32 characters")
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < 16 {
		return c, nil, fmt.Errorf("METRICS_TOKEN must be at least 16 characters")
	}
	for _, k := range []struct{ name, value string }{{"DATA_KEY", c.DataKey}, {"DATA_KEY_PREVIOUS", c.DataKeyPrevious}} {
		if k.value != "" {
			if _, err := secretbox.ParseKey(k.value); err != nil {
				return c, nil, fmt.Errorf("%s %v", k.name, err)
			}
		}
	}
	if c.DataKeyPrevious != "" && c.DataKey == "" {
		return c, nil, fmt.Errorf("DATA_KEY_PREVIOUS is set without DATA_KEY (the key to rotate to)")
	}
	if c.InvoiceSigner, err = invoiceSigner(getenv("INVOICE_SIGNING_CERT"), getenv("INVOICE_SIGNING_PASSWORD"), os.ReadFile); err != nil {
		return c, nil, err
	}
	if c.PprofAddr != "" {
		host, _, err := net.SplitHostPort(c.PprofAddr)
		if ip, perr := netip.ParseAddr(host); err != nil || perr != nil || !ip.IsLoopback() {
			return c, nil, fmt.Errorf("PPROF_ADDR: %q is not a loopback address with a port such as 127.0.0.1:6060", c.PprofAddr)
		}
	}
	return c, fs.Args(), nil
}

// checkProduction names, in one error, every setting production needs
// that is missing or unsafe: nothing is generated there, mail is never
// written to the log, and sandbox payments are asked for explicitly.
func (c config) checkProduction() error {
	var missing []string
	if len(c.JWTSecret) < 32 {
		missing = append(missing, "JWT_SECRET (at least 32 characters)")
	}
	if _, err := secretbox.ParseKey(c.DataKey); err != nil {
		missing = append(missing, "DATA_KEY (base64 of 32 bytes: openssl rand -base64 32)")
	}
	if _, err := mailadapter.ParseSMTPURL(c.SMTPURL); err != nil {
		missing = append(missing, "SMTP_URL (smtp://user:pass@host:port; mail is never written to the log in production)")
	}
	if u, err := url.Parse(c.PublicBaseURL); err != nil || u.Scheme != "https" {
		missing = append(missing, "PUBLIC_BASE_URL (an https URL)")
	}
	if c.paymentProvider() == providerSandbox && !c.SandboxPayments {
		missing = append(missing, "SANDBOX_PAYMENTS=true (the payment provider is the sandbox, whose payments anyone can mark paid, crediting balances)")
	}
	if len(missing) > 0 {
		return fmt.Errorf("APP_ENV=production: missing or invalid: %s", strings.Join(missing, "; "))
	}
	return nil
}

// parseRetention reads a retention: a Go duration (2160h) or whole days
// (90d), from retention.MinKeep to 100 years.
// invoiceSigner opens the PKCS#12 file INVOICE_SIGNING_CERT names with
// INVOICE_SIGNING_PASSWORD; both or neither are set. Its errors name the
// setting that is wrong and never the password.
func invoiceSigner(file, password string, readFile func(string) ([]byte, error)) (*invoicepdf.Signer, error) {
	switch {
	case file == "" && password == "":
		return nil, nil
	case file == "":
		return nil, errors.New("INVOICE_SIGNING_PASSWORD is set without INVOICE_SIGNING_CERT (the PKCS#12 file it opens)")
	case password == "":
		return nil, errors.New("INVOICE_SIGNING_CERT is set without INVOICE_SIGNING_PASSWORD (the PKCS#12 file's password)")
	}
	p12, err := readFile(file)
	if err != nil {
		return nil, fmt.Errorf("INVOICE_SIGNING_CERT: cannot read the PKCS#12 file: %w", err)
	}
	s, err := invoicepdf.NewSigner(p12, password, time.Now)
	switch {
	case errors.Is(err, invoicepdf.ErrSigningPassword):
		return nil, fmt.Errorf("INVOICE_SIGNING_PASSWORD does not open INVOICE_SIGNING_CERT %q (wrong password)", file)
	case err != nil:
		return nil, fmt.Errorf("INVOICE_SIGNING_CERT: %q: %w", file, err)
	}
	return s, nil
}

func parseRetention(v string) (time.Duration, error) {
	const maxDays = 36500
	var d time.Duration
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 || n > maxDays {
			return 0, fmt.Errorf("is not a number of days such as 90d (at most %d)", maxDays)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			return 0, fmt.Errorf("is neither a number of days such as 90d nor a duration such as 2160h")
		}
	}
	if d < retention.MinKeep || d > maxDays*24*time.Hour {
		return 0, fmt.Errorf("is not between %s and %d days", retention.MinKeep, maxDays)
	}
	return d, nil
}

// parseMaxAmount reads a positive amount that a balance (DECIMAL(12,2)) can hold.
func parseMaxAmount(v string) (decimal.Decimal, error) {
	d, ok := inr.Parse(v, 2)
	if !ok || !d.IsPositive() || !inr.FitsColumn(d, 12, 2) {
		return d, fmt.Errorf("is not a positive amount with at most 2 decimals, below 10000000000")
	}
	return d, nil
}

// parseByteSize reads a size as bytes or with a kB, MB or GB suffix
// (powers of 1024): "20MB", "512kB", "1048576". At least 1 kB, at most 1 GB.
func parseByteSize(v string) (int64, error) {
	n, unit := strings.TrimSpace(v), int64(1)
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"kB", 1 << 10}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(n, u.suffix) {
			n, unit = strings.TrimSpace(strings.TrimSuffix(n, u.suffix)), u.size
			break
		}
	}
	x, err := strconv.ParseInt(n, 10, 64)
	if err != nil || x <= 0 || x > (1<<30)/unit || x*unit < 1<<10 {
		return 0, errors.New("is not a size from 1kB to 1GB such as 20MB")
	}
	return x * unit, nil
}

// withDatabasePassword puts the MySQL password from DATABASE_PASSWORD, or
// from the file DATABASE_PASSWORD_FILE names (a Docker secret; one trailing
// newline dropped), into databaseURL, percent-encoded: compose passes
// MariaDB's own password as written, and one holding / @ # ? % would break a
// URL spelled out by hand. Neither set: databaseURL as it is.
func withDatabasePassword(databaseURL, password, file string, readFile func(string) ([]byte, error)) (string, error) {
	switch {
	case password != "" && file != "":
		return "", errors.New("DATABASE_PASSWORD and DATABASE_PASSWORD_FILE: set one, not both")
	case file != "":
		b, err := readFile(file)
		if err != nil {
			return "", fmt.Errorf("DATABASE_PASSWORD_FILE: %w", err)
		}
		password = strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		if password == "" {
			return "", fmt.Errorf("DATABASE_PASSWORD_FILE: %s is empty", file)
		}
	case password == "":
		return databaseURL, nil
	}
	u, err := url.Parse(databaseURL)
	if err != nil || u.Scheme != "mysql" {
		return "", errors.New("DATABASE_PASSWORD: DATABASE_URL is not a mysql:// URL (SQLite takes no password)")
	}
	user := ""
	if u.User != nil {
		user = u.User.Username()
	}
	if user == "" {
		return "", errors.New("DATABASE_PASSWORD: DATABASE_URL names no user (mysql://user@host:3306/db)")
	}
	u.User = url.UserPassword(user, password)
	return u.String(), nil
}
