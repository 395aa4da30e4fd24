package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// report is what a bench run prints, as a table or as JSON.
type report struct {
	Connections int     `json:"connections"`
	DurationS   float64 `json:"duration_seconds"`
	WarmupS     float64 `json:"warmup_seconds"`
	GOMAXPROCS  int     `json:"gomaxprocs"`
	// Database is the MariaDB/MySQL server of -db mysql: version and
	// settings, and for the private one its flags and start-up time.
	Database *databaseInfo `json:"database,omitempty"`
	// Bare is the bare reverse proxy inside the bench process (goroutine
	// switches in one Go runtime); BareProcess the same proxy as a process
	// of its own, like the server: the goal's baseline.
	Bare        *runSummary `json:"bare,omitempty"`
	BareProcess *runSummary `json:"bare_process,omitempty"`
	Metered     *runSummary `json:"metered,omitempty"`
	// Metered ÷ bare: calls/s (below 1 is slower) and p99 (above 1 is
	// slower), against each bare run measured.
	ThroughputRatio        *float64      `json:"throughput_ratio,omitempty"`
	P99Ratio               *float64      `json:"p99_ratio,omitempty"`
	ThroughputRatioProcess *float64      `json:"throughput_ratio_process,omitempty"`
	P99RatioProcess        *float64      `json:"p99_ratio_process,omitempty"`
	Ledger                 *ledgerResult `json:"ledger_check,omitempty"`
	Charges                *chargeCount  `json:"charges,omitempty"`
	// Customer is the metered run of a reseller's customer (resale.go),
	// against the same service; its ratios are to the ordinary caller's
	// metered run and to the bare proxy process.
	Customer                    *runSummary  `json:"customer,omitempty"`
	CustomerThroughputRatio     *float64     `json:"customer_throughput_ratio,omitempty"`
	CustomerP99Ratio            *float64     `json:"customer_p99_ratio,omitempty"`
	CustomerThroughputRatioBare *float64     `json:"customer_throughput_ratio_process,omitempty"`
	CustomerP99RatioBare        *float64     `json:"customer_p99_ratio_process,omitempty"`
	CustomerCharges             *chargeCount `json:"customer_charges,omitempty"`
}

type runSummary struct {
	CallsPerSec float64        `json:"calls_per_sec"`
	P50Ms       float64        `json:"p50_ms"`
	P99Ms       float64        `json:"p99_ms"`
	OK          int            `json:"ok"`
	Non2xx      int            `json:"non_2xx"`
	Errors      int            `json:"errors"`
	Statuses    map[string]int `json:"non_2xx_by_status,omitempty"`
	FirstError  string         `json:"first_error,omitempty"`
	CPU         *cpuSummary    `json:"cpu,omitempty"`
}

type ledgerResult struct {
	OK     bool   `json:"ok"`
	Output string `json:"output"`
}

func summarize(r Result) *runSummary {
	s := &runSummary{
		CallsPerSec: r.Rate(), P50Ms: ms(r.Percentile(50)), P99Ms: ms(r.Percentile(99)),
		OK: r.OK, Non2xx: r.Non2xx, Errors: r.Errors, FirstError: r.FirstError,
	}
	for code, n := range r.Statuses {
		if s.Statuses == nil {
			s.Statuses = map[string]int{}
		}
		s.Statuses[strconv.Itoa(code)] = n
	}
	return s
}

func (r *report) compare() {
	r.ThroughputRatio, r.P99Ratio = ratios(r.Bare, r.Metered)
	r.ThroughputRatioProcess, r.P99RatioProcess = ratios(r.BareProcess, r.Metered)
	r.CustomerThroughputRatio, r.CustomerP99Ratio = ratios(r.Metered, r.Customer)
	r.CustomerThroughputRatioBare, r.CustomerP99RatioBare = ratios(r.BareProcess, r.Customer)
}

func ratios(bare, metered *runSummary) (throughput, p99 *float64) {
	if bare == nil || metered == nil || bare.CallsPerSec == 0 || bare.P99Ms == 0 {
		return nil, nil
	}
	tr := metered.CallsPerSec / bare.CallsPerSec
	pr := metered.P99Ms / bare.P99Ms
	return &tr, &pr
}

// rows are the report's runs in print order.
func (r *report) rows() []reportRow {
	return []reportRow{{"bare proxy, inside the bench", r.Bare}, {"bare proxy, own process", r.BareProcess}, {"metered", r.Metered},
		{"metered, reseller's customer", r.Customer}}
}

type reportRow struct {
	name string
	s    *runSummary
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (r *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *report) writeTable(w io.Writer) error {
	fmt.Fprintf(w, "%d connections, %s per target after a %s warm-up, all on loopback, GOMAXPROCS %d\n",
		r.Connections, seconds(r.DurationS), seconds(r.WarmupS), r.GOMAXPROCS)
	if r.Database != nil {
		fmt.Fprintln(w, r.Database.line())
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\tcalls/s\tp50\tp99\tok\tnon-2xx\terrors\t")
	for _, row := range r.rows() {
		if row.s != nil {
			fmt.Fprintf(tw, "%s\t%.0f\t%.2fms\t%.2fms\t%d\t%d\t%d\t\n",
				row.name, row.s.CallsPerSec, row.s.P50Ms, row.s.P99Ms, row.s.OK, row.s.Non2xx, row.s.Errors)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, row := range r.rows() {
		if row.s != nil && (row.s.Non2xx > 0 || row.s.Errors > 0) {
			fmt.Fprintf(w, "%s: non-2xx by status %v; first error: %s\n", row.name, row.s.Statuses, row.s.FirstError)
		}
	}
	if err := r.writeCPU(w); err != nil {
		return err
	}
	if r.ThroughputRatioProcess != nil {
		fmt.Fprintf(w, "\nmetered ÷ bare proxy process (the goal): throughput %.3f, p99 %.2f\n", *r.ThroughputRatioProcess, *r.P99RatioProcess)
	}
	if r.ThroughputRatio != nil {
		fmt.Fprintf(w, "metered ÷ bare proxy inside the bench: throughput %.3f, p99 %.2f\n", *r.ThroughputRatio, *r.P99Ratio)
	}
	if r.CustomerThroughputRatio != nil {
		fmt.Fprintf(w, "reseller's customer ÷ ordinary caller (metered): throughput %.3f, p99 %.2f\n", *r.CustomerThroughputRatio, *r.CustomerP99Ratio)
	}
	if r.CustomerThroughputRatioBare != nil {
		fmt.Fprintf(w, "reseller's customer ÷ bare proxy process: throughput %.3f, p99 %.2f\n", *r.CustomerThroughputRatioBare, *r.CustomerP99RatioBare)
	}
	if r.Ledger != nil {
		verdict := "OK"
		if !r.Ledger.OK {
			verdict = "FAILED"
		}
		fmt.Fprintf(w, "\nledger check: %s\n%s\n", verdict, indent(r.Ledger.Output))
	}
	if c := r.Charges; c != nil {
		verdict := "every answered call charged once"
		if c.Problem != "" {
			verdict = "FAILED: " + c.Problem
		}
		fmt.Fprintf(w, "charges: %d answered (%d unanswered), %d charged, %s taken: %s\n", c.Answered, c.Unreceived, c.Charged, c.Money, verdict)
	}
	if c := r.CustomerCharges; c != nil {
		verdict := "every answered call charged once at the selling price, with its commission; the reseller untouched"
		if c.Problem != "" {
			verdict = "FAILED: " + c.Problem
		}
		fmt.Fprintf(w, "reseller's customer: %d answered (%d unanswered), %d charged, %s taken: %s\n", c.Answered, c.Unreceived, c.Charged, c.Money, verdict)
	}
	return nil
}

func seconds(s float64) string { return (time.Duration(s * float64(time.Second))).String() }

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "  (no output)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// writeCPU prints the CPU time per call of each process: a measure that
// other load on the machine moves much less than calls/s.
func (r *report) writeCPU(w io.Writer) error {
	fmt.Fprintln(w, "\nCPU time per call (µs; bench = load generator + upstream, + the proxy when inside the bench; server = the proxy process or the metered server):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\tbench\tserver\tdatabase\ttotal\tother procs\tmachine idle\t")
	opt := func(v *float64, f string) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf(f, *v)
	}
	for _, row := range r.rows() {
		if row.s == nil || row.s.CPU == nil {
			continue
		}
		c := row.s.CPU
		idle := "-"
		if c.MachineIdle != nil {
			idle = fmt.Sprintf("%.0f%%", *c.MachineIdle*100)
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%s\t%s\t%.1f\t%s\t%s\t\n", row.name, c.BenchUsPerCall,
			opt(c.ServerUsPerCall, "%.1f"), opt(c.DBUsPerCall, "%.1f"), c.TotalUsPerCall, opt(c.OtherUsPerCall, "%.1f"), idle)
	}
	return tw.Flush()
}
