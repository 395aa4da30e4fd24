package storecontract

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"paygate/core/money/ledger"
)

// ledgerContract: entries take ascending ids in the order written (Insert
// sets the entry's; InsertMany need not), the list is newest first by id (the order the balance
// changed in, whatever created_at says) with its filters, pages and count,
// ForEach visits the list's order across its keyset pages (oldest first
// with Oldest), and ForEachByUser visits by id.
func ledgerContract(t *testing.T, c *contract) {
	ctx, l := c.ctx, c.s.Ledger
	entry := func(userID uint64, typ ledger.Type, ref, desc string, created time.Time) *ledger.Entry {
		return &ledger.Entry{UserID: userID, TxnID: ledger.NewTxnID(created), Type: typ, Amount: dec("10.00"),
			BalanceBefore: dec("100.00"), BalanceAfter: dec("90.00"), ReferenceType: ref, Description: desc,
			Status: "completed", CreatedAt: created}
	}
	descs := func(es []ledger.Entry) []string {
		out := []string{}
		for _, e := range es {
			out = append(out, e.Description)
		}
		return out
	}

	t.Run("ids follow the order written", func(t *testing.T) {
		u := c.user(t)
		one := entry(u.ID, ledger.Credit, ledger.RefPayment, "one", at)
		if err := l.Insert(ctx, one); err != nil || one.ID == 0 {
			t.Fatalf("Insert: id %d, %v", one.ID, err)
		}
		many := []*ledger.Entry{entry(u.ID, ledger.Debit, ledger.RefAPIHit, "two", at), entry(u.ID, ledger.Debit, ledger.RefAPIHit, "three", at)}
		if err := l.InsertMany(ctx, many); err != nil {
			t.Fatal(err)
		}
		got, total, err := l.List(ctx, ledger.Filter{UserID: &u.ID})
		if err != nil || total != 3 || !slices.Equal(descs(got), []string{"three", "two", "one"}) ||
			!(got[0].ID > got[1].ID && got[1].ID > got[2].ID) {
			t.Fatalf("List: %v (total %d), %v; want three, two, one with ids descending", descs(got), total, err)
		}
		e := got[2]
		if e.ID != one.ID || e.TxnID != one.TxnID || e.Type != ledger.Credit || !e.Amount.Equal(dec("10.00")) ||
			!e.BalanceBefore.Equal(dec("100.00")) || !e.BalanceAfter.Equal(dec("90.00")) || e.ReferenceType != ledger.RefPayment ||
			!e.CreatedAt.Equal(at) || e.Status != "completed" {
			t.Fatalf("read back %+v, want %+v", e, *one)
		}
	})

	t.Run("lists and exports", func(t *testing.T) {
		a, b := c.user(t), c.user(t)
		s := func(n int) time.Time { return at.Add(time.Duration(n) * time.Second) }
		// Written in this order; created_at out of it.
		for _, e := range []*ledger.Entry{
			entry(a.ID, ledger.Credit, ledger.RefPayment, "e1", s(2)),
			entry(a.ID, ledger.Debit, ledger.RefAPIHit, "e2", s(0)),
			entry(b.ID, ledger.Credit, ledger.RefPayment, "eb", s(1)),
			entry(a.ID, ledger.Debit, ledger.RefAPIHit, "e3", s(1)),
			entry(a.ID, ledger.Refund, ledger.RefAPIHit, "e4", s(3)),
		} {
			if err := l.Insert(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		from, to := s(1), s(2)
		cases := []struct {
			name string
			f    ledger.Filter
			want []string
		}{
			{"the user's", ledger.Filter{UserID: &a.ID}, []string{"e4", "e3", "e2", "e1"}},
			{"debits", ledger.Filter{UserID: &a.ID, Type: ledger.Debit}, []string{"e3", "e2"}},
			{"a reference type", ledger.Filter{UserID: &a.ID, ReferenceType: ledger.RefPayment}, []string{"e1"}},
			{"inclusive dates", ledger.Filter{UserID: &a.ID, From: &from, To: &to}, []string{"e3", "e1"}},
			{"everyone's credits", ledger.Filter{Type: ledger.Credit, From: &from, To: &to}, []string{"eb", "e1"}},
		}
		for _, tc := range cases {
			got, total, err := l.List(ctx, tc.f)
			if err != nil || !slices.Equal(descs(got), tc.want) || total != int64(len(tc.want)) {
				t.Errorf("List %s: %v (total %d), %v; want %v", tc.name, descs(got), total, err, tc.want)
			}
			oldest := tc.f
			oldest.Oldest = true
			if got, _, _ := l.List(ctx, oldest); !slices.Equal(descs(got), tc.want) {
				t.Errorf("List %s with Oldest: %v; want %v (List ignores it)", tc.name, descs(got), tc.want)
			}
			var visited []ledger.Entry
			if err := l.ForEach(ctx, tc.f, func(e ledger.Entry) error { visited = append(visited, e); return nil }); err != nil ||
				!slices.Equal(descs(visited), tc.want) {
				t.Errorf("ForEach %s: %v, %v; want %v", tc.name, descs(visited), err, tc.want)
			}
			visited = nil
			want := slices.Clone(tc.want)
			slices.Reverse(want)
			if err := l.ForEach(ctx, oldest, func(e ledger.Entry) error { visited = append(visited, e); return nil }); err != nil ||
				!slices.Equal(descs(visited), want) {
				t.Errorf("ForEach %s, oldest first: %v, %v; want %v", tc.name, descs(visited), err, want)
			}
		}
		got, total, err := l.List(ctx, ledger.Filter{UserID: &a.ID, Page: 2, PerPage: 3})
		if err != nil || !slices.Equal(descs(got), []string{"e1"}) || total != 4 {
			t.Errorf("page 2 of 3: %v (total %d), %v", descs(got), total, err)
		}
		var byUser []ledger.Entry
		if err := l.ForEachByUser(ctx, a.ID, func(e ledger.Entry) error { byUser = append(byUser, e); return nil }); err != nil ||
			!slices.Equal(descs(byUser), []string{"e1", "e2", "e3", "e4"}) {
			t.Errorf("ForEachByUser: %v, %v; want id order", descs(byUser), err)
		}
		stop := errors.New("stop")
		n := 0
		err = l.ForEach(ctx, ledger.Filter{UserID: &a.ID, Oldest: true}, func(ledger.Entry) error {
			if n++; n == 3 {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) || n != 3 {
			t.Errorf("ForEach after fn's error: %v after %d entries; want fn's error after 3", err, n)
		}
	})

	t.Run("pages: 20 by default, 100 at most", func(t *testing.T) {
		u := c.user(t)
		var many []*ledger.Entry
		for i := range 101 {
			many = append(many, entry(u.ID, ledger.Debit, ledger.RefAPIHit, fmt.Sprintf("n%03d", i), at))
		}
		if err := l.InsertMany(ctx, many); err != nil {
			t.Fatal(err)
		}
		for _, pg := range []struct{ perPage, want int }{{0, 20}, {500, 100}, {7, 7}} {
			got, total, err := l.List(ctx, ledger.Filter{UserID: &u.ID, PerPage: pg.perPage})
			if err != nil || len(got) != pg.want || total != 101 || got[0].Description != "n100" {
				t.Errorf("PerPage %d: %d rows from %v (total %d), %v; want %d from n100 of 101", pg.perPage, len(got), descs(got[:min(1, len(got))]), total, err, pg.want)
			}
		}
	})
}
