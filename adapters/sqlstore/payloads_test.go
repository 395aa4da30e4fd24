package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/metering/hitlog"
)

// Migration 00030 moves the payloads the hit rows held into hit_payloads:
// every hit reads the same payloads after it as before, a cleared hit has
// none, and a pending hit's response, written when it settles, lands on
// its row.
func TestMigrationMovesHitPayloads(t *testing.T) {
	eachAtVersion(t, 29, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		jan, nov := time.Date(2026, 1, 31, 23, 59, 59, 0, time.UTC), time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		err := s.DB().Exec(`INSERT INTO api_hit_logs (id, user_id, api_service_id, api_key_id, request_id, request_payload, response_payload,
				ip_address, status, outcome, created_at, updated_at) VALUES
				(1, 1, 1, 1, 'r1', '{"a":1}', '{"ok":true}', '::1', 'success', 'success', ?, ?),
				(2, 1, 1, 1, 'r2', '', NULL, '::1', 'failed', 'failed', ?, ?),
				(3, 1, 1, 1, 'r3', '{"c":3}', NULL, '::1', 'pending', 'success', ?, ?)`, jan, jan, nov, nov, nov, nov).Error
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		hits := s.Stores().Hits
		want := map[string][2]string{"r1": {`{"a":1}`, `{"ok":true}`}, "r2": {"", ""}, "r3": {`{"c":3}`, ""}}
		for id, w := range want {
			h, err := hits.ByRequestID(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			resp := ""
			if h.ResponsePayload != nil {
				resp = *h.ResponsePayload
			}
			if h.RequestPayload != w[0] || resp != w[1] {
				t.Errorf("hit %s after the migration: %q, %q; want %q, %q", id, h.RequestPayload, resp, w[0], w[1])
			}
		}
		var rows int64
		s.DB().Raw("SELECT COUNT(*) FROM hit_payloads").Scan(&rows)
		if rows != 2 {
			t.Errorf("%d payload rows, want 2 (the cleared hit has none)", rows)
		}
		pending, err := hits.ByRequestID(ctx, "r3")
		if err != nil {
			t.Fatal(err)
		}
		out := `{"done":true}`
		pending.Status, pending.ResponsePayload = hitlog.StatusSuccess, &out
		if err := hits.Finish(ctx, pending); err != nil {
			t.Fatal(err)
		}
		if h, err := hits.ByRequestID(ctx, "r3"); err != nil || h.ResponsePayload == nil || *h.ResponsePayload != out || h.RequestPayload != `{"c":3}` {
			t.Fatalf("the pending hit settled after the migration: %+v, %v", h, err)
		}
	})
}
