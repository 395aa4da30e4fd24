package billingstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore"
	"paygate/adapters/sqlstore/sqltest"
	"paygate/core/billing/invoice"
	"paygate/internal/testdb"
)

// An e-invoice registration on both databases: recorded once per document
// (a second one, or the same IRN for another document, is
// invoice.ErrIRNRecorded), read back whole by ByID and List; a document
// without one reads nil.
func TestInvoiceIRNRecordedOnce(t *testing.T) {
	t.Parallel()
	testdb.Each(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		st := s.Stores()
		u := sqltest.NewUser(t, s)
		at := time.Date(2026, 12, 1, 0, 5, 0, 0, time.UTC)
		var ids []uint64
		for i, month := range []string{"2026-10", "2026-11"} {
			inv := &invoice.Invoice{UserID: u.ID, Kind: invoice.KindInvoice, Number: fmt.Sprintf("PG/26-27/%06d", sqltest.Next()%999999+1), Month: month,
				IssuedAt: at, Rate: decimal.RequireFromString("18"), PlaceOfSupply: "29", CreatedAt: at,
				Lines: []invoice.Line{{Description: "Calls", SAC: "998319", Quantity: 1, Gross: decimal.RequireFromString("1.18"),
					Taxable: decimal.RequireFromString("1.00"), IGST: decimal.RequireFromString("0.18")}}}
			if err := st.Invoices.Insert(ctx, inv, "PG/26-27", sqltest.Next()+int64(i)); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, inv.ID)
		}
		irn := invoice.IRN{IRN: strings.Repeat("a1", 32), AckNo: "112610036563310", AckDate: at.Add(time.Hour),
			SignedQR: "eyJhbGciOiJSUzI1NiJ9.e30.c2ln", RecordedBy: 9, RecordedAt: at.Add(2 * time.Hour)}
		if err := st.Invoices.RecordIRN(ctx, ids[0], irn); err != nil {
			t.Fatal(err)
		}
		second := irn
		second.IRN = strings.Repeat("b2", 32)
		if err := st.Invoices.RecordIRN(ctx, ids[0], second); !errors.Is(err, invoice.ErrIRNRecorded) {
			t.Fatalf("a second IRN for the document: %v", err)
		}
		if err := st.Invoices.RecordIRN(ctx, ids[1], irn); !errors.Is(err, invoice.ErrIRNRecorded) {
			t.Fatalf("the same IRN for another document: %v", err)
		}
		got, err := st.Invoices.ByID(ctx, ids[0])
		if err != nil || got.IRN == nil || got.IRN.IRN != irn.IRN || got.IRN.AckNo != irn.AckNo || !got.IRN.AckDate.Equal(irn.AckDate) ||
			got.IRN.SignedQR != irn.SignedQR || got.IRN.RecordedBy != 9 || !got.IRN.RecordedAt.Equal(irn.RecordedAt) {
			t.Fatalf("read back %+v, %v", got, err)
		}
		if other, err := st.Invoices.ByID(ctx, ids[1]); err != nil || other.IRN != nil {
			t.Fatalf("the other document %+v, %v", other, err)
		}
		docs, _, err := st.Invoices.List(ctx, invoice.Filter{UserID: u.ID})
		if err != nil || len(docs) != 2 {
			t.Fatalf("list %v %v", docs, err)
		}
		for _, d := range docs {
			if (d.ID == ids[0]) != (d.IRN != nil) {
				t.Fatalf("listed %d with IRN %+v", d.ID, d.IRN)
			}
		}
	})
}
