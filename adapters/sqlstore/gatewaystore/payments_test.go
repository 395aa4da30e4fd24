package gatewaystore_test

import (
	"context"
	"errors"
	"fmt"
	"paygate/core/platform/store"
	"strings"
	"sync"
	"testing"
	"time"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/gateway/payment"
	"paygate/core/gateway/recharge"
	"paygate/core/gateway/verification"
	"paygate/core/platform/errs"
	"paygate/internal/testdb"
)

func TestPaymentsStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Payments
		now := time.Date(2026, 11, 21, 10, 0, 0, 123456000, time.UTC)
		p, err := payment.New(payment.Create{Amount: "99999.99", Currency: "INR", CustomerID: "c", CallbackURL: "https://x.example/cb"}, 5, 6, sqltest.Dec(t, "100000"), now)
		if err != nil {
			t.Fatal(err)
		}
		if err := repo.Create(ctx, p); err != nil || p.ID == 0 {
			t.Fatalf("Create: %v", err)
		}
		got, err := repo.ByPublicID(ctx, p.PublicID)
		if err != nil || got.ID != p.ID || !got.ExpiresAt.Equal(now.Add(payment.Lifetime)) || got.Status != payment.StatusCreated || got.CompletedAt != nil {
			t.Fatalf("ByPublicID: %+v %v", got, err)
		}
		sqltest.MustEqualDec(t, "amount", got.Amount, "99999.99")
		if _, err := repo.ByPublicID(ctx, "pay_nope"); !errors.Is(err, payment.ErrNotFound) {
			t.Fatalf("unknown: %v", err)
		}

		// The payer opens it, then two writers move it from the state they
		// read: only one wins.
		opened := *got
		if err := opened.Move(payment.StatusPending, now); err != nil {
			t.Fatal(err)
		}
		if ok, err := repo.Transition(ctx, &opened, payment.StatusCreated); !ok || err != nil {
			t.Fatalf("open: %v %v", ok, err)
		}
		a, b := opened, opened
		if err := a.Move(payment.StatusSuccess, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := b.Move(payment.StatusFailed, now.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		okA, errA := repo.Transition(ctx, &a, payment.StatusPending)
		okB, errB := repo.Transition(ctx, &b, payment.StatusPending)
		if errA != nil || errB != nil || !okA || okB {
			t.Fatalf("transitions %v %v / %v %v", okA, errA, okB, errB)
		}
		got, _ = repo.ByID(ctx, p.ID)
		if got.Status != payment.StatusSuccess || got.CompletedAt == nil {
			t.Fatalf("after: %+v", got)
		}

		// Expirable: open payments whose lifetime ended.
		q, _ := payment.New(payment.Create{Amount: "1", Currency: "INR", CustomerID: "c", CallbackURL: "https://x.example/cb"}, 5, 6, sqltest.Dec(t, "100000"), now)
		if err := repo.Create(ctx, q); err != nil {
			t.Fatal(err)
		}
		list, err := repo.Expirable(ctx, now.Add(payment.Lifetime), 10)
		if err != nil || len(list) != 1 || list[0].ID != q.ID {
			t.Fatalf("Expirable: %+v %v", list, err)
		}
		if list, _ := repo.Expirable(ctx, now.Add(time.Minute), 10); len(list) != 0 {
			t.Fatalf("expirable too early: %+v", list)
		}
		uid := uint64(5)
		rows, total, err := repo.List(ctx, payment.Filter{UserID: &uid, Status: payment.StatusCreated})
		if err != nil || total != 1 || rows[0].ID != q.ID {
			t.Fatalf("List: %+v %d %v", rows, total, err)
		}
	})
}

func TestIdempotencyKeysStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Idempotency
		now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		k := &payment.IdempotencyKey{UserID: 1, Key: "order-1", RequestHash: "h1", PaymentID: 10, ExpiresAt: now.Add(payment.IdempotencyTTL), CreatedAt: now}
		if err := repo.Claim(ctx, k, now); err != nil {
			t.Fatal(err)
		}
		// Keys are per user and case-sensitive.
		for _, other := range []*payment.IdempotencyKey{
			{UserID: 2, Key: "order-1", RequestHash: "h", PaymentID: 11, ExpiresAt: now.Add(time.Hour)},
			{UserID: 1, Key: "ORDER-1", RequestHash: "h", PaymentID: 12, ExpiresAt: now.Add(time.Hour)},
		} {
			if err := repo.Claim(ctx, other, now); err != nil {
				t.Fatalf("claim %+v: %v", other, err)
			}
		}
		// A live key cannot be claimed twice, even at once.
		var wg sync.WaitGroup
		var mu sync.Mutex
		conflicts := 0
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := repo.Claim(ctx, &payment.IdempotencyKey{UserID: 1, Key: "order-1", RequestHash: "h2", PaymentID: 13, ExpiresAt: now.Add(time.Hour)}, now)
				mu.Lock()
				defer mu.Unlock()
				if errs.KindOf(err) == errs.Conflict {
					conflicts++
				} else {
					t.Errorf("claim of a live key: %v", err)
				}
			}()
		}
		wg.Wait()
		if conflicts != 4 {
			t.Fatalf("%d conflicts", conflicts)
		}
		got, err := repo.Find(ctx, 1, "order-1", now)
		if err != nil || got.PaymentID != 10 || got.RequestHash != "h1" {
			t.Fatalf("Find: %+v %v", got, err)
		}
		// After 24 h the key is gone and can be claimed again.
		later := now.Add(payment.IdempotencyTTL)
		if _, err := repo.Find(ctx, 1, "order-1", later); errs.KindOf(err) != errs.NotFound {
			t.Fatalf("expired Find: %v", err)
		}
		if err := repo.Claim(ctx, &payment.IdempotencyKey{UserID: 1, Key: "order-1", RequestHash: "h3", PaymentID: 14, ExpiresAt: later.Add(time.Hour)}, later); err != nil {
			t.Fatalf("reclaim: %v", err)
		}
		if got, _ := repo.Find(ctx, 1, "order-1", later); got == nil || got.PaymentID != 14 {
			t.Fatalf("reclaimed: %+v", got)
		}
	})
}

func TestRechargesStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Recharges
		now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		r, err := recharge.New(recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "249.50", ReferenceID: "r-1"}, 5, 6, now)
		if err != nil {
			t.Fatal(err)
		}
		if err := repo.Create(ctx, r); err != nil || r.ID == 0 {
			t.Fatalf("Create: %v", err)
		}
		dup := *r
		dup.ID = 0
		if err := repo.Create(ctx, &dup); !errors.Is(err, recharge.ErrReferenceReused) || errs.KindOf(err) != errs.Conflict {
			t.Fatalf("duplicate reference: %v", err)
		}
		other := *r
		other.ID, other.UserID = 0, 7 // another user may use the same reference
		if err := repo.Create(ctx, &other); err != nil {
			t.Fatalf("other user's reference: %v", err)
		}
		got, err := repo.ByReference(ctx, 5, "r-1")
		if err != nil || got.ID != r.ID || got.Status != recharge.StatusPending {
			t.Fatalf("ByReference: %+v %v", got, err)
		}
		sqltest.MustEqualDec(t, "amount", got.Amount, "249.50")
		if _, err := repo.ByReference(ctx, 5, "R-1"); !errors.Is(err, recharge.ErrNotFound) {
			t.Fatalf("references are case-sensitive: %v", err)
		}
		if list, _ := repo.Due(ctx, now, 10); len(list) != 2 {
			t.Fatalf("Due: %+v", list)
		}
		// Finish only from pending: the second finisher loses.
		reason := "Operator declined"
		f1 := *got
		f1.Status, f1.FailReason = recharge.StatusFailed, &reason
		ok1, err1 := repo.Finish(ctx, &f1)
		f2 := *got
		f2.Status = recharge.StatusSuccess
		ok2, err2 := repo.Finish(ctx, &f2)
		if err1 != nil || err2 != nil || !ok1 || ok2 {
			t.Fatalf("Finish %v %v / %v %v", ok1, err1, ok2, err2)
		}
		got, _ = repo.ByID(ctx, r.ID)
		if got.Status != recharge.StatusFailed || got.FailReason == nil || *got.FailReason != reason {
			t.Fatalf("after Finish: %+v", got)
		}
		uid := uint64(5)
		if rows, total, err := repo.List(ctx, recharge.Filter{UserID: &uid, Status: recharge.StatusFailed}); err != nil || total != 1 || rows[0].ID != r.ID {
			t.Fatalf("List: %+v %d %v", rows, total, err)
		}
	})
}

// TestRechargesDueAndClaim: Due selects pending rows whose next_check_at
// has come, earliest first, whatever their ids; Claim is won by exactly one
// of several workers; MarkSubmitted and Finish keep submitted_at once set;
// flagged rows are listable.
func TestRechargesDueAndClaim(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		repo := s.Stores().Recharges
		now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
		mk := func(ref string, next time.Duration, submitted bool) *recharge.Recharge {
			r, err := recharge.New(recharge.Request{Mobile: "9876543210", Operator: "jio", Circle: "delhi", Amount: "20", ReferenceID: ref}, 5, 6, now.Add(-time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			r.NextCheckAt = now.Add(next)
			if submitted {
				at := now.Add(-time.Hour)
				r.SubmittedAt = &at
			}
			if err := repo.Create(ctx, r); err != nil {
				t.Fatal(err)
			}
			return r
		}
		a := mk("a", -time.Minute, true)   // due, oldest id
		b := mk("b", -time.Hour, false)    // due earliest
		mk("c", time.Second, true)         // not yet due
		d := mk("d", 0, true)              // due exactly now
		e := mk("e", -2*time.Minute, true) // due, then finished
		e.Status, e.UpdatedAt = recharge.StatusSuccess, now
		if ok, err := repo.Finish(ctx, e); !ok || err != nil {
			t.Fatalf("Finish: %v %v", ok, err)
		}
		due, err := repo.Due(ctx, now, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, r := range due {
			ids = append(ids, r.ID)
		}
		if len(ids) != 3 || ids[0] != b.ID || ids[1] != a.ID || ids[2] != d.ID {
			t.Fatalf("Due order %v, want [%d %d %d]", ids, b.ID, a.ID, d.ID)
		}
		if due[0].SubmittedAt != nil || due[1].SubmittedAt == nil || !due[1].NextCheckAt.Equal(now.Add(-time.Minute)) {
			t.Fatalf("Due rows: %+v", due[:2])
		}
		if l, _ := repo.Due(ctx, now, 1); len(l) != 1 || l[0].ID != b.ID {
			t.Fatalf("Due limit: %+v", l)
		}

		// Eight workers claim b at once: exactly one wins.
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
		if wins != 1 || got.Attempts != 1 || !got.NextCheckAt.Equal(now.Add(15*time.Second)) {
			t.Fatalf("%d winners, row %+v", wins, got)
		}
		// A stale read (attempts moved on), a submitted state that changed,
		// or a row not yet due is not claimed.
		old := due[0]
		next := old.Claim(now)
		if ok, _ := repo.Claim(ctx, &old, &next, now); ok {
			t.Fatal("stale claim won")
		}
		if l, _ := repo.Due(ctx, now, 10); len(l) != 2 {
			t.Fatalf("claimed row still due: %+v", l)
		}
		cur := *got
		at := now
		cur.SubmittedAt = &at
		next = cur.Claim(now.Add(time.Minute))
		if ok, _ := repo.Claim(ctx, &cur, &next, now.Add(time.Minute)); ok {
			t.Fatal("claim won on another submitted state")
		}
		cur = *got
		next = cur.Claim(now)
		if ok, _ := repo.Claim(ctx, &cur, &next, now); ok {
			t.Fatal("claim won before next_check_at")
		}

		// MarkSubmitted once; Finish keeps the first submitted_at.
		sub := *got
		at1 := now.Add(time.Second)
		sub.SubmittedAt, sub.NextCheckAt, sub.UpdatedAt = &at1, now.Add(16*time.Second), at1
		if ok, err := repo.MarkSubmitted(ctx, &sub); !ok || err != nil {
			t.Fatalf("MarkSubmitted: %v %v", ok, err)
		}
		at2 := now.Add(2 * time.Second)
		sub.SubmittedAt = &at2
		if ok, _ := repo.MarkSubmitted(ctx, &sub); ok {
			t.Fatal("marked submitted twice")
		}
		fin := sub
		fin.SubmittedAt, fin.Status, fin.UpdatedAt = nil, recharge.StatusSuccess, now.Add(time.Hour)
		if ok, err := repo.Finish(ctx, &fin); !ok || err != nil {
			t.Fatalf("Finish: %v %v", ok, err)
		}
		got, _ = repo.ByID(ctx, b.ID)
		if got.SubmittedAt == nil || !got.SubmittedAt.Equal(at1) || !got.NextCheckAt.Equal(now.Add(16*time.Second)) {
			t.Fatalf("after MarkSubmitted and Finish: %+v", got)
		}
		// An unsubmitted recharge finished by its first answer gets submitted_at.
		c2 := mk("f", 0, false)
		c2.Status, c2.UpdatedAt = recharge.StatusFailed, now
		if ok, _ := repo.Finish(ctx, c2); !ok {
			t.Fatal("Finish f")
		}
		if got, _ := repo.ByID(ctx, c2.ID); got.SubmittedAt == nil || !got.SubmittedAt.Equal(now) {
			t.Fatalf("f: %+v", got)
		}

		// A claim that flags the recharge makes it listable for reconciliation.
		old = due[1]
		late := now.Add(48 * time.Hour)
		next = old.Claim(late)
		if ok, err := repo.Claim(ctx, &old, &next, late); !ok || err != nil {
			t.Fatalf("flagging claim: %v %v", ok, err)
		}
		uid := uint64(5)
		rows, total, err := repo.List(ctx, recharge.Filter{UserID: &uid, NeedsReconciliation: true})
		if err != nil || total != 1 || rows[0].ID != a.ID || rows[0].ReconcileAt == nil || !rows[0].NeedsReconciliation() {
			t.Fatalf("reconciliation list: %+v %d %v", rows, total, err)
		}
		// ForEachByUser: the user's recharges in id order, another user's none.
		var seen []string
		if err := repo.ForEachByUser(ctx, 5, func(r recharge.Recharge) error { seen = append(seen, r.ReferenceID); return nil }); err != nil {
			t.Fatal(err)
		}
		if strings.Join(seen, ",") != "a,b,c,d,e,f" {
			t.Fatalf("ForEachByUser: %v", seen)
		}
		if err := repo.ForEachByUser(ctx, 6, func(r recharge.Recharge) error { t.Errorf("user 6: %+v", r); return nil }); err != nil {
			t.Fatal(err)
		}
	})
}

func TestVerificationsStore(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		rec := &verification.Record{UserID: 1, APIKeyID: 2, RequestID: "req_1", Type: verification.PAN, Masked: "ABXXXXXX4F",
			Verified: false, ReferenceID: "VRF1", Message: "PAN does not exist"}
		if err := s.Verifications().Create(context.Background(), rec); err != nil || rec.ID == 0 {
			t.Fatalf("Create: %v", err)
		}
		var name *string
		var masked string
		s.DB().Raw("SELECT name_at_source FROM verifications WHERE id = ?", rec.ID).Scan(&name)
		s.DB().Raw("SELECT masked_identifier FROM verifications WHERE id = ?", rec.ID).Scan(&masked)
		if name != nil || masked != "ABXXXXXX4F" {
			t.Fatalf("stored %v %q", name, masked)
		}
	})
}

// TestRechargeUpdatesLockOnlyTheirRow: a conditional update of one recharge
// (id and status 'pending') does not wait for a transaction holding another
// pending recharge. With few pending rows MariaDB used to read such an
// update through the (status, next_check_at) index, lock every pending
// row's entry there and deadlock with concurrent updates of other rows:
// a 503 for one of several concurrent mobile recharges.
func TestRechargeUpdatesLockOnlyTheirRow(t *testing.T) {
	t.Parallel()
	s := testdb.OpenMySQL(t)
	ctx := context.Background()
	repo := s.Stores().Recharges
	now := time.Now().UTC()
	var rs []*recharge.Recharge
	for i := range 12 {
		r, err := recharge.New(recharge.Request{Mobile: "9876543210", Operator: "bsnl", Circle: "assam", Amount: "100",
			ReferenceID: fmt.Sprintf("c-%d", i)}, 5, 6, now)
		if err != nil {
			t.Fatal(err)
		}
		r.NextCheckAt = now
		if err := repo.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	// Two pending rows left: the status index then looks as selective as
	// the primary key to the optimizer.
	if err := s.DB().Exec("DELETE FROM recharges WHERE id > ?", rs[1].ID).Error; err != nil {
		t.Fatal(err)
	}
	first, second := rs[0], rs[1]

	held, release := make(chan struct{}), make(chan struct{})
	txErr := make(chan error, 1)
	go func() {
		txErr <- s.WithinTx(ctx, func(ctx context.Context, st store.Stores) error {
			done := *second
			done.Status, done.UpdatedAt = recharge.StatusSuccess, now
			if ok, err := st.Recharges.Finish(ctx, &done); err != nil || !ok {
				return fmt.Errorf("finish %d: %v %v", second.ID, ok, err)
			}
			close(held)
			<-release
			return nil
		})
	}()
	select {
	case <-held:
	case err := <-txErr:
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	next := *first
	at := now.Add(time.Second)
	next.SubmittedAt, next.UpdatedAt, next.NextCheckAt = &at, at, at.Add(time.Minute)
	ok, err := repo.MarkSubmitted(cctx, &next)
	var finished bool
	if err == nil {
		done := next
		done.Status = recharge.StatusFailed
		finished, err = repo.Finish(cctx, &done)
	}
	cancel()
	close(release)
	if txErr := <-txErr; txErr != nil {
		t.Fatal(txErr)
	}
	if err != nil || !ok || !finished {
		t.Fatalf("updates of recharge %d while %d is locked: marked %v, finished %v, %v", first.ID, second.ID, ok, finished, err)
	}
}
