//go:build galera

package faulttest

// The product on a three-node MariaDB Galera cluster (make test-ha:
// scripts/galera.sh starts the cluster and HAProxy, then runs these with
// -tags galera). Built only with the tag; with it, a cluster that is not
// there is a failure, never a skip.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/internal/dburl"
)

// galeraNodes is GALERA_DSNS: the three nodes' server URLs (no database).
func galeraNodes(t *testing.T) []string {
	t.Helper()
	v := os.Getenv("GALERA_DSNS")
	if v == "" {
		t.Fatal("GALERA_DSNS is not set: run make test-ha (scripts/galera.sh start, then scripts/galera.sh env)")
	}
	nodes := strings.Split(v, ",")
	if len(nodes) != 3 {
		t.Fatalf("GALERA_DSNS names %d nodes, want 3", len(nodes))
	}
	return nodes
}

// galeraDB creates a database of the test's own on the cluster and
// returns its URL on each node and through the proxy, each session with
// wsrep_sync_wait=1 (a read sees every write committed before it, on any
// node: decisions, "Galera").
func galeraDB(t *testing.T) (nodes []string, proxy string) {
	t.Helper()
	servers := galeraNodes(t)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "paygate_ha_" + hex.EncodeToString(b)
	execOn(t, servers[0], "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci")
	t.Cleanup(func() {
		if os.Getenv("GALERA_KEEP_DB") != "" {
			t.Logf("database %s kept", name)
			return
		}
		if db, err := dburl.OpenServer(servers[0]); err == nil {
			_, _ = db.Exec("DROP DATABASE IF EXISTS " + name)
			db.Close()
		}
	})
	// The CREATE DATABASE ran in total order on every node, but another
	// node may not have applied it yet when node 1 answered.
	for _, srv := range servers {
		db, err := dburl.OpenServer(srv)
		if err != nil {
			t.Fatal(err)
		}
		if !waitFor(10*time.Second, func() bool {
			var n int
			return db.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", name).Scan(&n) == nil && n == 1
		}) {
			t.Fatalf("database %s not on %s after 10 s", name, dburl.Redact(srv))
		}
		db.Close()
	}
	for _, s := range servers {
		nodes = append(nodes, s+name+"?wsrep_sync_wait=1")
	}
	if p := os.Getenv("GALERA_PROXY_DSN"); p != "" {
		proxy = p + name + "?wsrep_sync_wait=1"
	}
	return nodes, proxy
}

// galeraScript runs scripts/galera.sh with args.
func galeraScript(t *testing.T, args ...string) {
	t.Helper()
	script, _ := filepath.Abs("../../scripts/galera.sh")
	out, err := exec.Command("bash", append([]string{script}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("galera.sh %v: %v\n%s", args, err, out)
	}
}

// TestGaleraMigrationsOnceFromEveryNode: three stores, one on each node,
// migrate one database at the same moment; the lock row lets one apply
// the migrations and the others find them applied: every version is
// recorded once, and the lock row is gone.
func TestGaleraMigrationsOnceFromEveryNode(t *testing.T) {
	nodes, _ := galeraDB(t)
	var stores []*sqlstore.Store
	for _, u := range nodes {
		s := openStore(t, u)
		if !s.Galera() {
			t.Fatalf("%s: not detected as a Galera node", dburl.Redact(u))
		}
		stores = append(stores, s)
	}
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i, s := range stores {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = s.Migrate(context.Background()) }()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i+1, err)
		}
	}
	var dup, locks int64
	stores[2].DB().Raw("SELECT COUNT(*) FROM (SELECT version_id FROM goose_db_version GROUP BY version_id HAVING COUNT(*) > 1) d").Scan(&dup)
	stores[1].DB().Raw("SELECT COUNT(*) FROM paygate_migration_lock").Scan(&locks)
	if dup != 0 || locks != 0 {
		t.Fatalf("%d versions recorded twice, %d lock rows left", dup, locks)
	}
}

// concurrentReceiver answers webhooks and records any event whose
// delivery arrived while another delivery of it was still in flight.
type concurrentReceiver struct {
	url       string
	mu        sync.Mutex
	inFlight  map[string]int
	delivered map[string]int
	overlaps  []string
}

func newConcurrentReceiver(t *testing.T) *concurrentReceiver {
	r := &concurrentReceiver{inFlight: map[string]int{}, delivered: map[string]int{}}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		id := req.Header.Get("webhook-id")
		r.mu.Lock()
		if r.inFlight[id] > 0 {
			r.overlaps = append(r.overlaps, id)
		}
		r.inFlight[id]++
		r.mu.Unlock()
		time.Sleep(20 * time.Millisecond) // long enough for a second claim to overlap
		r.mu.Lock()
		r.inFlight[id]--
		r.delivered[id]++
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	r.url = "http://" + ln.Addr().String() + "/hooks"
	return r
}

// failingUpstream answers every call 500: the metered call fails and its
// hold's money comes back.
func failingUpstream(t *testing.T) string {
	t.Helper()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond)
		http.Error(w, `{"error":"boom"}`, http.StatusInternalServerError)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/fail"
}

// customerOn creates an active enterprise user funded with balance, its
// key of dailyLimit and its panel session.
func customerOn(admin *api, balance string, dailyLimit int) (uint64, key, *api) {
	userSeq++
	email := fmt.Sprintf("ha%d@example.com", userSeq)
	u := admin.do("POST", "/api/v1/panel/users", map[string]any{"name": "C", "email": email, "phone": fmt.Sprintf("96%08d", userSeq),
		"password": "customer-password-1", "role": "user", "status": "active", "plan": "enterprise"}, 201)
	id := uint64(u["id"].(float64))
	admin.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", id), map[string]any{
		"type": "credit", "amount": balance, "description": "funding"}, 201)
	c := login(admin.t, admin.base, email, "customer-password-1")
	k := c.do("POST", "/api/v1/panel/api-keys", map[string]any{"name": "k", "daily_limit": dailyLimit}, 201)
	return id, key{k["key"].(string), k["secret"].(string)}, c
}

// stopServer sends SIGTERM and waits: the instance drains and releases
// its holds.
func stopServer(t *testing.T, p *proc) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(40 * time.Second):
		t.Fatalf("server did not stop after SIGTERM\n%s", p.logs())
	}
}

// conflicts reads paygate_db_conflict_retries_total and
// paygate_db_conflict_aborts_total from an instance's /metrics.
func conflicts(t *testing.T, p *proc) (retries, aborts int64) {
	t.Helper()
	req, _ := http.NewRequest("GET", p.base+"/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+metricsToken)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 64<<10)
	for {
		n, err := res.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			break
		}
	}
	found := 0
	for _, line := range strings.Split(sb.String(), "\n") {
		for name, into := range map[string]*int64{"paygate_db_conflict_retries_total ": &retries, "paygate_db_conflict_aborts_total ": &aborts} {
			if v, ok := strings.CutPrefix(line, name); ok {
				var n float64
				fmt.Sscan(v, &n)
				*into = int64(n)
				found++
			}
		}
	}
	if found != 2 {
		t.Fatalf("no paygate_db_conflict_retries_total and paygate_db_conflict_aborts_total in /metrics")
	}
	return retries, aborts
}

const metricsToken = "metrics-token-for-the-ha-tests-0123456789"

func galeraEnv(t *testing.T, databaseURL string) []string {
	return append(baseEnv(t, databaseURL), "METRICS_TOKEN="+metricsToken, "WEBHOOK_TIMEOUT=2s", "WEBHOOK_POLL_INTERVAL=200ms")
}

// TestGaleraWritesThroughEveryNode: three instances, each on its own
// node, take metered calls, failing calls and payouts of the same users
// at once. Row locks do not span nodes: the cluster's certification
// aborts the loser of each conflict and the store runs it again. The
// daily limit and the balances come out exact, no balance is overdrawn,
// every call answered 200 is charged once, no webhook event is sent
// twice at the same time, and the ledger check is clean on every node.
func TestGaleraWritesThroughEveryNode(t *testing.T) {
	nodes, _ := galeraDB(t)
	var servers []*proc
	for _, u := range nodes {
		servers = append(servers, startServer(t, galeraEnv(t, u)))
	}
	admin := login(t, servers[0].base, adminEmail, adminPassword)
	setupService(admin, "echo", slowUpstream(t, 10*time.Millisecond), "1.00")
	setupService(admin, "flaky", failingUpstream(t), "1.00")
	limitedID, limited, _ := customerOn(admin, "10000.00", 300)
	poorID, poor, _ := customerOn(admin, "50.00", 1_000_000)
	payerID, payer, payerPanel := customerOn(admin, "2000.00", 1_000_000)
	rcv := newConcurrentReceiver(t)
	payerPanel.do("PATCH", "/api/v1/panel/auth/me", map[string]any{"webhook_url": rcv.url}, 200)

	type job struct {
		name string
		run  func(base string) string
	}
	var jobs []job
	// A client sends a call answered 503 again (the contract: retryable,
	// nothing charged), as a payout with its reference_id: a transaction
	// the cluster aborted in certification answers 503.
	var resent atomic.Int64
	metered := func(name string, k key, slug string) job {
		return job{name, func(base string) string {
			r := call(base, k, slug)
			for try := 0; r.status == 503 && try < 10; try++ {
				resent.Add(1)
				time.Sleep(time.Duration(5+try*10) * time.Millisecond)
				r = call(base, k, slug)
			}
			return fmt.Sprintf("%d %s", r.status, r.code)
		}}
	}
	for i := range 900 {
		switch {
		case i%6 == 5: // 150
			jobs = append(jobs, metered("poor", poor, "echo"))
		case i%6 == 4: // 150: payer's calls, half failing upstream (not charged)
			slug := "echo"
			if i%12 == 4 {
				slug = "flaky"
			}
			jobs = append(jobs, metered("payer "+slug, payer, slug))
		case i%6 == 3 && i%4 == 3: // payouts of 100.00 (mock bank: succeeds)
			ref := fmt.Sprintf("ha-%d", i)
			jobs = append(jobs, job{"payout", func(base string) string {
				st := transfer(base, payer, ref, "123456781234", "100.00")
				for try := 0; st == 503 && try < 10; try++ {
					resent.Add(1)
					time.Sleep(time.Duration(5+try*10) * time.Millisecond)
					st = transfer(base, payer, ref, "123456781234", "100.00")
				}
				return fmt.Sprint(st)
			}})
		default:
			jobs = append(jobs, metered("limited", limited, "echo"))
		}
	}
	var mu sync.Mutex
	counts := map[string]int{}
	next := make(chan int)
	var wg sync.WaitGroup
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out := jobs[i].run(servers[i%3].base)
				mu.Lock()
				counts[jobs[i].name+" "+out]++
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	t.Logf("answers: %v", counts)

	limitedCalls := 0
	for _, j := range jobs {
		if j.name == "limited" {
			limitedCalls++
		}
	}
	// A hold's release that lost a conflict (503) is redone by recovery
	// once the hold expires: until then its unused calls stay counted and
	// a call may be refused 429 early. The limit is never passed, and once
	// the holds are released the key serves exactly its 300.
	if counts["limited 200 "] > 300 || counts["limited 200 "]+counts["limited 429 daily_limit_exceeded"] != limitedCalls {
		t.Errorf("limited key (daily limit 300, %d calls): %d answered 200, %d 429", limitedCalls, counts["limited 200 "], counts["limited 429 daily_limit_exceeded"])
	}
	if counts["poor 200 "] != 50 || counts["poor 402 insufficient_balance"] != 100 {
		t.Errorf("poor user (50.00 at 1.00): %d answered 200, %d 402", counts["poor 200 "], counts["poor 402 insufficient_balance"])
	}
	for k, n := range counts {
		if k == "payer flaky 500 upstream_error" {
			continue // the upstream's own failure, not charged
		}
		if strings.Contains(k, " 500") || strings.Contains(k, " 503") || strings.HasSuffix(k, " 0") {
			t.Errorf("%d answers %q", n, k)
		}
	}

	s := openStore(t, nodes[1])
	if !waitFor(30*time.Second, func() bool {
		var open int64
		s.DB().Raw("SELECT COUNT(*) FROM payouts WHERE status IN ('pending', 'processing')").Scan(&open)
		var due int64
		s.DB().Raw("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'").Scan(&due)
		return open == 0 && due == 0 && countHits(t, s)["pending"] == 0
	}) {
		t.Fatalf("payouts, hits or webhooks still open after 30 s: hits %v", countHits(t, s))
	}
	var limitedKey uint64
	s.DB().Raw("SELECT id FROM api_keys WHERE user_id = ?", limitedID).Scan(&limitedKey)
	if !waitFor(40*time.Second, func() bool {
		var n int64
		s.DB().Raw("SELECT COUNT(*) FROM call_holds WHERE api_key_id = ?", limitedKey).Scan(&n)
		return n == 0
	}) {
		t.Fatal("the limited key's holds were not released within 40 s")
	}
	late := 0
	for i := range 20 {
		r := call(servers[i%3].base, limited, "echo")
		for try := 0; r.status == 503 && try < 10; try++ {
			time.Sleep(20 * time.Millisecond)
			r = call(servers[i%3].base, limited, "echo")
		}
		if r.status == 200 {
			late++
		} else if r.status != 429 {
			t.Errorf("a late call of the limited key: %d %s", r.status, r.body)
		}
	}
	// A call admitted (counted on the key's day) that then failed with a
	// conflict answered 503 and is a failed hit, counted like a call the
	// upstream failed: the day's count is the successful calls and those.
	var admittedFailed int64
	s.DB().Raw(`SELECT COUNT(*) FROM api_hit_logs h JOIN hit_payloads p ON p.hit_id = h.id
		WHERE h.user_id = ? AND h.status = 'failed' AND p.response_payload NOT LIKE '%daily_limit_exceeded%'`, limitedID).Scan(&admittedFailed)
	if got := counts["limited 200 "] + late + int(admittedFailed); got != 300 {
		t.Errorf("the limited key's day counted %d calls (%d answered 200 under load, %d after, %d admitted then failed 503), want exactly its daily limit 300",
			got, counts["limited 200 "], late, admittedFailed)
	}
	limitedWant := decimal.NewFromInt(int64(10000 - counts["limited 200 "] - late)).StringFixed(2)
	retries, aborts := int64(0), int64(0)
	for _, p := range servers {
		r, a := conflicts(t, p)
		retries, aborts = retries+r, aborts+a
		stopServer(t, p)
	}
	for id, want := range map[uint64]string{limitedID: limitedWant, poorID: "0.00"} {
		var balance string
		s.DB().Raw("SELECT balance FROM users WHERE id = ?", id).Scan(&balance)
		if balance != want {
			t.Errorf("user %d balance %s, want %s", id, balance, want)
		}
	}
	var payerBalance, held string
	s.DB().Raw("SELECT balance, held_amount FROM users WHERE id = ?", payerID).Row().Scan(&payerBalance, &held)
	if decimal.RequireFromString(payerBalance).IsNegative() || !decimal.RequireFromString(held).IsZero() {
		t.Errorf("payer: balance %s, held %s: want ≥ 0 and nothing held", payerBalance, held)
	}
	var holds int64
	s.DB().Raw("SELECT COUNT(*) FROM call_holds").Scan(&holds)
	if holds != 0 {
		t.Errorf("%d holds left after every instance stopped", holds)
	}
	rcv.mu.Lock()
	if len(rcv.overlaps) > 0 {
		t.Errorf("%d webhook deliveries overlapped another of the same event, first %s", len(rcv.overlaps), rcv.overlaps[0])
	}
	events := len(rcv.delivered)
	rcv.mu.Unlock()
	if events == 0 {
		t.Error("no webhook event delivered: the test proves nothing about them")
	}
	for _, u := range nodes {
		ledgerClean(t, galeraEnv(t, u))
	}
	t.Logf("limited key: %d calls answered 200 under load, %d more once the holds were released, %d admitted then failed 503", counts["limited 200 "], late, admittedFailed)
	t.Logf("%d calls and payouts; across the three instances: %d metering batches rerun after a conflict, %d transactions aborted (503) and sent again by the client %d times; webhook events delivered: %d",
		len(jobs), retries, aborts, resent.Load(), events)
}

// TestGaleraNodeKilledUnderLoad: two instances reach the cluster through
// HAProxy, which sends every connection to node 1 while it is Synced.
// Node 1 is SIGKILLed mid-load: HAProxy cuts its sessions and sends new
// ones to node 2; calls meanwhile answer 503 service_unavailable, never
// 500, and never a success that is not charged. Node 1 is started again
// and rejoins by state transfer. Nothing is doubled and no money is lost:
// every call answered 200 is charged once (or refunded as interrupted),
// nothing unanswered is charged, the
// balance is the successful calls', holds are released, and the ledger
// check is clean on every node. It reports the error window the clients
// saw.
func TestGaleraNodeKilledUnderLoad(t *testing.T) {
	nodes, proxy := galeraDB(t)
	if proxy == "" {
		t.Fatal("GALERA_PROXY_DSN is not set: run make test-ha")
	}
	// The writes of calls already answered are retried for half the
	// recovery grace: it must outlast the failover (HAProxy: three failed
	// checks a second apart, then reconnects). The tests' 4 s is shorter
	// than that; the default (UPSTREAM_TIMEOUT + margin) is longer.
	env := append(galeraEnv(t, proxy), "HIT_RECOVERY_AFTER=20s")
	servers := []*proc{startServer(t, env), startServer(t, env)}
	admin := login(t, servers[0].base, adminEmail, adminPassword)
	setupService(admin, "echo", slowUpstream(t, 20*time.Millisecond), "1.00")
	userID, k, _ := customerOn(admin, "100000.00", 10_000_000)

	var mu sync.Mutex
	counts := map[string]int{}
	var answered, unexpected []string
	var failures []time.Time
	var killedAt atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r := call(servers[(w+i)%2].base, k, "echo")
				now := time.Now()
				mu.Lock()
				switch {
				case r.status == 200:
					counts["200"]++
					answered = append(answered, r.requestID)
				case r.status == 503 && r.code == "service_unavailable":
					counts["503"]++
					failures = append(failures, now)
				default:
					unexpected = append(unexpected, fmt.Sprintf("%d %s", r.status, strings.TrimSpace(r.body)))
					failures = append(failures, now)
				}
				mu.Unlock()
				if r.status != 200 {
					time.Sleep(20 * time.Millisecond)
				}
			}
		}()
	}
	time.Sleep(3 * time.Second)
	mu.Lock()
	before := counts["200"]
	mu.Unlock()
	killedAt.Store(time.Now().UnixNano())
	galeraScript(t, "kill", "1")
	time.Sleep(5 * time.Second)
	restartStart := time.Now()
	galeraScript(t, "restart", "1") // waits until Synced again
	rejoin := time.Since(restartStart)
	time.Sleep(3 * time.Second) // HAProxy sends new connections back to node 1
	close(stop)
	wg.Wait()
	if before == 0 {
		t.Fatal("no call succeeded before the kill")
	}
	if len(unexpected) > 0 {
		t.Fatalf("%d unexpected answers (of %v), first: %s", len(unexpected), counts, unexpected[0])
	}
	// The error window: failed calls grouped into bursts (a gap of more
	// than a second ends one), each from the kill.
	killed := time.Unix(0, killedAt.Load())
	sort.Slice(failures, func(i, j int) bool { return failures[i].Before(failures[j]) })
	var bursts []string
	for i := 0; i < len(failures); {
		j := i
		for j+1 < len(failures) && failures[j+1].Sub(failures[j]) <= time.Second {
			j++
		}
		bursts = append(bursts, fmt.Sprintf("%d calls from %+.2fs to %+.2fs", j-i+1,
			failures[i].Sub(killed).Seconds(), failures[j].Sub(killed).Seconds()))
		i = j + 1
	}

	var warnings []string
	for _, l := range strings.Split(servers[0].logs(), "\n") {
		if strings.Contains(l, `"level":"ERROR"`) || strings.Contains(l, `"level":"WARN"`) {
			warnings = append(warnings, l)
		}
	}
	t.Logf("instance 1 logged %d warnings and errors", len(warnings))
	// The writes of calls answered while the node was dying are retried
	// by their instance: a SIGTERM drains them before the hits are read.
	r0, a0 := conflicts(t, servers[0])
	r1, a1 := conflicts(t, servers[1])
	for _, p := range servers {
		stopServer(t, p)
	}
	s := openStore(t, nodes[2])
	if !waitFor(40*time.Second, func() bool { return countHits(t, s)["pending"] == 0 }) {
		t.Fatalf("hits still pending: %v", countHits(t, s))
	}
	hits := hitsByStatus(t, s)
	// A call answered from a hold whose batch could not be written within
	// its retry window would have no hit and not be billed (decisions,
	// "Crash and database loss"): the failover must be shorter, so none is
	// allowed here.
	states := chargedExactly(t, hits, answered, 0, "interrupted")
	success := int64(len(hits["success"]))
	t.Logf("node 1 killed under load: calls answered %d (200: %d, 503: %d), charged %d, answered-200 refunded as interrupted %d; "+
		"failed calls (seconds from the kill; node 1 restarted at +5s): %s; node 1 rejoined (state transfer to Synced) in %s; batches rerun %d, transactions aborted %d",
		counts["200"]+counts["503"], counts["200"], counts["503"], success, states["interrupted"], strings.Join(bursts, ", "),
		rejoin.Round(time.Second), r0+r1, a0+a1)
	// A hold whose release failed while the node died (or at SIGTERM)
	// is released by recovery, on any instance, once it expired.
	holdsLeft := func() int64 {
		var n int64
		s.DB().Raw("SELECT COUNT(*) FROM call_holds").Scan(&n)
		return n
	}
	if n := holdsLeft(); n > 0 {
		t.Logf("%d holds left at shutdown: an instance is started for recovery to release them", n)
		p := startServer(t, env)
		if !waitFor(60*time.Second, func() bool { return holdsLeft() == 0 }) {
			t.Fatalf("%d holds still open a minute after an instance started", holdsLeft())
		}
		stopServer(t, p)
	}
	var balance, held string
	s.DB().Raw("SELECT balance, held_amount FROM users WHERE id = ?", userID).Row().Scan(&balance, &held)
	if want := decimal.NewFromInt(100000 - success); !decimal.RequireFromString(balance).Equal(want) || !decimal.RequireFromString(held).IsZero() {
		t.Fatalf("balance %s held %s, want %s and nothing held (100000.00 less %d successful calls)", balance, held, want.StringFixed(2), success)
	}
	for _, u := range nodes {
		ledgerClean(t, galeraEnv(t, u))
	}
}
