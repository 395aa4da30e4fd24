package meteringstore

import (
	"strings"
	"testing"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
	"paygate/core/metering/report"
)

func TestConflictSyntaxFollowsTheServer(t *testing.T) {
	for version, want := range map[string]sqlbase.ConflictSyntax{
		"10.11.6-MariaDB-1:10.11.6+maria~ubu2204": sqlbase.ConflictValues,
		"11.4.2-MariaDB":               sqlbase.ConflictValues,
		"5.5.5-10.6.12-MariaDB-log":    sqlbase.ConflictValues,
		"5.7.44-log":                   sqlbase.ConflictValues,
		"8.0.18":                       sqlbase.ConflictValues,
		"8.0.19":                       sqlbase.ConflictAlias,
		"8.0.36-0ubuntu0.22.04.1":      sqlbase.ConflictAlias,
		"8.4.2":                        sqlbase.ConflictAlias,
		"9.1.0 MySQL Community Server": sqlbase.ConflictAlias,
	} {
		if got := sqlbase.ConflictSyntaxOf(version); got != want {
			t.Errorf("conflictSyntaxOf(%q) = %d, want %d", version, got, want)
		}
	}
}

// Each server's upsert text: MySQL 8 names the row by its alias, never
// with the deprecated VALUES(); MariaDB, which has no alias, keeps VALUES().
func TestUpsertTextsPerServer(t *testing.T) {
	tally := NewUsageTally(time.UTC)
	if err := tally.Add(report.Hit{UserID: 1, ServiceID: 2, Status: hitlog.StatusSuccess, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for cs, want := range map[sqlbase.ConflictSyntax][2]string{
		sqlbase.ConflictAlias: {"(?,?,?,?,?,?,?,?,?) AS new ON DUPLICATE KEY UPDATE calls = calls + new.calls, success_calls = success_calls + new.success_calls",
			") AS new ON DUPLICATE KEY UPDATE response_payload = new.response_payload"},
		sqlbase.ConflictValues: {"(?,?,?,?,?,?,?,?,?) ON DUPLICATE KEY UPDATE calls = calls + VALUES(calls), success_calls = success_calls + VALUES(success_calls)",
			" ON DUPLICATE KEY UPDATE response_payload = VALUES(response_payload)"},
		sqlbase.ConflictExcluded: {"ON CONFLICT (hour, user_id, api_service_id) DO UPDATE SET calls = calls + excluded.calls",
			" ON CONFLICT (hit_id) DO UPDATE SET response_payload = excluded.response_payload"},
	} {
		q, _, err := tally.Upsert(cs)
		if err != nil || !strings.Contains(q, want[0]) {
			t.Errorf("usage upsert (%d): %s, %v\nwant it to hold %s", cs, q, err, want[0])
		}
		if cs == sqlbase.ConflictAlias && strings.Contains(q, "VALUES(") {
			t.Errorf("MySQL 8 text uses VALUES(): %s", q)
		}
		p := responseUpsert(cs)
		if !strings.Contains(")"+p, want[1]) {
			t.Errorf("payload upsert (%d): %s, want %s", cs, p, want[1])
		}
	}
}
