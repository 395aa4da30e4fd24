package history_test

import (
	"context"
	"paygate/core/metering/history"
	"paygate/core/platform/store"
	"testing"
	"time"

	"paygate/core/accounts/user"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/store/storetest"
)

// TestPayloadsPastTheRetentionAreNotShown: the hit list and the export show
// no payloads of a hit older than the retention, even while the store still
// holds them (MySQL removes a whole month at once); newer hits keep theirs,
// and every hit keeps its row.
func TestPayloadsPastTheRetentionAreNotShown(t *testing.T) {
	now := utc("2026-11-25T10:00:00Z")
	db := storetest.New()
	p := history.New(history.Deps{Tx: store.Narrow(db, history.TxStoresOf), Stores: historyStores(db), Now: func() time.Time { return now },
		Config: history.Config{PayloadRetention: 90 * 24 * time.Hour}})
	u := user.User{ID: 1, Role: user.RoleUser, Status: user.StatusActive}
	db.Put(u)
	resp := `{"ok":true}`
	for i, at := range []time.Time{now.AddDate(0, 0, -91), now.AddDate(0, 0, -89)} {
		db.Put(hitlog.Hit{ID: uint64(i + 1), UserID: 1, ServiceID: 7, RequestID: []string{"old", "new"}[i],
			RequestPayload: `{"n":1}`, ResponsePayload: &resp, Status: hitlog.StatusSuccess, CreatedAt: at})
	}
	check := func(how string, hits []hitlog.Hit) {
		t.Helper()
		if len(hits) != 2 {
			t.Fatalf("%s: %d hits, want 2", how, len(hits))
		}
		for _, h := range hits {
			shown := h.RequestPayload != "" || h.ResponsePayload != nil
			if shown != (h.RequestID == "new") {
				t.Errorf("%s: hit %s shows payloads %v (request %q)", how, h.RequestID, shown, h.RequestPayload)
			}
		}
	}
	listed, _, err := p.ListHits(context.Background(), &u, hitlog.Filter{PerPage: 10})
	if err != nil {
		t.Fatal(err)
	}
	check("list", listed)
	var exported []hitlog.Hit
	if err := p.ExportHits(context.Background(), &u, hitlog.Filter{}, func(h hitlog.Hit) error { exported = append(exported, h); return nil }); err != nil {
		t.Fatal(err)
	}
	check("export", exported)
}
