package meteringstore_test

import (
	"context"
	"fmt"
	"paygate/core/platform/store"
	"testing"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/metering/hitlog"
	"paygate/internal/testdb"
)

// Every way a hit is written or settled keeps its outcome column the
// status, pending read as success (migration 00010), and a status filter
// beside a user, service or key filter, which reads the outcome from the
// list index, finds exactly the hits of that status.
func TestHitOutcomeFollowsStatus(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		u, svc, k := sqltest.NewCaller(t, s)
		hits := func(n int, st hitlog.Status) []*hitlog.Hit {
			out := make([]*hitlog.Hit, n)
			for i := range out {
				out[i] = sqltest.BatchHit(u.ID, svc.ID, k.ID, st, "{}")
			}
			return out
		}
		// Written: one by one (Insert) and many at once (InsertMany),
		// pending and refused.
		refused := sqltest.BatchHit(u.ID, svc.ID, k.ID, hitlog.StatusFailed, "{}")
		if err := s.Stores().Hits.Insert(ctx, refused); err != nil {
			t.Fatal(err)
		}
		pending := hits(12, hitlog.StatusPending)
		poor := hits(2, hitlog.StatusInsufficientBalance)
		if err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			return st.Hits.InsertMany(ctx, append(append([]*hitlog.Hit{}, pending...), poor...))
		}); err != nil {
			t.Fatal(err)
		}
		settle := func(h *hitlog.Hit, st hitlog.Status) *hitlog.Hit {
			body := fmt.Sprintf(`{"settled":%q}`, st)
			h.Status, h.ResponsePayload = st, &body
			if st == hitlog.StatusSuccess {
				h.ChargeAmount = decimal.RequireFromString("0.5000")
			}
			return h
		}
		// Settled: alone (Finish), successes only (SucceedMany),
		// successes and failures together (FinishMany), failures only.
		if err := s.Stores().Hits.Finish(ctx, settle(pending[0], hitlog.StatusFailed)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Stores().Hits.SucceedMany(ctx, []*hitlog.Hit{settle(pending[1], hitlog.StatusSuccess), settle(pending[2], hitlog.StatusSuccess)}); err != nil {
			t.Fatal(err)
		}
		for _, batch := range [][]*hitlog.Hit{
			{settle(pending[3], hitlog.StatusSuccess), settle(pending[4], hitlog.StatusFailed), settle(pending[5], hitlog.StatusSuccess)},
			{settle(pending[6], hitlog.StatusFailed), settle(pending[7], hitlog.StatusFailed)},
			{settle(pending[8], hitlog.StatusSuccess)},
		} {
			if err := s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
				_, err := st.Hits.FinishMany(ctx, batch)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		// pending[9:] stay pending.
		var wrong int64
		if err := s.DB().Raw("SELECT COUNT(*) FROM api_hit_logs WHERE user_id = ? AND outcome <> "+
			"CASE WHEN status = 'pending' THEN 'success' ELSE status END", u.ID).Scan(&wrong).Error; err != nil {
			t.Fatal(err)
		}
		if wrong != 0 {
			t.Fatalf("%d hits whose outcome is not their status", wrong)
		}
		want := map[hitlog.Status]int64{
			hitlog.StatusSuccess:             5, // pending 1, 2, 3, 5, 8
			hitlog.StatusFailed:              5, // refused, pending 0, 4, 6, 7
			hitlog.StatusInsufficientBalance: 2,
			hitlog.StatusPending:             3, // pending 9, 10, 11
		}
		for st, n := range want {
			for name, f := range map[string]hitlog.Filter{
				"user":    {UserID: &u.ID, Status: st},
				"service": {ServiceID: &svc.ID, Status: st},
				"key":     {APIKeyID: &k.ID, Status: st},
			} {
				f.PerPage = 50
				list, total, err := s.Stores().Hits.List(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if total != n || int64(len(list)) != n {
					t.Errorf("%s + status %s: %d listed, total %d; want %d", name, st, len(list), total, n)
				}
				for _, h := range list {
					if h.Status != st {
						t.Errorf("%s + status %s: listed hit %s is %s", name, st, h.RequestID, h.Status)
					}
				}
			}
		}
	})
}
