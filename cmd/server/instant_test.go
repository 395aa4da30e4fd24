package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/billing/plan"
)

// TestFutureProblem: an instant later than the clock needs --allow-future,
// which production refuses outright.
func TestFutureProblem(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		name              string
		at                time.Time
		allow, production bool
		want              string
	}{
		{"now", now, false, false, ""},
		{"the past", now.Add(-24 * time.Hour), false, false, ""},
		{"the past in production", now.Add(-time.Hour), false, true, ""},
		{"a second ahead", now.Add(time.Second), false, false, "later than the clock"},
		{"next month", now.AddDate(0, 1, 0), false, true, "later than the clock"},
		{"the future allowed", now.AddDate(0, 1, 0), true, false, ""},
		{"allowed in production", now.AddDate(0, 1, 0), true, true, "refused when APP_ENV=production"},
		{"allowed in production, in the past", now.Add(-time.Hour), true, true, "refused when APP_ENV=production"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := futureProblem(c.at, now, c.allow, c.production)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Fatalf("futureProblem = %q, want %q", got, c.want)
			}
		})
	}
}

// wantRefused fails unless err is exit status 2 with one line saying why.
func wantRefused(t *testing.T, err error, why string) {
	t.Helper()
	var code exitCode
	if !errors.As(err, &code) || code != 2 || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), why) {
		t.Fatalf("got %v, want exit status 2 with one line saying %q", err, why)
	}
}

// TestCommandsRefuseAFutureInstant: `invoices issue`, `billing run` and
// `commissions settle` refuse an --at later than the clock (exit 2, one
// line, nothing done: this month's charge is not invoiced and the month
// stays open) unless --allow-future is given; production refuses
// --allow-future. Without --at they act at the clock.
func TestCommandsRefuseAFutureInstant(t *testing.T) {
	eachBillingDB(t, func(t *testing.T, url string) {
		f := newInvoiceFixture(t, url)
		ctx := context.Background()
		id := f.user("early@example.com", user.PlanStarter, "100.00")
		f.charge(id, "11.80", time.Now())
		month := plan.Month(time.Now(), kolkata)
		_, end, _ := plan.Bounds(month, kolkata)
		future := end.Add(5 * time.Minute).Format(time.RFC3339)
		runIt := func(args ...string) (string, error) {
			out := &syncBuffer{}
			err := run(ctx, args, f.env, out)
			return out.String(), err
		}

		for _, args := range [][]string{
			{"invoices", "issue", "--month", month, "--at", future},
			{"invoices", "issue", "--at=" + future},
			{"billing", "run", "--at", future},
			{"commissions", "settle", "--at=" + future},
		} {
			out, err := runIt(args...)
			wantRefused(t, err, "later than the clock")
			if strings.Contains(out, args[0]+" "+args[1]+" ") {
				t.Fatalf("%v ran: %s", args, out)
			}
		}
		if rows := f.issued(); len(rows) != 0 {
			t.Fatalf("a refused run issued %+v", rows)
		}
		if done, err := f.store.Stores().Invoices.MonthDone(ctx, month); err != nil || done {
			t.Fatalf("a refused run finished %s: %v %v", month, done, err)
		}

		// --allow-future (a test's, outside production) lets them run.
		if out, err := runIt("invoices", "issue", "--month", month, "--at", future, "--allow-future"); err != nil ||
			!strings.Contains(out, "invoices issue "+month+" at "+future+": 1 invoices") {
			t.Fatalf("with --allow-future: %v\n%s", err, out)
		}
		if out, err := runIt("billing", "run", "--allow-future", "--at", future); err != nil || !strings.Contains(out, "billing run at "+future) {
			t.Fatalf("billing run with --allow-future: %v\n%s", err, out)
		}
		if out, err := runIt("commissions", "settle", "--at", future, "--allow-future"); err != nil || !strings.Contains(out, "commissions settle before "+future) {
			t.Fatalf("commissions settle with --allow-future: %v\n%s", err, out)
		}
		// No --at: the clock.
		for _, args := range [][]string{{"billing", "run"}, {"commissions", "settle"}} {
			if out, err := runIt(args...); err != nil || !strings.Contains(out, args[0]+" "+args[1]) {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
		}
	})
}

// TestProductionRefusesAllowFuture: under APP_ENV=production each command
// refuses --allow-future, whatever the instant (exit 2, one line), and
// still runs at a past instant without it.
func TestProductionRefusesAllowFuture(t *testing.T) {
	env := productionEnv(t, "127.0.0.1:2525")
	getenv := func(k string) string { return env[k] }
	past := time.Now().Add(-time.Hour).Format(time.RFC3339)
	future := time.Now().AddDate(0, 1, 0).Format(time.RFC3339)
	for _, cmd := range [][]string{{"invoices", "issue"}, {"billing", "run"}, {"commissions", "settle"}} {
		for _, at := range []string{past, future} {
			err := run(context.Background(), append(cmd, "--at", at, "--allow-future"), getenv, &syncBuffer{})
			wantRefused(t, err, "--allow-future is refused when APP_ENV=production")
		}
		wantRefused(t, run(context.Background(), append(cmd, "--at", future), getenv, &syncBuffer{}), "later than the clock")
		if out := (&syncBuffer{}); run(context.Background(), append(cmd, "--at", past), getenv, out) != nil {
			t.Fatalf("%v --at %s in production: %s", cmd, past, out.String())
		}
	}
}
