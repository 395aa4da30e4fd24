package schedule_test

import (
	"testing"
	"time"

	"paygate/core/platform/schedule"
)

func TestBackoffDoublesUpToTheCeiling(t *testing.T) {
	for _, c := range []struct {
		attempts int
		want     time.Duration
	}{{0, 3 * time.Second}, {1, 3 * time.Second}, {2, 6 * time.Second}, {4, 24 * time.Second}, {10, time.Minute}, {1000, time.Minute}} {
		if got := schedule.Backoff(3*time.Second, time.Minute, c.attempts); got != c.want {
			t.Errorf("attempt %d: %v, want %v", c.attempts, got, c.want)
		}
	}
}

func TestSubmitGraceOutlastsARunningSubmit(t *testing.T) {
	if got := schedule.SubmitGrace(15*time.Second, 3*time.Second); got != 33*time.Second {
		t.Fatalf("grace %v, want 33s", got)
	}
}
