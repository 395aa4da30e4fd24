package accountstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"paygate/core/platform/store"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/accounts/audit"
	"paygate/internal/testdb"
)

func TestAuditLog(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := audit.WithSource(context.Background(), audit.Source{IPAddress: "203.0.113.9", RequestID: "req_1"})
		repo := s.Stores().Audit
		base := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
		add := func(actor uint64, action, target string, id uint64, before, after any, at time.Time) *audit.Entry {
			t.Helper()
			e, err := audit.New(ctx, actor, action, target, id, before, after, at)
			if err != nil {
				t.Fatal(err)
			}
			if err := repo.Add(ctx, e); err != nil {
				t.Fatalf("Add: %v", err)
			}
			return e
		}
		first := add(1, audit.UserActivate, audit.TargetUser, 7, map[string]string{"status": "pending"}, map[string]string{"status": "active"}, base)
		add(1, audit.ServiceDelete, audit.TargetService, 3, map[string]string{"slug": "sms"}, nil, base.Add(time.Hour))
		last := add(2, audit.PricingCreate, audit.TargetPricing, 9, nil, map[string]string{"user_price": "1.0000"}, base.Add(2*time.Hour))

		all, total, err := repo.List(ctx, audit.Filter{})
		if err != nil || total != 3 || len(all) != 3 {
			t.Fatalf("List = %d rows, total %d, err %v", len(all), total, err)
		}
		if all[0].ID != last.ID || all[2].ID != first.ID {
			t.Fatalf("not newest first: %d, %d, %d", all[0].ID, all[1].ID, all[2].ID)
		}
		got := all[2]
		var before, after map[string]string
		if err := json.Unmarshal(got.Before, &before); err != nil || before["status"] != "pending" {
			t.Fatalf("before = %s (%v)", got.Before, err)
		}
		if err := json.Unmarshal(got.After, &after); err != nil || after["status"] != "active" {
			t.Fatalf("after = %s (%v)", got.After, err)
		}
		if got.ActorID != 1 || got.Action != audit.UserActivate || got.TargetType != audit.TargetUser ||
			got.TargetID == nil || *got.TargetID != 7 || got.IPAddress != "203.0.113.9" || got.RequestID != "req_1" ||
			!got.CreatedAt.Equal(base) {
			t.Fatalf("entry = %+v", got)
		}
		if all[1].After != nil || all[0].Before != nil {
			t.Fatalf("nil snapshots came back as %q / %q", all[1].After, all[0].Before)
		}

		actor := uint64(1)
		target := uint64(3)
		from, to := base.Add(30*time.Minute), base.Add(90*time.Minute)
		for name, tc := range map[string]struct {
			f    audit.Filter
			want []uint64
		}{
			"actor":    {audit.Filter{ActorID: &actor}, []uint64{all[1].ID, first.ID}},
			"action":   {audit.Filter{Action: audit.PricingCreate}, []uint64{last.ID}},
			"target":   {audit.Filter{TargetType: audit.TargetService, TargetID: &target}, []uint64{all[1].ID}},
			"dates":    {audit.Filter{From: &from, To: &to}, []uint64{all[1].ID}},
			"paged":    {audit.Filter{Page: 2, PerPage: 2}, []uint64{first.ID}},
			"no match": {audit.Filter{Action: "nothing"}, nil},
		} {
			rows, _, err := repo.List(ctx, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			var ids []uint64
			for _, r := range rows {
				ids = append(ids, r.ID)
			}
			if len(ids) != len(tc.want) || (len(ids) > 0 && ids[0] != tc.want[0]) {
				t.Errorf("%s: ids %v, want %v", name, ids, tc.want)
			}
		}

		// An entry written in a transaction that rolls back is gone with it.
		boom := errors.New("boom")
		err = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			add2, _ := audit.New(ctx, 5, audit.UserDelete, audit.TargetUser, 5, nil, nil, base)
			if err := st.Audit.Add(ctx, add2); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("WithinTx err = %v", err)
		}
		if _, n, _ := repo.List(ctx, audit.Filter{Action: audit.UserDelete}); n != 0 {
			t.Fatalf("rolled-back entry persisted (%d rows)", n)
		}
	})
}
