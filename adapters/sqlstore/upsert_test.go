package sqlstore

import (
	"strings"
	"testing"
	"time"

	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

func TestConflictSyntaxFollowsTheServer(t *testing.T) {
	for version, want := range map[string]conflictSyntax{
		"10.11.6-MariaDB-1:10.11.6+maria~ubu2204": conflictValues,
		"11.4.2-MariaDB":               conflictValues,
		"5.5.5-10.6.12-MariaDB-log":    conflictValues,
		"5.7.44-log":                   conflictValues,
		"8.0.18":                       conflictValues,
		"8.0.19":                       conflictAlias,
		"8.0.36-0ubuntu0.22.04.1":      conflictAlias,
		"8.4.2":                        conflictAlias,
		"9.1.0 MySQL Community Server": conflictAlias,
	} {
		if got := conflictSyntaxOf(version); got != want {
			t.Errorf("conflictSyntaxOf(%q) = %d, want %d", version, got, want)
		}
	}
}

// Each server's upsert text: MySQL 8 names the row by its alias, never
// with the deprecated VALUES(); MariaDB, which has no alias, keeps VALUES().
func TestUpsertTextsPerServer(t *testing.T) {
	tally := newUsageTally(time.UTC)
	if err := tally.add(report.Hit{UserID: 1, ServiceID: 2, Status: hitlog.StatusSuccess, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for cs, want := range map[conflictSyntax][2]string{
		conflictAlias: {"(?,?,?,?,?,?,?,?,?) AS new ON DUPLICATE KEY UPDATE calls = calls + new.calls, success_calls = success_calls + new.success_calls",
			") AS new ON DUPLICATE KEY UPDATE response_payload = new.response_payload"},
		conflictValues: {"(?,?,?,?,?,?,?,?,?) ON DUPLICATE KEY UPDATE calls = calls + VALUES(calls), success_calls = success_calls + VALUES(success_calls)",
			" ON DUPLICATE KEY UPDATE response_payload = VALUES(response_payload)"},
		conflictExcluded: {"ON CONFLICT (hour, user_id, api_service_id) DO UPDATE SET calls = calls + excluded.calls",
			" ON CONFLICT (hit_id) DO UPDATE SET response_payload = excluded.response_payload"},
	} {
		q, _, err := tally.upsert(cs)
		if err != nil || !strings.Contains(q, want[0]) {
			t.Errorf("usage upsert (%d): %s, %v\nwant it to hold %s", cs, q, err, want[0])
		}
		if cs == conflictAlias && strings.Contains(q, "VALUES(") {
			t.Errorf("MySQL 8 text uses VALUES(): %s", q)
		}
		p := responseUpsert(cs)
		if !strings.Contains(")"+p, want[1]) {
			t.Errorf("payload upsert (%d): %s, want %s", cs, p, want[1])
		}
	}
}
