package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"text/tabwriter"
	"time"
)

// A/B mode (-ab OTHER_BINARY): two server builds side by side in one run,
// each on a database of its own, loaded in turns of -slice (A, B, A, B, …)
// for -d each in total, so that whatever else runs on the machine weighs
// on both alike. Only one server is loaded at a time, so the database
// server's CPU during a turn is that build's. The report gives each
// build's calls/s, p50/p99 and CPU time per call, and B ÷ A.

type abSide struct {
	name  string
	path  string
	srv   *child
	db    database
	env   []string
	creds credentials
	res   Result
	cpu   cpuSample // summed over the turns (differences)
}

func runAB(ctx context.Context, o options, dbs *dbServer, upURL string, stdout io.Writer, progress *log.Logger) (err error) {
	sides := []*abSide{{name: "A", path: o.server}, {name: "B", path: o.ab}}
	tmp, err := os.MkdirTemp("", "paygate-bench-ab-")
	if err != nil {
		return err
	}
	defer func() {
		if !o.keep {
			os.RemoveAll(tmp)
		}
	}()
	for _, s := range sides {
		if s.db, err = prepareDatabase(ctx, o.db, dbs.admin(), filepath.Join(tmp, s.name)); err != nil {
			return err
		}
		defer func(s *abSide) {
			if o.keep {
				progress.Printf("%s: kept database %s", s.name, s.db.URL)
				return
			}
			if derr := s.db.drop(); derr != nil {
				err = errors.Join(err, fmt.Errorf("drop database: %w", derr))
			}
		}(s)
		password := secret()
		s.env = []string{"DATABASE_URL=" + s.db.URL}
		progress.Printf("%s: starting %s on %s", s.name, s.path, s.db.URL)
		s.srv, err = startServer(ctx, s.path, append(s.env, "ADMIN_EMAIL=bench-admin@example.com", "ADMIN_PASSWORD="+password,
			"UPSTREAM_ALLOW_PRIVATE=true", "DEMO_DATA=false"), filepath.Join(tmp, s.name+"-server.log"))
		if err != nil {
			return err
		}
		defer s.srv.stop()
		if s.creds, err = setupMetered(ctx, s.srv.base, "bench-admin@example.com", password, upURL); err != nil {
			return fmt.Errorf("%s: set up through the panel API: %w", s.name, err)
		}
	}
	dbPID := dbs.pid(o)
	client := newLoadClient(o.conns)
	defer client.CloseIdleConnections()
	load := func(s *abSide, d time.Duration) Result {
		return runLoad(ctx, client, Load{
			Method: http.MethodPost, URL: s.srv.base + "/api/v1/bench-echo", Body: []byte(`{}`), Conns: o.conns, Duration: d,
			Header: http.Header{"Content-Type": {"application/json"}, "X-Api-Key": {s.creds.Key}, "X-Api-Secret": {s.creds.Secret}},
		})
	}
	for _, s := range sides {
		progress.Printf("%s: warming up for %s", s.name, o.warmup)
		if w := load(s, o.warmup); w.Errors+w.Non2xx > 0 {
			return fmt.Errorf("%s: warm-up had %d non-2xx %v and %d errors (first: %s)", s.name, w.Non2xx, w.Statuses, w.Errors, w.FirstError)
		}
	}
	turns := max(1, int(o.duration/o.slice))
	progress.Printf("A/B: %d turns of %s each, %d connections", turns, o.slice, o.conns)
	for i := 0; i < turns && ctx.Err() == nil; i++ {
		order := sides
		if i%2 == 1 { // ABBA…: neither always goes first
			order = []*abSide{sides[1], sides[0]}
		}
		for _, s := range order {
			probe := cpuProbe{serverPID: s.srv.cmd.Process.Pid, dbPID: dbPID}
			before := probe.sample()
			r := load(s, o.slice)
			after := probe.sample()
			s.res.OK += r.OK
			s.res.Non2xx += r.Non2xx
			s.res.Errors += r.Errors
			s.res.Elapsed += r.Elapsed
			s.res.Latencies = append(s.res.Latencies, r.Latencies...)
			s.cpu.self += after.self - before.self
			s.cpu.server += after.server - before.server
			s.cpu.db += after.db - before.db
			s.cpu.busy += after.busy - before.busy
			s.cpu.idle += after.idle - before.idle
			s.cpu.hasServer, s.cpu.hasDB, s.cpu.hasMachine = after.hasServer, after.hasDB, after.hasMachine
		}
	}
	for _, s := range sides {
		slices.Sort(s.res.Latencies)
		if err := s.srv.stop(); err != nil {
			progress.Printf("%s: server stop: %v", s.name, err)
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}

	fmt.Fprintf(stdout, "A/B, %d connections, %d turns of %s per build, GOMAXPROCS of the bench %d\nA = %s\nB = %s\n",
		o.conns, turns, o.slice, runtime.GOMAXPROCS(0), sides[0].path, sides[1].path)
	if dbs != nil {
		fmt.Fprintln(stdout, dbs.info.line())
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "build\tcalls/s\tp50\tp99\tnon-2xx\terrors\tCPU µs/call: bench\tserver\tdatabase\ttotal\tother procs\tmachine idle\t")
	var sum [2]*cpuSummary
	var rate [2]float64
	for i, s := range sides {
		c := cpuPerCall(cpuSample{hasServer: s.cpu.hasServer, hasDB: s.cpu.hasDB, hasMachine: s.cpu.hasMachine}, s.cpu, s.res.OK)
		sum[i], rate[i] = c, s.res.Rate()
		if c == nil {
			c = &cpuSummary{}
		}
		idle := "-"
		if c.MachineIdle != nil {
			idle = fmt.Sprintf("%.0f%%", *c.MachineIdle*100)
		}
		opt := func(v *float64) string {
			if v == nil {
				return "-"
			}
			return fmt.Sprintf("%.1f", *v)
		}
		fmt.Fprintf(tw, "%s\t%.0f\t%.2fms\t%.2fms\t%d\t%d\t%.1f\t%s\t%s\t%.1f\t%s\t%s\t\n", s.name, s.res.Rate(),
			ms(s.res.Percentile(50)), ms(s.res.Percentile(99)), s.res.Non2xx, s.res.Errors,
			c.BenchUsPerCall, opt(c.ServerUsPerCall), opt(c.DBUsPerCall), c.TotalUsPerCall, opt(c.OtherUsPerCall), idle)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rate[0] > 0 && sum[0] != nil && sum[1] != nil {
		fmt.Fprintf(stdout, "\nB ÷ A: calls/s %.3f, server CPU per call %s, database CPU per call %s\n", rate[1]/rate[0],
			ratio(sum[1].ServerUsPerCall, sum[0].ServerUsPerCall), ratio(sum[1].DBUsPerCall, sum[0].DBUsPerCall))
	}
	failed := false
	for _, s := range sides {
		out, ok, err := ledgerCheck(ctx, s.path, s.env)
		if err != nil {
			return fmt.Errorf("%s: ledger check: %w\n%s", s.name, err, out)
		}
		verdict := "OK"
		if !ok {
			verdict, failed = "FAILED", true
		}
		fmt.Fprintf(stdout, "%s ledger check: %s\n%s\n", s.name, verdict, indent(out))
		if s.res.Non2xx+s.res.Errors > 0 {
			failed = true
		}
	}
	if failed {
		return errors.New("A/B: a ledger check failed or a build answered non-2xx or errors")
	}
	return nil
}

func ratio(b, a *float64) string {
	if a == nil || b == nil || *a == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", *b / *a)
}
