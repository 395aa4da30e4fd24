package gatewaystore_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/core/gateway/accountopen"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

func newOpening(t *testing.T, userID uint64, ref string, created time.Time) *accountopen.Opening {
	t.Helper()
	o, _, err := accountopen.New(accountopen.Request{Name: "Asha Rao", DOB: "1990-05-17", PAN: "ABCPE1234F", Aadhaar: "234123412346",
		Mobile: "9876543210", Email: "asha@example.com", Address: "12 MG Road, Bengaluru", Product: "savings", ReferenceID: ref}, created)
	if err != nil {
		t.Fatal(err)
	}
	o.UserID, o.APIKeyID, o.NextCheckAt = userID, 6, created
	return o
}

// TestAccountOpeningsStore: create with its unique reference per user,
// reads, the conditional Advance, lists newest first with filters.
func TestAccountOpeningsStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Openings
		now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		o := newOpening(t, 5, "ao-1", now)
		if err := repo.Create(ctx, o); err != nil || o.ID == 0 {
			t.Fatalf("Create: %v", err)
		}
		dup := newOpening(t, 5, "ao-1", now)
		if err := repo.Create(ctx, dup); !errors.Is(err, accountopen.ErrReferenceReused) || errs.KindOf(err) != errs.Conflict {
			t.Fatalf("duplicate reference: %v", err)
		}
		if err := repo.Create(ctx, newOpening(t, 7, "ao-1", now.Add(time.Minute))); err != nil {
			t.Fatalf("another user's reference: %v", err)
		}
		got, err := repo.ByReference(ctx, 5, "ao-1")
		if err != nil || got.ID != o.ID || got.PublicID != o.PublicID || got.Applicant != o.Applicant || got.Status != accountopen.StatusInitiated ||
			!got.CreatedAt.Equal(now) || !got.NextCheckAt.Equal(now) || got.Applicant.Aadhaar != "XXXXXXXX2346" || got.Applicant.PAN != "XXXXXX234F" {
			t.Fatalf("ByReference: %+v %v", got, err)
		}
		if _, err := repo.ByReference(ctx, 5, "AO-1"); !errors.Is(err, accountopen.ErrNotFound) {
			t.Fatalf("references are case-sensitive: %v", err)
		}
		if _, err := repo.ByID(ctx, 999999); !errors.Is(err, accountopen.ErrNotFound) {
			t.Fatalf("ByID of nothing: %v", err)
		}

		// initiated → kyc_pending, then two writers race to an end state: one wins.
		pending, _, _ := got.Apply(accountopen.Outcome{Status: accountopen.StatusKYCPending, KYCURL: "https://kyc.example/1"}, now.Add(time.Second))
		pending.NextCheckAt = now.Add(6 * time.Second)
		if ok, err := repo.Advance(ctx, got, &pending); !ok || err != nil {
			t.Fatalf("Advance to kyc_pending: %v %v", ok, err)
		}
		if ok, _ := repo.Advance(ctx, got, &pending); ok {
			t.Fatal("Advance from a stale status won")
		}
		opened, _, _ := pending.Apply(accountopen.Outcome{Status: accountopen.StatusOpened, AccountNumber: "50100012345678", IFSC: "SBOX0000001"}, now.Add(time.Minute))
		rejected, _, _ := pending.Apply(accountopen.Outcome{Status: accountopen.StatusRejected, Reason: "no"}, now.Add(time.Minute))
		ok1, err1 := repo.Advance(ctx, &pending, &opened)
		ok2, err2 := repo.Advance(ctx, &pending, &rejected)
		if err1 != nil || err2 != nil || !ok1 || ok2 {
			t.Fatalf("Advance %v %v / %v %v", ok1, err1, ok2, err2)
		}
		got, _ = repo.ByID(ctx, o.ID)
		if got.Status != accountopen.StatusOpened || got.KYCURL != nil || *got.AccountNumber != "XXXXXXXXXX5678" || *got.IFSC != "SBOX0000001" ||
			got.RejectReason != nil || !got.UpdatedAt.Equal(now.Add(time.Minute)) {
			t.Fatalf("after Advance: %+v", got)
		}

		uid := uint64(5)
		if rows, total, err := repo.List(ctx, accountopen.Filter{UserID: &uid, Status: accountopen.StatusOpened}); err != nil || total != 1 || rows[0].ID != o.ID {
			t.Fatalf("List: %+v %d %v", rows, total, err)
		}
		if _, total, _ := repo.List(ctx, accountopen.Filter{UserID: &uid, Status: accountopen.StatusRejected}); total != 0 {
			t.Fatalf("List rejected: %d", total)
		}
		from := now.Add(30 * time.Second)
		rows, total, err := repo.List(ctx, accountopen.Filter{From: &from})
		if err != nil || total != 1 || rows[0].UserID != 7 {
			t.Fatalf("List from: %+v %d %v", rows, total, err)
		}
		if rows, total, _ := repo.List(ctx, accountopen.Filter{PerPage: 1}); total != 2 || len(rows) != 1 || rows[0].UserID != 7 {
			t.Fatalf("List newest first: %+v %d", rows, total)
		}
	})
}

// TestAccountOpeningsDueAndClaim: Due selects initiated and kyc_pending
// rows whose next_check_at has come, earliest first; Claim is won by
// exactly one of several workers, and not on a stale read.
func TestAccountOpeningsDueAndClaim(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Openings
		now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		mk := func(ref string, next time.Duration, status accountopen.Status) *accountopen.Opening {
			o := newOpening(t, 5, ref, now.Add(-time.Hour))
			o.NextCheckAt, o.Status = now.Add(next), status
			if status == accountopen.StatusKYCPending {
				u := "https://kyc.example/" + ref
				o.KYCURL = &u
			}
			if err := repo.Create(ctx, o); err != nil {
				t.Fatal(err)
			}
			return o
		}
		a := mk("a", -time.Minute, accountopen.StatusKYCPending)
		b := mk("b", -time.Hour, accountopen.StatusInitiated)
		mk("c", time.Second, accountopen.StatusKYCPending)
		d := mk("d", 0, accountopen.StatusKYCPending)
		mk("e", -2*time.Hour, accountopen.StatusOpened)
		mk("f", -2*time.Hour, accountopen.StatusRejected)
		due, err := repo.Due(ctx, now, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != 3 || due[0].ID != b.ID || due[1].ID != a.ID || due[2].ID != d.ID || *due[1].KYCURL != "https://kyc.example/a" {
			t.Fatalf("Due: %+v", due)
		}
		if l, _ := repo.Due(ctx, now, 1); len(l) != 1 || l[0].ID != b.ID {
			t.Fatalf("Due limit: %+v", l)
		}

		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				old := due[0]
				next := old.Claim(now)
				ok, err := repo.Claim(ctx, &old, &next, now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		got, _ := repo.ByID(ctx, b.ID)
		if wins != 1 || got.Attempts != 1 || !got.NextCheckAt.Equal(now.Add(accountopen.FirstCheck)) {
			t.Fatalf("%d winners, row %+v", wins, got)
		}
		old := due[0]
		next := old.Claim(now)
		if ok, _ := repo.Claim(ctx, &old, &next, now); ok {
			t.Fatal("stale claim won")
		}
		cur := *got
		next = cur.Claim(now)
		if ok, _ := repo.Claim(ctx, &cur, &next, now); ok {
			t.Fatal("claim won before next_check_at")
		}
		// A row whose status moved on since it was read is not claimed.
		stale := due[1]
		moved, _, _ := stale.Apply(accountopen.Outcome{Status: accountopen.StatusRejected}, now)
		if ok, _ := repo.Advance(ctx, &stale, &moved); !ok {
			t.Fatal("Advance a")
		}
		next = stale.Claim(now)
		if ok, _ := repo.Claim(ctx, &stale, &next, now); ok {
			t.Fatal("claim won on a finished row")
		}
		if l, _ := repo.Due(ctx, now, 10); len(l) != 1 || l[0].ID != d.ID {
			t.Fatalf("Due after: %+v", l)
		}
	})
}
