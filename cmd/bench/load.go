package main

import (
	"bytes"
	"context"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Load is one measured run: Conns goroutines, each sending the same request
// back to back over keep-alive connections until Duration is up.
type Load struct {
	Method   string
	URL      string
	Header   http.Header
	Body     []byte
	Conns    int
	Duration time.Duration
}

// Result counts a run's answers. Latencies are of 2xx answers only, from
// sending the request to reading the last byte of the body.
type Result struct {
	OK, Non2xx, Errors int
	Statuses           map[int]int // non-2xx answers by status
	FirstError         string
	Elapsed            time.Duration
	Latencies          []time.Duration // sorted
}

// Rate is successful calls per second.
func (r Result) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.OK) / r.Elapsed.Seconds()
}

// Percentile is the nearest-rank p-th percentile (0 < p ≤ 100) of the 2xx
// latencies: the smallest latency that at least p% of them do not exceed.
func (r Result) Percentile(p float64) time.Duration {
	return percentile(r.Latencies, p)
}

func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// newLoadClient returns a client whose pool holds exactly conns keep-alive
// connections, so every worker keeps its own.
func newLoadClient(conns int) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

// runLoad drives l against its URL. A request still in flight when the
// time is up finishes and is counted; ctx cancellation stops the workers.
func runLoad(ctx context.Context, client *http.Client, l Load) Result {
	type tally struct {
		ok, non2xx, errs int
		statuses         map[int]int
		firstErr         string
		lat              []time.Duration
	}
	tallies := make([]tally, l.Conns)
	start := time.Now()
	deadline := start.Add(l.Duration)
	var wg sync.WaitGroup
	for i := range tallies {
		wg.Go(func() {
			t := &tallies[i]
			t.statuses = map[int]int{}
			t.lat = make([]time.Duration, 0, 4096)
			for ctx.Err() == nil && time.Now().Before(deadline) {
				req, err := http.NewRequestWithContext(ctx, l.Method, l.URL, bytes.NewReader(l.Body))
				if err != nil {
					t.errs++
					t.firstErr = err.Error()
					return
				}
				req.Header = l.Header.Clone()
				sent := time.Now()
				resp, err := client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				took := time.Since(sent)
				switch {
				case err != nil:
					t.errs++
					if t.firstErr == "" {
						t.firstErr = err.Error()
					}
				case resp.StatusCode >= 200 && resp.StatusCode < 300:
					t.ok++
					t.lat = append(t.lat, took)
				default:
					t.non2xx++
					t.statuses[resp.StatusCode]++
				}
			}
		})
	}
	wg.Wait()

	r := Result{Elapsed: time.Since(start), Statuses: map[int]int{}}
	for _, t := range tallies {
		r.OK += t.ok
		r.Non2xx += t.non2xx
		r.Errors += t.errs
		if r.FirstError == "" {
			r.FirstError = t.firstErr
		}
		for code, n := range t.statuses {
			r.Statuses[code] += n
		}
		r.Latencies = append(r.Latencies, t.lat...)
	}
	slices.Sort(r.Latencies)
	return r
}
