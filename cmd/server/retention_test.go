package main

import (
	"strings"
	"testing"
	"time"
)

// TestHitPayloadRetentionSetting: HIT_PAYLOAD_RETENTION takes days or a
// duration, defaults to 90 days, and refuses what is not a retention.
func TestHitPayloadRetentionSetting(t *testing.T) {
	day := 24 * time.Hour
	for v, want := range map[string]time.Duration{"": 90 * day, "30d": 30 * day, "2160h": 90 * day, "1h": time.Hour, "36500d": 36500 * day} {
		cfg, _, err := parseConfig(nil, func(k string) string {
			if k == "HIT_PAYLOAD_RETENTION" {
				return v
			}
			return ""
		})
		if err != nil || cfg.HitPayloadRetention != want {
			t.Errorf("HIT_PAYLOAD_RETENTION=%q: %s, %v; want %s", v, cfg.HitPayloadRetention, err, want)
		}
	}
	for _, v := range []string{"0d", "-1d", "59m", "d", "1.5d", "90 days", "36501d", "99999999999d", "forever"} {
		_, _, err := parseConfig(nil, func(k string) string {
			if k == "HIT_PAYLOAD_RETENTION" {
				return v
			}
			return ""
		})
		if err == nil || !strings.HasPrefix(err.Error(), "HIT_PAYLOAD_RETENTION: ") {
			t.Errorf("HIT_PAYLOAD_RETENTION=%q: %v; want a HIT_PAYLOAD_RETENTION error", v, err)
		}
	}
}
