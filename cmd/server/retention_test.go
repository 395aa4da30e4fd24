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

// TestHitPayloadRetentionOnMySQL: on MySQL the retention is at most a year
// (the ring of monthly payload partitions); SQLite takes any.
func TestHitPayloadRetentionOnMySQL(t *testing.T) {
	for _, c := range []struct {
		db, keep string
		ok       bool
	}{
		{"mysql://app@db:3306/paygate", "365d", true},
		{"mysql://app@db:3306/paygate", "366d", false},
		{"sqlite://./data/app.db", "3650d", true},
	} {
		_, _, err := parseConfig(nil, func(k string) string {
			switch k {
			case "HIT_PAYLOAD_RETENTION":
				return c.keep
			case "DATABASE_URL":
				return c.db
			}
			return ""
		})
		if ok := err == nil; ok != c.ok || (err != nil && !strings.HasPrefix(err.Error(), "HIT_PAYLOAD_RETENTION: ")) {
			t.Errorf("%s with HIT_PAYLOAD_RETENTION=%s: %v; want accepted %v", c.db, c.keep, err, c.ok)
		}
	}
}
