package httpapi_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestAuditLogRecordsAdminActions(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		adminID := e.must(e.do("GET", "/api/v1/panel/auth/me", e.admin, nil), 200).num("id")
		c := e.newCustomer("user", "starter", "5.00") // user.create + user.balance_adjust
		svc := e.newService("audited", "1.0000")      // service.create (with a provider key) + pricing.create

		patch := e.must(e.do("PATCH", fmt.Sprintf("/api/v1/panel/services/%d", svc), e.admin,
			map[string]any{"name": "Renamed", "provider_key": "second-upstream-secret"}), 200)
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/block", c.id), e.admin, nil), 200)
		// A refused action records nothing.
		e.must(e.do("POST", fmt.Sprintf("/api/v1/panel/users/%d/balance-adjustments", c.id), e.admin,
			map[string]any{"type": "debit", "amount": "999.00", "description": "too much"}), 402)

		list := e.must(e.do("GET", "/api/v1/panel/audit-logs?per_page=100", e.admin, nil), 200)
		for _, secret := range []string{"upstream-secret-value", "second-upstream-secret", "password", "whsec_", "rs_"} {
			if strings.Contains(list.raw, secret) {
				t.Fatalf("audit log shows %q: %s", secret, list.raw)
			}
		}
		type entry struct {
			ActorID    uint64                     `json:"actor_id"`
			Action     string                     `json:"action"`
			TargetType string                     `json:"target_type"`
			TargetID   *uint64                    `json:"target_id"`
			Before     map[string]json.RawMessage `json:"before"`
			After      map[string]json.RawMessage `json:"after"`
			IPAddress  string                     `json:"ip_address"`
			RequestID  string                     `json:"request_id"`
		}
		var page struct {
			Data []entry `json:"data"`
			Meta struct {
				Total int `json:"total"`
			} `json:"meta"`
		}
		if err := json.Unmarshal([]byte(list.raw), &page); err != nil {
			t.Fatal(err)
		}
		var actions []string
		byAction := map[string]entry{}
		for _, en := range page.Data {
			actions = append(actions, en.Action)
			if _, seen := byAction[en.Action]; !seen {
				byAction[en.Action] = en // newest first: the latest of each action
			}
			if en.ActorID != adminID || en.IPAddress != "127.0.0.1" || !strings.HasPrefix(en.RequestID, "req_") {
				t.Errorf("entry %+v: want actor %d from 127.0.0.1 with a request id", en, adminID)
			}
		}
		want := []string{"user.block", "service.update", "pricing.create", "service.create", "user.balance_adjust", "user.create"}
		if strings.Join(actions, ",") != strings.Join(want, ",") || page.Meta.Total != len(want) {
			t.Fatalf("actions %v (total %d), want %v", actions, page.Meta.Total, want)
		}

		upd := byAction["service.update"]
		if upd.RequestID != patch.header.Get("X-Request-ID") || upd.TargetType != "service" || upd.TargetID == nil || *upd.TargetID != svc {
			t.Fatalf("service.update entry %+v (response request id %s)", upd, patch.header.Get("X-Request-ID"))
		}
		if string(upd.Before["name"]) != `"Service audited"` || string(upd.After["name"]) != `"Renamed"` ||
			string(upd.Before["provider_key_set"]) != "true" || string(upd.After["provider_key_set"]) != "true" ||
			string(upd.After["provider_key_changed"]) != "true" {
			t.Fatalf("service.update snapshots before %v after %v", upd.Before, upd.After)
		}
		blk := byAction["user.block"]
		if string(blk.Before["status"]) != `"active"` || string(blk.After["status"]) != `"blocked"` || *blk.TargetID != c.id {
			t.Fatalf("user.block entry %+v", blk)
		}
		adj := byAction["user.balance_adjust"]
		if string(adj.Before["balance"]) != `"0.00"` || string(adj.After["balance"]) != `"5.00"` {
			t.Fatalf("balance adjustment entry %+v", adj)
		}
		if byAction["user.create"].Before != nil || byAction["service.create"].After == nil {
			t.Fatalf("create entries: %+v / %+v", byAction["user.create"], byAction["service.create"])
		}

		// Filters.
		f := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/audit-logs?target_type=user&target_id=%d", c.id), e.admin, nil), 200)
		if n := int(f.body["meta"].(map[string]any)["total"].(float64)); n != 3 {
			t.Fatalf("entries about user %d: %d, want 3: %s", c.id, n, f.raw)
		}
		f = e.must(e.do("GET", "/api/v1/panel/audit-logs?action=pricing.create", e.admin, nil), 200)
		if n := int(f.body["meta"].(map[string]any)["total"].(float64)); n != 1 {
			t.Fatalf("pricing.create entries: %d: %s", n, f.raw)
		}
		e.must(e.do("GET", "/api/v1/panel/audit-logs?target_id=x", e.admin, nil), 422)

		// Admins only.
		other := e.newCustomer("reseller", "starter", "0.00")
		e.must(e.do("GET", "/api/v1/panel/audit-logs", other.token, nil), 403)
		e.must(e.do("GET", "/api/v1/panel/audit-logs", "", nil), 401)
	})
}

// Two admins editing different fields of one service at once: both edits
// survive (each patch reads the row under a lock in its transaction), and
// each audit entry's "before" is the state the previous one left.
func TestConcurrentServiceEditsLoseNothing(t *testing.T) {
	each(t, func(t *testing.T, e *env) {
		svc := e.newService("edited", "0.1000")
		other := e.newCustomer("admin", "enterprise", "0.00").token
		path := fmt.Sprintf("/api/v1/panel/services/%d", svc)
		for round := 0; round < 6; round++ {
			desc, cat := fmt.Sprintf("description %d", round), fmt.Sprintf("category-%d", round)
			var wg sync.WaitGroup
			wg.Add(2)
			go func() {
				defer wg.Done()
				e.must(e.do("PATCH", path, e.admin, map[string]any{"description": desc}), 200)
			}()
			go func() { defer wg.Done(); e.must(e.do("PATCH", path, other, map[string]any{"category": cat}), 200) }()
			wg.Wait()
			got := e.must(e.do("GET", path, e.admin, nil), 200)
			if got.str("description") != desc || got.str("category") != cat {
				t.Fatalf("round %d: description %q, category %q: an edit was lost", round, got.str("description"), got.str("category"))
			}
		}
		list := e.must(e.do("GET", fmt.Sprintf("/api/v1/panel/audit-logs?action=service.update&target_id=%d&per_page=100", svc), e.admin, nil), 200)
		var page struct {
			Data []struct {
				Before, After map[string]any
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(list.raw), &page); err != nil || len(page.Data) != 12 {
			t.Fatalf("%d service.update entries (%v), want 12", len(page.Data), err)
		}
		for i := 0; i+1 < len(page.Data); i++ { // newest first
			newer, older := page.Data[i], page.Data[i+1]
			if fmt.Sprint(newer.Before) != fmt.Sprint(older.After) {
				t.Fatalf("entry %d's before %v is not the state entry %d left: %v", i, newer.Before, i+1, older.After)
			}
		}
	})
}
