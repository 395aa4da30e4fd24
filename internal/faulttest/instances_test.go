package faulttest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"paygate/internal/testdb"
)

// TestThreeInstancesKeepBalancesAndLimitsExact: three server processes on
// one MariaDB database share concurrent calls round-robin. A key with a
// daily limit of 300 gets 600 calls: exactly 300 succeed, 300 are 429
// daily_limit_exceeded. A balance of 50.00 at 1.00 a call gets 150 calls:
// exactly 50 succeed, 100 are 402 insufficient_balance. The ledger check
// is clean.
func TestThreeInstancesKeepBalancesAndLimitsExact(t *testing.T) {
	dbURL := testdb.MySQLURL(t)
	env := baseEnv(t, dbURL)
	up := slowUpstream(t, 10*time.Millisecond)
	var servers []*proc
	for range 3 {
		servers = append(servers, startServer(t, env))
	}
	admin := login(t, servers[0].base, adminEmail, adminPassword)
	setupService(admin, "echo", up, "1.00")
	limitedID, limited := newCustomer(admin, "10000.00", 300)
	poorID, poor := newCustomer(admin, "50.00", 1_000_000)

	type job struct {
		k    key
		name string
	}
	var jobs []job
	for i := range 750 {
		if i%5 == 4 { // interleaved: 600 limited, 150 poor
			jobs = append(jobs, job{poor, "poor"})
		} else {
			jobs = append(jobs, job{limited, "limited"})
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
				j := jobs[i]
				r := call(servers[i%3].base, j.k, "echo")
				mu.Lock()
				counts[fmt.Sprintf("%s %d %s", j.name, r.status, r.code)]++
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	want := map[string]int{
		"limited 200 ": 300, "limited 429 daily_limit_exceeded": 300,
		"poor 200 ": 50, "poor 402 insufficient_balance": 100,
	}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Fatalf("answers %v, want %v", counts, want)
	}
	s := openStore(t, dbURL)
	for id, want := range map[uint64]string{limitedID: "9700.00", poorID: "0.00"} {
		var balance string
		s.DB().Raw("SELECT balance FROM users WHERE id = ?", id).Scan(&balance)
		if balance != want {
			t.Errorf("user %d balance %s, want %s", id, balance, want)
		}
	}
	ledgerClean(t, env)
}
