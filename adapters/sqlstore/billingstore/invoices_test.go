package billingstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/internal/testdb"
)

// The invoice store's reseller reads on both databases: CustomerCharges
// sums a reseller's customers' calls with the commission earned (kept or
// cancelled by a refund since) and, for a refund, the commission it
// cancelled; Charged names the reseller of a charged customer; numbers are
// unique per issuer (two resellers may use the same prefix, one may not
// reuse a number); a list by Party or IssuerID holds a reseller's own and
// issued documents; Hold is true once per reseller and month.
func TestInvoiceStoreResellerReads(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		st := s.Stores()
		reseller := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		rid := reseller.ID
		cust := sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &rid })
		_, svc, _ := sqltest.NewCaller(t, s)
		k := sqltest.NewKey(t, s, cust)
		from := time.Now().UTC().Truncate(time.Hour).Add(-3 * time.Hour)
		to := from.Add(3 * time.Hour)
		var hits []*hitlog.Hit
		for i := range 3 {
			at := from.Add(time.Duration(i+1) * time.Minute)
			hits = append(hits, &hitlog.Hit{UserID: cust.ID, ServiceID: svc.ID, APIKeyID: k.ID, RequestID: fmt.Sprintf("ic-%d-%d", sqltest.Next(), i),
				RequestPayload: "{}", Status: hitlog.StatusSuccess, ResellerID: &rid, Commission: decimal.RequireFromString("0.5000"),
				ChargeAmount: decimal.RequireFromString("2.0000"), CostAmount: decimal.Zero, Reserved: decimal.Zero, IPAddress: "127.0.0.1",
				CreatedAt: at, UpdatedAt: at})
		}
		if err := st.Hits.InsertMany(ctx, hits); err != nil {
			t.Fatal(err)
		}
		balance := decimal.RequireFromString("100")
		entry := func(typ ledger.Type, hitID uint64, at time.Time) *ledger.Entry {
			amount := decimal.RequireFromString("2.00")
			before := balance
			balance, _ = ledger.Apply(balance, typ, amount)
			id := hitID
			return &ledger.Entry{UserID: cust.ID, TxnID: ledger.NewTxnID(at), Type: typ, Amount: amount, BalanceBefore: before,
				BalanceAfter: balance, ReferenceType: ledger.RefAPIHit, ReferenceID: &id, Status: "completed", CreatedAt: at}
		}
		entries := []*ledger.Entry{entry(ledger.Debit, hits[0].ID, hits[0].CreatedAt), entry(ledger.Debit, hits[1].ID, hits[1].CreatedAt),
			entry(ledger.Debit, hits[2].ID, hits[2].CreatedAt), entry(ledger.Refund, hits[2].ID, hits[2].CreatedAt.Add(time.Minute))}
		if err := st.Ledger.InsertMany(ctx, entries); err != nil {
			t.Fatal(err)
		}
		if err := s.WithinTx(ctx, func(ctx context.Context, tx store.Stores) error {
			_, err := tx.Commissions.CancelHit(ctx, hits[2].ID)
			return err
		}); err != nil {
			t.Fatal(err)
		}

		charges, err := st.Invoices.CustomerCharges(ctx, rid, from, to)
		if err != nil {
			t.Fatal(err)
		}
		got := map[ledger.Type]invoice.Charge{}
		for _, c := range charges {
			got[c.Type] = c
		}
		if d := got[ledger.Debit]; len(charges) != 2 || d.Count != 3 || !d.Amount.Equal(decimal.RequireFromString("6")) ||
			!d.Commission.Equal(decimal.RequireFromString("1.5")) || !got[ledger.Refund].Commission.Equal(decimal.RequireFromString("0.5")) {
			t.Fatalf("customer charges %+v", charges)
		}
		if own, err := st.Invoices.Charges(ctx, cust.ID, from, to); err != nil || len(own) != 2 || !own[0].Commission.IsZero() {
			t.Fatalf("the customer's own charges %+v, %v", own, err)
		}
		if none, err := st.Invoices.CustomerCharges(ctx, cust.ID, from, to); err != nil || len(none) != 0 {
			t.Fatalf("a customer has no customers: %+v, %v", none, err)
		}
		ids, err := st.Invoices.Charged(ctx, from, to, 0, 100)
		if err != nil || !slices.Contains(ids, rid) || !slices.Contains(ids, cust.ID) {
			t.Fatalf("charged %v, %v: want the customer %d and its reseller %d", ids, err, cust.ID, rid)
		}

		other := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		oid := other.ID
		doc := func(userID uint64, issuer *uint64, number, series string, seq int64, month string) error {
			inv := &invoice.Invoice{UserID: userID, IssuerID: issuer, Kind: invoice.KindInvoice, Number: number, Month: month,
				IssuedAt: to, Rate: decimal.Zero, PlaceOfSupply: "29", CreatedAt: to,
				Lines: []invoice.Line{{Description: "Customers' calls: x", SAC: "998319", Quantity: 1, Gross: decimal.RequireFromString("1"),
					Taxable: decimal.RequireFromString("1"), Resold: true}}}
			return st.Invoices.Insert(ctx, inv, series, seq)
		}
		if err := doc(cust.ID, &rid, "IN/26-27/000001", fmt.Sprintf("R%d:IN/26-27", rid), 1, "2026-11"); err != nil {
			t.Fatal(err)
		}
		if err := doc(sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &oid }).ID, &oid, "IN/26-27/000001", fmt.Sprintf("R%d:IN/26-27", oid), 1, "2026-11"); err != nil {
			t.Fatalf("another reseller's IN/26-27/000001: %v", err)
		}
		var e *errs.Error
		if err := doc(sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &rid }).ID, &rid, "IN/26-27/000001", fmt.Sprintf("R%d:IN/26-27", rid), 2, "2026-11"); !errors.As(err, &e) || e.Kind != errs.Conflict {
			t.Fatalf("a number reused by its issuer: %v", err)
		}
		if err := doc(rid, nil, fmt.Sprintf("PG/26-27/%06d", sqltest.Next()%999999+1), "PG/26-27", sqltest.Next(), "2026-11"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			f    invoice.Filter
			want int
		}{{invoice.Filter{Party: rid}, 2}, {invoice.Filter{IssuerID: rid}, 1}, {invoice.Filter{UserID: rid}, 1}, {invoice.Filter{IssuerID: oid}, 1}} {
			docs, n, err := st.Invoices.List(ctx, c.f)
			if err != nil || n != int64(c.want) || len(docs) != c.want {
				t.Fatalf("list %+v: %d %v, want %d", c.f, n, err, c.want)
			}
			for _, d := range docs {
				if d.UserID != rid && (d.IssuerID == nil || !d.Lines[0].Resold) {
					t.Fatalf("document %+v lost its issuer or its resold line", d)
				}
			}
		}

		for i, want := range []bool{true, false} {
			if first, err := st.Invoices.Hold(ctx, rid, "2026-11", to); err != nil || first != want {
				t.Fatalf("hold %d: %v, %v", i, first, err)
			}
		}
	})
}

// ByIssueDate reads one issuer's documents dated in [from, to) on both
// databases, with their lines and parties, in issue order: the platform's
// (issuer 0) without any reseller's, a reseller's without the platform's
// to it, nothing dated on either side of the range.
func TestInvoiceStoreByIssueDate(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		st := s.Stores()
		reseller := sqltest.NewUser(t, s, func(u *user.User) { u.Role = user.RoleReseller })
		rid := reseller.ID
		from := time.Date(2026, 11, 30, 18, 30, 0, 0, time.UTC) // 1 December, IST
		to := time.Date(2026, 12, 31, 18, 30, 0, 0, time.UTC)
		months := 0 // each document its own month: (user, month, kind) is unique
		doc := func(userID uint64, issuer *uint64, kind invoice.Kind, series string, at time.Time) uint64 {
			seq := sqltest.Next()
			months++
			_, prefix, _ := strings.Cut(series, ":") // a reseller's series is "R<id>:IN/26-27", its numbers "IN/26-27/000001"
			if prefix == "" {
				prefix = series
			}
			inv := &invoice.Invoice{UserID: userID, IssuerID: issuer, Kind: kind, Number: fmt.Sprintf("%s/%06d", prefix, seq%999999+1),
				Month: fmt.Sprintf("2026-%02d", months), IssuedAt: at, Rate: decimal.RequireFromString("18"), PlaceOfSupply: "29",
				Supplier: invoice.Party{LegalName: "Supplier", State: "27"}, Recipient: invoice.Party{LegalName: "Buyer LLP", State: "29", GSTIN: "29AAGCB7383J1Z4"},
				CreatedAt: at, Lines: []invoice.Line{{Description: "Calls", SAC: "997158", Quantity: 3, Gross: decimal.RequireFromString("3.54"),
					Taxable: decimal.RequireFromString("3.00"), IGST: decimal.RequireFromString("0.54")}}}
			inv.Totals = invoice.Sum(inv.Lines)
			if err := st.Invoices.Insert(ctx, inv, series, seq); err != nil {
				t.Fatal(err)
			}
			return inv.ID
		}
		u1, u2 := sqltest.NewUser(t, s), sqltest.NewUser(t, s)
		cust := sqltest.NewUser(t, s, func(u *user.User) { u.ParentID = &rid })
		doc(u1.ID, nil, invoice.KindInvoice, "PG/26-27", from.Add(-time.Microsecond)) // November's last instant
		second := doc(u2.ID, nil, invoice.KindInvoice, "PG/26-27", from.Add(time.Hour))
		first := doc(u1.ID, nil, invoice.KindInvoice, "PG/26-27", from)
		credit := doc(u1.ID, nil, invoice.KindCreditNote, "PGC/26-27", to.Add(-time.Microsecond))
		doc(u2.ID, nil, invoice.KindInvoice, "PG/26-27", to) // January's first instant
		toReseller := doc(rid, nil, invoice.KindInvoice, "PG/26-27", from.Add(2*time.Hour))
		issued := doc(cust.ID, &rid, invoice.KindInvoice, fmt.Sprintf("R%d:IN/26-27", rid), from.Add(3*time.Hour))

		for _, c := range []struct {
			issuer uint64
			want   []uint64
		}{{0, []uint64{first, second, toReseller, credit}}, {rid, []uint64{issued}}, {u1.ID, nil}} {
			docs, err := st.Invoices.ByIssueDate(ctx, c.issuer, from, to)
			if err != nil {
				t.Fatal(err)
			}
			var got []uint64
			for _, d := range docs {
				got = append(got, d.ID)
				if len(d.Lines) != 1 || d.Lines[0].SAC != "997158" || d.Lines[0].Quantity != 3 || !d.Totals.Gross.Equal(decimal.RequireFromString("3.54")) ||
					d.Recipient.GSTIN != "29AAGCB7383J1Z4" || d.IssuedAt.Before(from) || !d.IssuedAt.Before(to) {
					t.Fatalf("document %d read back as %+v", d.ID, d)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("issuer %d: documents %v, want %v", c.issuer, got, c.want)
			}
		}
	})
}
