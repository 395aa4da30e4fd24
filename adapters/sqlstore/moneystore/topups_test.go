package moneystore_test

import (
	"context"
	"errors"
	"fmt"
	"paygate/core/platform/store"
	"sync"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/money/topup"
	"paygate/internal/testdb"
)

func newTopUp(t *testing.T, s *sqlstore.Store, owner uint64, utr, amount string, at time.Time) *topup.Request {
	t.Helper()
	r, err := topup.New(owner, topup.Input{Amount: amount, UTRNumber: utr}, topup.DefaultMaxAmount, at)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Stores().TopUps.Create(context.Background(), r); err != nil {
		t.Fatalf("Create %s: %v", utr, err)
	}
	return r
}

func TestTopUpsRoundTripAndUTRUniqueness(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().TopUps
		alice, bob := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		at := time.Date(2026, 4, 1, 9, 30, 0, 123456000, time.UTC)
		shot, remarks := "01JABCDEFGHJKMNPQRSTVWXYZ0.png", "paid by UPI"
		r := &topup.Request{UserID: alice.ID, Amount: sqltest.Dec(t, "9999999999.99"), UTRNumber: "AXIS-123456", PaymentMethod: "neft",
			Screenshot: &shot, Remarks: &remarks, Status: topup.StatusPending, CreatedAt: at, UpdatedAt: at}
		if err := repo.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
		if r.ID == 0 {
			t.Fatal("Create did not set the id")
		}
		got, err := repo.ByID(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.UserID != alice.ID || got.UTRNumber != "AXIS-123456" || got.PaymentMethod != "neft" || *got.Screenshot != shot ||
			*got.Remarks != remarks || got.Status != topup.StatusPending || got.ApprovedBy != nil || got.ApprovedAt != nil ||
			got.AdminRemarks != nil || !got.CreatedAt.Equal(at) {
			t.Fatalf("ByID = %+v", got)
		}
		sqltest.MustEqualDec(t, "amount", got.Amount, "9999999999.99")
		if _, err := repo.ByID(ctx, r.ID+1000); !errors.Is(err, topup.ErrNotFound) {
			t.Fatalf("unknown id: %v", err)
		}

		// A UTR is unique across users and states, whatever its case.
		for _, utr := range []string{"AXIS-123456", "axis-123456"} {
			dup := &topup.Request{UserID: bob.ID, Amount: sqltest.Dec(t, "1"), UTRNumber: utr, PaymentMethod: "upi", Status: topup.StatusPending}
			if err := repo.Create(ctx, dup); !errors.Is(err, topup.ErrUTRTaken) {
				t.Fatalf("Create with UTR %s again = %v, want ErrUTRTaken", utr, err)
			}
		}

		// Racing inserts of one UTR: one row, the others ErrUTRTaken.
		const n = 8
		var wg sync.WaitGroup
		results := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = repo.Create(ctx, &topup.Request{UserID: bob.ID, Amount: sqltest.Dec(t, "5"), UTRNumber: "RACE-000001",
					PaymentMethod: "upi", Status: topup.StatusPending})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range results {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, topup.ErrUTRTaken):
				t.Errorf("racing Create: %v", err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d racing inserts of one UTR succeeded, want 1", ok)
		}
	})
}

func TestTopUpDecideIsConditional(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().TopUps
		owner := sqltest.NewUser(t, s)
		admins := make([]*user.User, 8)
		for i := range admins {
			admins[i] = sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleAdmin })
		}
		now := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
		r := newTopUp(t, s, owner.ID, "412345678901", "100", now.Add(-time.Hour))

		// Eight deciders at once, each in its own transaction: exactly one wins.
		var wg sync.WaitGroup
		results := make([]error, len(admins))
		for i, a := range admins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
					mine, err := st.TopUps.ByID(ctx, r.ID)
					if err != nil {
						return err
					}
					if i%2 == 0 {
						err = mine.Approve(a.ID, now, fmt.Sprint("by ", i))
					} else {
						err = mine.Reject(a.ID, now, fmt.Sprint("by ", i))
					}
					if err != nil {
						return err
					}
					return st.TopUps.Decide(ctx, mine)
				})
			}()
		}
		wg.Wait()
		winner := -1
		for i, err := range results {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("deciders %d and %d both won", winner, i)
				}
				winner = i
			case !errors.Is(err, topup.ErrAlreadyDecided):
				t.Fatalf("decider %d: %v", i, err)
			}
		}
		if winner < 0 {
			t.Fatal("nobody won")
		}
		got, err := repo.ByID(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := topup.StatusApproved
		if winner%2 == 1 {
			want = topup.StatusRejected
		}
		if got.Status != want || *got.ApprovedBy != admins[winner].ID || !got.ApprovedAt.Equal(now) ||
			*got.AdminRemarks != fmt.Sprint("by ", winner) || !got.UpdatedAt.Equal(now) {
			t.Fatalf("stored decision %+v, want the winner's (%d)", got, winner)
		}

		// A stale copy still saying pending cannot overwrite the decision.
		stale := *r
		if err := stale.Approve(admins[0].ID, now.Add(time.Hour), "stale"); err != nil {
			t.Fatal(err)
		}
		if err := repo.Decide(ctx, &stale); !errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("stale Decide = %v", err)
		}
		if again, _ := repo.ByID(ctx, r.ID); *again.AdminRemarks != *got.AdminRemarks {
			t.Fatal("a stale decision overwrote the first")
		}
		// Only decisions are written.
		if err := repo.Decide(ctx, r); err == nil || errors.Is(err, topup.ErrAlreadyDecided) {
			t.Fatalf("Decide of a pending copy = %v, want a programming error", err)
		}
	})
}

func TestTopUpListFilters(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().TopUps
		alice, bob, admin := sqltest.NewUser(t, s), sqltest.NewUser(t, s), sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleAdmin })
		base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		var all []*topup.Request
		for i := range 25 {
			owner := alice.ID
			if i%5 == 4 {
				owner = bob.ID
			}
			r := newTopUp(t, s, owner, fmt.Sprintf("UTR%09d", i), "10", base.Add(time.Duration(i)*24*time.Hour))
			all = append(all, r)
		}
		// Decide a few: 0, 1 approved; 2 rejected.
		for i, st := range map[int]topup.Status{0: topup.StatusApproved, 1: topup.StatusApproved, 2: topup.StatusRejected} {
			r := all[i]
			var err error
			if st == topup.StatusApproved {
				err = r.Approve(admin.ID, base.Add(time.Hour), "")
			} else {
				err = r.Reject(admin.ID, base.Add(time.Hour), "no")
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := repo.Decide(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		// Likes' wildcards are literal.
		newTopUp(t, s, bob.ID, "UTR-PCT-000", "10", base.Add(-24*time.Hour))

		aliceID, bobID := alice.ID, bob.ID
		cases := []struct {
			name     string
			f        topup.Filter
			total    int64
			firstUTR string
			rows     int
		}{
			{"all, newest (highest id) first", topup.Filter{}, 26, "UTR-PCT-000", 20},
			{"all, second page", topup.Filter{Page: 2}, 26, "UTR000000005", 6},
			{"per page", topup.Filter{Page: 3, PerPage: 10}, 26, "UTR000000005", 6},
			{"alice", topup.Filter{UserID: &aliceID}, 20, "UTR000000023", 20},
			{"bob", topup.Filter{UserID: &bobID}, 6, "UTR-PCT-000", 6},
			{"pending", topup.Filter{Status: topup.StatusPending}, 23, "UTR-PCT-000", 20},
			{"approved", topup.Filter{Status: topup.StatusApproved}, 2, "UTR000000001", 2},
			{"rejected of alice", topup.Filter{Status: topup.StatusRejected, UserID: &aliceID}, 1, "UTR000000002", 1},
			{"q part", topup.Filter{Q: "00000001"}, 11, "UTR000000019", 11},
			{"q lower case", topup.Filter{Q: "utr00000000"}, 10, "UTR000000009", 10},
			{"q wildcard is literal", topup.Filter{Q: "%"}, 0, "", 0},
			{"q underscore is literal", topup.Filter{Q: "UTR_"}, 0, "", 0},
			{"q hyphen", topup.Filter{Q: "-pct-"}, 1, "UTR-PCT-000", 1},
			{"range", topup.Filter{From: ptrTime(base.Add(2 * 24 * time.Hour)), To: ptrTime(base.Add(5 * 24 * time.Hour))}, 4, "UTR000000005", 4},
			{"from only", topup.Filter{From: ptrTime(base.Add(23 * 24 * time.Hour))}, 2, "UTR000000024", 2},
		}
		for _, tc := range cases {
			rows, total, err := repo.List(ctx, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if total != tc.total || len(rows) != tc.rows || (tc.rows > 0 && rows[0].UTRNumber != tc.firstUTR) {
				first := ""
				if len(rows) > 0 {
					first = rows[0].UTRNumber
				}
				t.Errorf("%s: total %d, %d rows, first %s; want %d, %d, %s", tc.name, total, len(rows), first, tc.total, tc.rows, tc.firstUTR)
			}
		}
	})
}

func ptrTime(t time.Time) *time.Time { return &t }
