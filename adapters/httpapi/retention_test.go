package httpapi_test

import (
	"net/http"
	"testing"
)

// TestHitLogListSaysHowLongPayloadsAreKept: the hit log list carries the
// payload retention (HIT_PAYLOAD_RETENTION; the harness leaves the 90-day
// default), which the panel's hit log screen states.
func TestHitLogListSaysHowLongPayloadsAreKept(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		c := e.newCustomer("user", "starter", "0.00")
		for _, token := range []string{c.token, e.admin} {
			r := e.do("GET", "/api/v1/panel/hit-logs", token, nil)
			if r.status != http.StatusOK || r.num("payload_retention_seconds") != 90*24*3600 {
				t.Fatalf("hit log list: %d %s; want payload_retention_seconds 7776000", r.status, r.raw)
			}
		}
	})
}
