package metrics_test

import (
	"strings"
	"testing"
	"time"

	"paygate/adapters/metrics"
)

// TestHitPayloadRetentionSeries: /metrics shows the retention setting and
// the payloads removed.
func TestHitPayloadRetentionSeries(t *testing.T) {
	r := metrics.New()
	r.HitPayloadRetention(90 * 24 * time.Hour)
	r.HitPayloadsRemoved(1000)
	r.HitPayloadsRemoved(7)
	out := exposition(r)
	for _, want := range []string{"\npaygate_hit_payload_retention_seconds 7.776e+06\n", "\npaygate_hit_payloads_removed_total 1007\n"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q in:\n%s", want, out)
		}
	}
}
