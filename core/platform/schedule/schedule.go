// Package schedule is the retry schedule the gateway's workers share:
// recharges, payouts and account openings are asked about again after a
// wait that doubles per attempt, up to a ceiling.
package schedule

import "time"

// Backoff is the wait after the attempts-th attempt: first, doubled per
// attempt after the first, never more than ceiling.
func Backoff(first, ceiling time.Duration, attempts int) time.Duration {
	d := first
	for i := 1; i < attempts && d < ceiling; i++ {
		d *= 2
	}
	return min(d, ceiling)
}

// SubmitGrace is how long after its creation a row whose Submit never
// answered is left to the request that created it before a worker submits
// it again: twice the provider timeout plus the first check, longer than
// any Submit still running, so none is duplicated.
func SubmitGrace(providerTimeout, firstCheck time.Duration) time.Duration {
	return 2*providerTimeout + firstCheck
}
