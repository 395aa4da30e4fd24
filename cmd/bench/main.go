// Command bench measures what metering costs: the same load against a bare
// reverse proxy and against the real server's metered endpoint, both in
// front of the same loopback upstream, then checks the server's ledger.
//
//	go run ./cmd/bench [-c 64] [-d 10s] [-db mysql|sqlite|URL] [-mysql private|URL] [-json] [-only-bare]
//	go run ./cmd/bench -ab OTHER_SERVER [-slice 1s] …   (two builds side by side, see ab.go)
//
// On MariaDB the run starts a mariadbd of its own by default (-mysql
// private, settings in mariadb.go), stopped when the run ends.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"paygate/internal/childproc"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) == 3 && os.Args[1] == serveProxyFlag {
		if err := serveProxyMain(os.Args[2], os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "bench proxy:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	server   string
	db       string
	mysql    string
	keep     bool
	conns    int
	duration time.Duration
	warmup   time.Duration
	json     bool
	onlyBare bool
	dbPID    int
	ab       string
	slice    time.Duration
	bare     string // which bare proxies to measure: both, inside, process
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.server, "server", "./bin/server", "server binary to run")
	fs.StringVar(&o.db, "db", "mysql", `database: "mysql" (a fresh bench_<time> database on -mysql), "sqlite" (a fresh file) or a DATABASE_URL used as is`)
	fs.StringVar(&o.mysql, "mysql", privateMySQL, `MariaDB/MySQL server where -db mysql creates its databases: "private" (a mariadbd of the run's own, on a temporary folder, stopped at the end) or a mysql:// URL of an existing server`)
	fs.BoolVar(&o.keep, "keep", false, "keep the database and the server log (-mysql private: the stopped mariadbd's folder)")
	fs.IntVar(&o.conns, "c", 64, "concurrent connections (one goroutine each)")
	fs.DurationVar(&o.duration, "d", 10*time.Second, "measured duration per target")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured warm-up per target")
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	fs.BoolVar(&o.onlyBare, "only-bare", false, "measure the bare proxy only (no server, no database)")
	fs.IntVar(&o.dbPID, "db-pid", -1, "process id of the database server whose CPU time per call is reported; -1: with -db mysql the private mariadbd, or the local process on the -mysql port; 0: none")
	fs.StringVar(&o.ab, "ab", "", "A/B mode: a second server binary (B) loaded in turns with -server (A), each on its own database; no bare proxy")
	fs.DurationVar(&o.slice, "slice", time.Second, "A/B mode: length of one turn")
	fs.StringVar(&o.bare, "bare", "both", `bare proxies measured: "process" (a process of its own, like the server: the goal's baseline), "inside" (inside the bench process) or "both"`)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.ab != "" && (o.slice <= 0 || o.onlyBare || o.json) {
		return o, errors.New("-ab needs a positive -slice and goes without -only-bare and -json")
	}
	if o.bare != "both" && o.bare != "inside" && o.bare != "process" {
		return o, fmt.Errorf("-bare %q: want both, inside or process", o.bare)
	}
	if o.mysql != privateMySQL {
		if _, err := parseServerURL(o.mysql); err != nil {
			return o, err
		}
	}
	if o.conns < 1 || o.duration <= 0 || o.warmup < 0 {
		return o, errors.New("-c must be at least 1, -d positive, -warmup not negative")
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	progress := log.New(stderr, "bench: ", 0)
	rep := &report{Connections: o.conns, DurationS: o.duration.Seconds(), WarmupS: o.warmup.Seconds(), GOMAXPROCS: runtime.GOMAXPROCS(0)}

	dbs, err := openDBServer(ctx, o, progress)
	if err != nil {
		return err
	}
	defer dbs.close(o.keep, progress) // also on errors and Ctrl-C
	if dbs != nil {
		rep.Database = dbs.info
	}
	up, upURL, err := startUpstream()
	if err != nil {
		return fmt.Errorf("start upstream: %w", err)
	}
	defer up.Close()
	if o.ab != "" {
		return runAB(ctx, o, dbs, upURL, stdout, progress)
	}
	var proxyURL, proxyProcURL string
	var proxyProbe cpuProbe
	if o.bare != "inside" {
		p, err := startProxyProcess(ctx, upURL)
		if err != nil {
			return fmt.Errorf("start proxy process: %w", err)
		}
		defer p.stop()
		proxyProcURL, proxyProbe = p.base, cpuProbe{serverPID: p.pid()}
	}
	if o.bare != "process" {
		proxy, base, err := startProxy(upURL, progress)
		if err != nil {
			return fmt.Errorf("start proxy: %w", err)
		}
		defer proxy.Close()
		proxyURL = base
	}

	var (
		srv       *child
		creds     = credentials{Key: "rk_live_bench", Secret: "rs_bench"} // sent to the bare proxy too, so both requests weigh the same
		custCreds credentials                                             // a reseller's customer's key (resale.go)
		env       []string
		dbURL     string // the server's database, read by countCharges
	)
	if !o.onlyBare {
		tmp, err := os.MkdirTemp("", "paygate-bench-")
		if err != nil {
			return err
		}
		defer func() {
			if !o.keep {
				os.RemoveAll(tmp)
			}
		}()
		db, err := prepareDatabase(ctx, o.db, dbs.admin(), tmp)
		if err != nil {
			return err
		}
		defer func() {
			if o.keep {
				progress.Printf("kept database %s and server log %s", db.URL, filepath.Join(tmp, "server.log"))
				return
			}
			if derr := db.drop(); derr != nil {
				err = errors.Join(err, fmt.Errorf("drop database: %w", derr))
			}
		}()
		adminPassword := secret()
		metricsToken = secret()
		dbURL, env = db.URL, []string{"DATABASE_URL=" + db.URL}
		progress.Printf("starting %s on %s", o.server, db.URL)
		srv, err = startServer(ctx, o.server, append(env,
			"ADMIN_EMAIL=bench-admin@example.com", "ADMIN_PASSWORD="+adminPassword,
			"UPSTREAM_ALLOW_PRIVATE=true", "DEMO_DATA=false", "METRICS_TOKEN="+metricsToken,
		), filepath.Join(tmp, "server.log"))
		if err != nil {
			return err
		}
		defer srv.stop()
		if creds, err = setupMetered(ctx, srv.base, "bench-admin@example.com", adminPassword, upURL); err != nil {
			return fmt.Errorf("set up through the panel API: %w\nserver log (last lines):\n%s", err, childproc.LogTail(srv.logPath, 20))
		}
		if custCreds, err = setupCustomer(ctx, srv.base, "bench-admin@example.com", adminPassword, dbURL); err != nil {
			return fmt.Errorf("set up a reseller's customer: %w\nserver log (last lines):\n%s", err, childproc.LogTail(srv.logPath, 20))
		}
	}

	if proxyURL != "" {
		bare, _, bareCPU := measure(ctx, o, "bare proxy inside the bench", proxyURL+"/echo", creds, cpuProbe{}, progress)
		rep.Bare = summarize(bare)
		rep.Bare.CPU = bareCPU
	}
	if proxyProcURL != "" {
		bare, _, bareCPU := measure(ctx, o, "bare proxy process", proxyProcURL+"/echo", creds, proxyProbe, progress)
		rep.BareProcess = summarize(bare)
		rep.BareProcess.CPU = bareCPU
	}
	var metered, warmup, customer, custWarmup Result
	if srv != nil {
		probe := cpuProbe{serverPID: srv.cmd.Process.Pid, dbPID: dbs.pid(o)}
		var meteredCPU *cpuSummary
		metered, warmup, meteredCPU = measure(ctx, o, "metered", srv.base+"/api/v1/bench-echo", creds, probe, progress)
		rep.Metered = summarize(metered)
		rep.Metered.CPU = meteredCPU
		var custCPU *cpuSummary
		customer, custWarmup, custCPU = measure(ctx, o, "metered, a reseller's customer", srv.base+"/api/v1/bench-echo", custCreds, probe, progress)
		rep.Customer = summarize(customer)
		rep.Customer.CPU = custCPU
		rep.compare()
		if retries, aborts, err := conflicts(ctx, srv.base, metricsToken); err != nil {
			progress.Printf("conflicts: %v", err)
		} else {
			progress.Printf("conflicts (a Galera cluster's certification failures, deadlocks, lock waits): %d metering batches rerun, %d transactions aborted (503), for %d calls answered",
				retries, aborts, warmup.OK+metered.OK)
		}

		// Stop the server first, so every call is settled before the check.
		if err := srv.stop(); err != nil {
			progress.Printf("server stop: %v", err)
		}
		out, ok, err := ledgerCheck(ctx, o.server, env)
		if err != nil {
			return fmt.Errorf("ledger check: %w\n%s", err, out)
		}
		rep.Ledger = &ledgerResult{OK: ok, Output: out}
		if rep.Charges, err = countCharges(ctx, dbURL, warmup, metered); err != nil {
			return fmt.Errorf("count charges: %w", err)
		}
		if rep.CustomerCharges, err = countResale(ctx, dbURL, custWarmup, customer); err != nil {
			return fmt.Errorf("count the customer's charges: %w", err)
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}

	if o.json {
		err = rep.writeJSON(stdout)
	} else {
		err = rep.writeTable(stdout)
	}
	if err != nil {
		return err
	}
	switch {
	case rep.Ledger != nil && !rep.Ledger.OK:
		return errors.New("ledger check failed")
	case rep.Charges != nil && rep.Charges.Problem != "":
		return errors.New(rep.Charges.Problem)
	case rep.CustomerCharges != nil && rep.CustomerCharges.Problem != "":
		return errors.New("reseller's customer: " + rep.CustomerCharges.Problem)
	case srv != nil && customer.Non2xx+customer.Errors > 0:
		return fmt.Errorf("customer run had %d non-2xx answers and %d errors", customer.Non2xx, customer.Errors)
	case srv != nil && metered.Non2xx+metered.Errors > 0:
		return fmt.Errorf("metered run had %d non-2xx answers and %d errors", metered.Non2xx, metered.Errors)
	case srv != nil && warmup.Non2xx+warmup.Errors > 0:
		return fmt.Errorf("metered warm-up had %d failed calls", warmup.Non2xx+warmup.Errors)
	}
	return nil
}

// measure warms up, then runs the measured load against url, and samples
// the CPU time of probe's processes around the measured part. Both targets
// get the same request: POST {} with the API key headers.
func measure(ctx context.Context, o options, name, url string, creds credentials, probe cpuProbe, progress *log.Logger) (r, warmup Result, cpu *cpuSummary) {
	l := Load{
		Method: http.MethodPost, URL: url, Body: []byte(`{}`), Conns: o.conns,
		Header: http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {creds.Key}, "X-Api-Secret": {creds.Secret}},
	}
	client := newLoadClient(o.conns)
	defer client.CloseIdleConnections()
	if o.warmup > 0 {
		progress.Printf("%s: warming up for %s", name, o.warmup)
		l.Duration = o.warmup
		if warmup = runLoad(ctx, client, l); warmup.Errors+warmup.Non2xx > 0 {
			progress.Printf("%s: warm-up had %d non-2xx %v and %d errors (first: %s)", name, warmup.Non2xx, warmup.Statuses, warmup.Errors, warmup.FirstError)
		}
	}
	progress.Printf("%s: %d connections for %s", name, o.conns, o.duration)
	l.Duration = o.duration
	before := probe.sample()
	r = runLoad(ctx, client, l)
	return r, warmup, cpuPerCall(before, probe.sample(), r.OK)
}
