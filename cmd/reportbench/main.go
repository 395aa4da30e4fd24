// Command reportbench measures the panel's report queries on a large hit
// log: it creates a fresh database, bulk-seeds it (by default 1,000,000 hit
// log rows over 45 local days, ~50 users, 8 services), then times hit log
// pages, the dashboard and a user's CSV export through the real HTTP
// handler, in process, and prints p50/p95/max per query. It fails when a
// p95 is over -budget or the export streams fewer than -export-rate rows a
// second.
//
//	go run ./cmd/reportbench [-rows 1000000] [-runs 20] [-db mysql|sqlite] [-mysql URL] [-keep]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"paygate/adapters/httpapi"
	"paygate/adapters/sqlstore"
	"paygate/adapters/token"
	"paygate/core/accounts/session"
	"paygate/core/accounts/user"
	"paygate/core/app"
	"paygate/internal/dburl"
	"paygate/internal/mariadbproc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "reportbench:", err)
		os.Exit(1)
	}
}

type options struct {
	db, mysql, zone string
	rows, runs      int
	users, services int
	days            int
	todayRows       int // rows on today; 0: today gets an equal share like every day
	budget          time.Duration
	firstBudget     time.Duration
	keep            bool
	cpuProfile      string // the CSV export's CPU profile
	exportRate      int    // rows/s the CSV export must reach (0: no goal)
}

// exportRuns is how many times the CSV export is timed.
const exportRuns = 5

// thousands writes x rounded, with thousands separators.
func thousands(x float64) string {
	s := strconv.FormatInt(int64(math.Round(x)), 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("reportbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.db, "db", "mysql", `"mysql" (a fresh reportbench_<time> database on -mysql) or "sqlite" (a temporary file)`)
	fs.StringVar(&o.mysql, "mysql", "private", `MariaDB/MySQL server where -db mysql creates its database: "private" (a mariadbd of the run's own with cmd/bench's settings, stopped at the end) or a mysql:// URL of an existing server`)
	fs.StringVar(&o.zone, "tz", "Asia/Kolkata", "TIMEZONE of the reports")
	fs.IntVar(&o.rows, "rows", 1_000_000, "hit log rows to seed")
	fs.IntVar(&o.runs, "runs", 20, "timed runs per query")
	fs.IntVar(&o.users, "users", 50, "users the hits belong to")
	fs.IntVar(&o.services, "services", 8, "services the hits are spread over")
	fs.IntVar(&o.days, "days", 45, "local days the hits are spread over (today included)")
	fs.IntVar(&o.todayRows, "today-rows", 0, "how many of the rows fall on today (0: an equal share); the rest are spread over the other days")
	fs.DurationVar(&o.budget, "budget", 300*time.Millisecond, "fail when a query's p95 is above this")
	fs.DurationVar(&o.firstBudget, "first-budget", time.Second, "fail when the first dashboard read (closing the past days) takes longer")
	fs.BoolVar(&o.keep, "keep", false, "keep the database")
	fs.IntVar(&o.exportRate, "export-rate", 100_000, "fail when the CSV export streams fewer rows a second (median of its runs; 0: no goal)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the CSV exports (this process: handler, store, driver) to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.rows < 1 || o.runs < 1 || o.users < 2 || o.services < 1 || o.days < 31 {
		return errors.New("-rows, -runs and -services must be positive, -users at least 2, -days at least 31")
	}
	if o.todayRows < 0 || o.todayRows >= o.rows {
		return errors.New("-today-rows must be at least 0 and fewer than -rows")
	}
	loc, err := time.LoadLocation(o.zone)
	if err != nil {
		return fmt.Errorf("-tz: %w", err)
	}
	progress := log.New(stderr, "reportbench: ", 0)

	if o.db == "mysql" && o.mysql == "private" {
		progress.Printf("starting a private mariadbd %s", strings.Join(mariadbproc.BenchFlags, " "))
		srv, err := mariadbproc.New(ctx, mariadbproc.BenchFlags...)
		if err != nil {
			return fmt.Errorf("private mariadbd: %w", err)
		}
		defer func() {
			if err := srv.Stop(); err != nil {
				progress.Printf("private mariadbd: %v", err)
			}
			if o.keep {
				progress.Printf("kept the private mariadbd's folder %s", srv.Dir())
			} else if err := srv.Close(); err != nil {
				progress.Printf("private mariadbd: remove its folder: %v", err)
			}
		}()
		o.mysql = srv.URL()
	}
	dbURL, drop, err := freshDatabase(ctx, o.db, o.mysql)
	if err != nil {
		return err
	}
	defer func() {
		if o.keep {
			progress.Printf("kept database %s", dburl.Redact(dbURL))
			return
		}
		if derr := drop(); derr != nil {
			progress.Printf("drop database: %v", derr)
		}
	}()
	store, err := sqlstore.Open(ctx, dbURL, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	if err := store.Migrate(ctx); err != nil {
		return err
	}

	now := time.Now()
	started := time.Now()
	w, err := seed(ctx, store, o, loc, now, progress)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	seedTime := time.Since(started)
	progress.Printf("seeded %d hit log rows in %s", o.rows, seedTime.Round(time.Millisecond))
	// The seed wrote hit rows directly: they are counted into the hourly
	// usage roll-up the way an upgraded database's are, by the backfill.
	started = time.Now()
	counted, err := store.BackfillUsage(ctx, loc)
	if err != nil {
		return err
	}
	backfill := time.Since(started)
	progress.Printf("backfilled the usage roll-up with %d final hits in %s", counted, backfill.Round(time.Millisecond))

	tokens, err := token.NewJWT([]byte(strings.Repeat("r", 32)))
	if err != nil {
		return err
	}
	a := app.New(app.Deps{Tx: store, Stores: store.Stores(), Names: store.Names(), Exports: store.Exports(), Tokens: tokens, Config: app.Config{Location: loc}})
	srv := httptest.NewServer(httpapi.NewServer(httpapi.Deps{App: a, Log: slog.New(slog.DiscardHandler), Ready: store.Ping}))
	defer srv.Close()
	adminTok, err := signIn(ctx, store, tokens, w.admin, user.RoleAdmin)
	if err != nil {
		return err
	}
	userTok, err := signIn(ctx, store, tokens, w.user, user.RoleUser)
	if err != nil {
		return err
	}

	b := &bench{client: srv.Client(), base: srv.URL}
	var results []result
	results = append(results, result{name: fmt.Sprintf("usage roll-up backfill (%d hits, once per database)", counted), runs: []time.Duration{backfill}, oneOff: true})
	// The first dashboard read closes the 29 past days of the window from
	// the hourly roll-up (once for every instance and user; on a server
	// the usage-days worker does it first): timed on its own.
	first, err := b.time(ctx, "/api/v1/panel/dashboard", adminTok)
	if err != nil {
		return err
	}
	results = append(results, result{name: "dashboard, admin, first read (closes 29 days)", runs: []time.Duration{first}, oneOff: true, budget: o.firstBudget})

	day20 := now.In(loc).AddDate(0, 0, -20).Format("2006-01-02")
	week := now.In(loc).AddDate(0, 0, -16).Format("2006-01-02")
	queries := []struct{ name, path, token string }{
		{"hit logs, admin, page 1", "/api/v1/panel/hit-logs", adminTok},
		{"hit logs, admin, page 500 (rows 9,981-10,000)", "/api/v1/panel/hit-logs?page=500", adminTok},
		{"hit logs, admin, one day 20 days ago", "/api/v1/panel/hit-logs?from=" + day20 + "&to=" + day20, adminTok},
		{"hit logs, admin, one day, page 250", "/api/v1/panel/hit-logs?from=" + day20 + "&to=" + day20 + "&page=250", adminTok},
		{"hit logs, admin, service + status=failed", fmt.Sprintf("/api/v1/panel/hit-logs?service=%s&status=failed", w.slug), adminTok},
		{"hit logs, admin, user_id filter", fmt.Sprintf("/api/v1/panel/hit-logs?user_id=%d", w.user), adminTok},
		{"hit logs, admin, api_key_id + status=failed", fmt.Sprintf("/api/v1/panel/hit-logs?api_key_id=%d&status=failed", w.user), adminTok},
		{"hit logs, user, page 1", "/api/v1/panel/hit-logs", userTok},
		{"hit logs, user, status=failed", "/api/v1/panel/hit-logs?status=failed", userTok},
		{"hit logs, user, page 500", "/api/v1/panel/hit-logs?page=500", userTok},
		{"hit logs, user, a week 10-16 days ago", "/api/v1/panel/hit-logs?from=" + week + "&to=" + now.In(loc).AddDate(0, 0, -10).Format("2006-01-02"), userTok},
		{"hit logs, user, service + from, page 100", fmt.Sprintf("/api/v1/panel/hit-logs?service=%s&from=%s&page=100", w.slug, week), userTok},
		{"dashboard, admin", "/api/v1/panel/dashboard", adminTok},
		{"dashboard, user", "/api/v1/panel/dashboard", userTok},
	}
	for _, q := range queries {
		if _, err := b.time(ctx, q.path, q.token); err != nil { // warm-up
			return err
		}
		r := result{name: q.name}
		for range o.runs {
			d, err := b.time(ctx, q.path, q.token)
			if err != nil {
				return err
			}
			r.runs = append(r.runs, d)
		}
		results = append(results, r)
		progress.Printf("%s: p95 %s", q.name, ms(r.pct(95)))
	}
	stopProfile, err := startProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	// The export is timed exportRuns times (the first included); its rate
	// is the rows over the median time.
	export := result{}
	var size int64
	for range exportRuns {
		var d time.Duration
		if d, size, err = b.export(ctx, "/api/v1/panel/hit-logs?format=csv", userTok); err != nil {
			break
		}
		export.runs = append(export.runs, d)
	}
	if perr := stopProfile(); err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	rate := float64(w.userRows) / export.pct(50).Seconds()
	export.name = fmt.Sprintf("CSV export, user, all %d of their rows (%.1f MB): %s rows/s", w.userRows, float64(size)/1e6, thousands(rate))
	results = append(results, export)

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(stdout, "reportbench: %s, %d hit log rows over %d local days (%s), %d users, %d services; seeded in %s; today's rows so far: %d\n",
		store.Dialect(), o.rows, o.days, o.zone, o.users, o.services, seedTime.Round(time.Second), w.todayRows)
	fmt.Fprintln(tw, "query\truns\tp50 ms\tp95 ms\tmax ms\t")
	var over []string
	for _, r := range results {
		if r.oneOff {
			fmt.Fprintf(tw, "%s\t1\t%s\t\t\t\n", r.name, ms(r.runs[0]))
			if r.budget > 0 && r.runs[0] > r.budget {
				over = append(over, fmt.Sprintf("%s (over %s)", r.name, r.budget))
			}
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t\n", r.name, len(r.runs), ms(r.pct(50)), ms(r.pct(95)), ms(r.pct(100)))
		if r.pct(95) > o.budget && r.name != export.name {
			over = append(over, r.name)
		}
	}
	if o.exportRate > 0 && rate < float64(o.exportRate) {
		over = append(over, fmt.Sprintf("CSV export at %s rows/s (under %s)", thousands(rate), thousands(float64(o.exportRate))))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(over) > 0 {
		return fmt.Errorf("over budget (p95 over %s, or a one-off over its own): %s", o.budget, strings.Join(over, "; "))
	}
	return nil
}

// startProfile starts a CPU profile into path ("": none) and returns how
// to stop it.
func startProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

type result struct {
	name   string
	runs   []time.Duration
	oneOff bool
	budget time.Duration // a one-off's limit (0: none)
}

// pct is the p-th percentile (nearest rank) of the runs.
func (r result) pct(p int) time.Duration {
	s := slices.Clone(r.runs)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }

type bench struct {
	client *http.Client
	base   string
}

// time GETs path and reads the whole answer; anything but 200 is an error.
func (b *bench) time(ctx context.Context, path, tok string) (time.Duration, error) {
	d, _, err := b.get(ctx, path, tok)
	return d, err
}

func (b *bench) export(ctx context.Context, path, tok string) (time.Duration, int64, error) {
	return b.get(ctx, path, tok)
}

func (b *bench) get(ctx context.Context, path, tok string) (time.Duration, int64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+path, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	start := time.Now()
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	d := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: status %d", path, resp.StatusCode)
	}
	return d, n, nil
}

// freshDatabase creates an empty database and returns its URL and how to
// drop it.
func freshDatabase(ctx context.Context, kind, serverURL string) (string, func() error, error) {
	if kind == "sqlite" {
		dir, err := os.MkdirTemp("", "reportbench-")
		if err != nil {
			return "", nil, err
		}
		return "sqlite://" + filepath.Join(dir, "bench.db"), func() error { return os.RemoveAll(dir) }, nil
	}
	if kind != "mysql" {
		return "", nil, fmt.Errorf("-db must be mysql or sqlite, not %q", kind)
	}
	db, err := dburl.OpenServer(serverURL)
	if err != nil {
		return "", nil, fmt.Errorf("-mysql: %w", err)
	}
	name := fmt.Sprintf("reportbench_%d", time.Now().Unix())
	if _, err := db.ExecContext(ctx, "CREATE DATABASE `"+name+"` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci"); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	u, _ := url.Parse(serverURL) // parsed by OpenServer
	u.Path = "/" + name
	return u.String(), func() error {
		defer db.Close()
		_, err := db.Exec("DROP DATABASE `" + name + "`")
		return err
	}, nil
}

// world is what the seed made that the queries need.
type world struct {
	admin, user uint64 // ids
	userRows    int    // hits of user
	todayRows   int
	slug        string // a service
}

// seed writes users, services, keys and the hit log rows and their payloads
// with multi-row INSERTs of literal values (generated numbers and fixed
// strings only).
// Every local day gets the same share of rows (or today gets -today-rows
// and the other days share the rest); today's share lies between local
// midnight and now.
func seed(ctx context.Context, s *sqlstore.Store, o options, loc *time.Location, now time.Time, progress *log.Logger) (world, error) {
	db := s.DB().WithContext(ctx)
	var w world
	stamp := now.UTC().Format("2006-01-02 15:04:05")
	var sb strings.Builder
	sb.WriteString("INSERT INTO users (id, name, email, phone, password, role, status, plan, balance, total_spent, created_at, updated_at) VALUES ")
	for i := 1; i <= o.users; i++ {
		role := "user"
		if i == 1 {
			role = "admin"
		}
		if i > 1 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, "(%d, 'User %d', 'u%d@bench.example', '9%09d', 'x', '%s', 'active', 'enterprise', '100000.00', '0.00', '%s', '%s')", i, i, i, i, role, stamp, stamp)
	}
	if err := db.Exec(sb.String()).Error; err != nil {
		return w, err
	}
	sb.Reset()
	sb.WriteString("INSERT INTO api_services (id, name, slug, category, provider_url, method, status, created_at, updated_at) VALUES ")
	for i := 1; i <= o.services; i++ {
		if i > 1 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, "(%d, 'Service %d', 'svc-%d', 'bench', 'https://upstream.example/%d', 'POST', 'active', '%s', '%s')", i, i, i, i, stamp, stamp)
	}
	if err := db.Exec(sb.String()).Error; err != nil {
		return w, err
	}
	w.admin, w.user, w.slug = 1, 2, "svc-1"

	// Times as each driver writes a UTC time.Time.
	timeLayout := "2006-01-02 15:04:05.000000"
	if s.Dialect() == sqlstore.DialectSQLite {
		timeLayout = "2006-01-02 15:04:05.999999999-07:00"
	}
	midnight, _ := time.ParseInLocation("2006-01-02", now.In(loc).Format("2006-01-02"), loc)
	rng := rand.New(rand.NewPCG(1, 2))
	const batch = 2000
	sb.Reset()
	var payloads strings.Builder // the batch's hit_payloads rows
	inBatch := 0
	flush := func() error {
		if inBatch == 0 {
			return nil
		}
		err := db.Exec(sb.String()).Error
		if err == nil {
			err = db.Exec(payloads.String()).Error
		}
		sb.Reset()
		payloads.Reset()
		inBatch = 0
		return err
	}
	for i := range o.rows {
		day, within, share := dayOfRow(o, i) // day 0 = the oldest, days-1 = today
		dayStart := midnight.AddDate(0, 0, day-(o.days-1))
		span := dayStart.AddDate(0, 0, 1).Sub(dayStart)
		if day == o.days-1 {
			span = now.Sub(midnight)
			w.todayRows++
		}
		at := dayStart.Add(time.Duration(float64(span) * (float64(within) + 0.5) / float64(share))).UTC()
		userID := 1 + rng.IntN(o.users)
		if userID == 2 {
			w.userRows++
		}
		svc := 1 + rng.IntN(o.services)
		status, charge, cost := "success", "0.5000", "0.2000"
		switch r := rng.IntN(100); {
		case r < 6:
			status, charge, cost = "failed", "0.0000", "0.0000"
		case r < 8:
			status, charge, cost = "insufficient_balance", "0.0000", "0.0000"
		}
		if inBatch == 0 {
			sb.WriteString("INSERT INTO api_hit_logs (id, user_id, api_service_id, api_key_id, request_id, " +
				"charge_amount, cost_amount, reserved_amount, ip_address, status, outcome, response_time_ms, created_at, updated_at) VALUES ")
			payloads.WriteString("INSERT INTO hit_payloads (hit_id, month, request_payload, response_payload) VALUES ")
		} else {
			sb.WriteString(",")
			payloads.WriteString(",")
		}
		ts := at.Format(timeLayout)
		fmt.Fprintf(&sb, `(%d, %d, %d, %d, 'req_bench_%09d', '%s', '%s', '%s', '203.0.113.7', '%s', '%s', %d, '%s', '%s')`,
			i+1, userID, svc, userID, i, charge, cost, charge, status, status, 20+rng.IntN(200), ts, ts)
		fmt.Fprintf(&payloads, `(%d, %d, '{"phone":"9876543210","message":"hello"}', '{"message_id":"m%d","status":"queued"}')`,
			i+1, at.Year()*12+int(at.Month())-1, i)
		inBatch++
		if inBatch == batch {
			if err := flush(); err != nil {
				return w, err
			}
		}
		if (i+1)%200_000 == 0 {
			progress.Printf("seeded %d rows", i+1)
		}
	}
	if err := flush(); err != nil {
		return w, err
	}
	if s.Dialect() == sqlstore.DialectMySQL {
		// Fresh statistics, as a long-lived table would have.
		if err := db.Exec("ANALYZE TABLE api_hit_logs, hit_payloads").Error; err != nil {
			return w, err
		}
	}
	return w, nil
}

// signIn opens a panel session for a seeded user (access tokens name their
// session, which must exist) and returns its access token.
func signIn(ctx context.Context, store *sqlstore.Store, tokens *token.JWT, userID uint64, role user.Role) (string, error) {
	now := time.Now()
	sess := &session.Token{UserID: userID, Name: "reportbench", TokenHash: session.Hash(fmt.Sprint("reportbench-", userID, now.UnixNano())),
		ExpiresAt: now.Add(time.Hour).UTC(), CreatedAt: now.UTC()}
	if err := store.Stores().Sessions.Create(ctx, sess); err != nil {
		return "", fmt.Errorf("open a session for user %d: %w", userID, err)
	}
	tok, _, err := tokens.Issue(userID, sess.ID, role, now)
	return tok, err
}

// dayOfRow places row i of the seed: its day (0 = the oldest, days-1 =
// today), its place among that day's rows and how many the day has. Rows
// are spread evenly over the days, the last day taking the remainder; with
// -today-rows, today takes that many and the other days share the rest.
func dayOfRow(o options, i int) (day, within, share int) {
	rows, days := o.rows, o.days
	if o.todayRows > 0 {
		older := rows - o.todayRows
		if i >= older {
			return days - 1, i - older, o.todayRows
		}
		rows, days = older, days-1
	}
	perDay := max(rows/days, 1)
	day = min(i/perDay, days-1)
	share = perDay
	if day == days-1 {
		share = rows - day*perDay
	}
	return day, i - day*perDay, share
}
