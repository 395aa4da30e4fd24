package sqlstore_test

import (
	"context"
	"strings"
	"testing"

	"paygate/adapters/sqlstore"
)

// Migration 00018 marks documented aadhaar_number and pan_number
// parameters sensitive and masks the full numbers hit logs stored before
// it; other services' rows, bodies that are not JSON and non-strings stay
// as they were.
func TestMigrationMasksStoredAadhaarAndPAN(t *testing.T) {
	eachAtVersion(t, 17, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		db := s.DB()
		for _, q := range []string{
			`INSERT INTO api_services (id, name, slug, category, provider_url) VALUES
					(1, 'Aadhaar', 'aadhaar', 'id', 'https://x.example'), (2, 'PAN', 'pan', 'id', 'https://x.example'),
					(3, 'Other', 'other', 'id', 'https://x.example')`,
			`INSERT INTO api_documentations (api_service_id, endpoint, method, description, request_params, response_example, error_codes) VALUES
					(1, '/a', 'POST', 'd', '{"aadhaar_number":{"type":"string","required":true},"name":{"type":"string","required":true}}', '{}', '{}'),
					(2, '/p', 'POST', 'd', '{"pan_number":{"type":"string","required":true}}', '{}', '{}'),
					(3, '/o', 'POST', 'd', '{"aadhaar":{"type":"string","required":true}}', '{}', '{}')`,
			`INSERT INTO api_hit_logs (id, user_id, api_service_id, api_key_id, request_id, request_payload, ip_address) VALUES
					(1, 1, 1, 1, 'r1', '{"aadhaar_number":"123412341234","name":"Asha"}', '::1'),
					(2, 1, 1, 1, 'r2', '{"invalid_body":"{not json"}', '::1'),
					(3, 1, 1, 1, 'r3', 'not json at all', '::1'),
					(4, 1, 2, 1, 'r4', '{"pan_number":"ABCDE1234F"}', '::1'),
					(5, 1, 3, 1, 'r5', '{"aadhaar":"123412341234"}', '::1'),
					(6, 1, 1, 1, 'r6', '{"aadhaar_number":12}', '::1')`,
		} {
			if err := db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := s.MigrateTo(ctx, 18); err != nil {
			t.Fatal(err)
		}
		var docs []string
		db.Raw("SELECT request_params FROM api_documentations ORDER BY api_service_id").Scan(&docs)
		if !strings.Contains(nospace(docs[0]), `"aadhaar_number":{`) || !strings.Contains(nospace(docs[0]), `"sensitive":true`) ||
			!strings.Contains(nospace(docs[1]), `"sensitive":true`) || strings.Contains(docs[2], "sensitive") {
			t.Errorf("docs: %q", docs)
		}
		var payloads []string
		db.Raw("SELECT request_payload FROM api_hit_logs ORDER BY id").Scan(&payloads)
		want := []string{`{"aadhaar_number":"XXXXXXXX1234","name":"Asha"}`, `{"invalid_body":"{not json"}`, "not json at all",
			`{"pan_number":"XXXXXX234F"}`, `{"aadhaar":"123412341234"}`, `{"aadhaar_number":12}`}
		for i := range want {
			if nospace(payloads[i]) != nospace(want[i]) {
				t.Errorf("hit %d: %s, want %s", i+1, payloads[i], want[i])
			}
		}
	})
}

// nospace drops the blanks MySQL's JSON functions write after : and ,.
func nospace(s string) string { return strings.ReplaceAll(s, " ", "") }
