package billingstore

import (
	"context"
	"fmt"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/billing/invoice"
)

// invoiceIRNRow is a document's e-invoice registration (migration 00051):
// a row of its own, so an issued document's row never changes.
type invoiceIRNRow struct {
	InvoiceID  uint64     `gorm:"column:invoice_id;primaryKey;autoIncrement:false"`
	IRN        string     `gorm:"column:irn"`
	AckNo      string     `gorm:"column:ack_no"`
	AckDate    *time.Time `gorm:"column:ack_date"`
	SignedQR   string     `gorm:"column:signed_qr"`
	RecordedBy uint64     `gorm:"column:recorded_by"`
	CreatedAt  *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (invoiceIRNRow) TableName() string { return "invoice_irns" }

func (s *InvoiceStore) RecordIRN(ctx context.Context, id uint64, irn invoice.IRN) error {
	ack, at := sqlbase.DBTime(irn.AckDate), sqlbase.DBTime(irn.RecordedAt)
	r := invoiceIRNRow{InvoiceID: id, IRN: irn.IRN, AckNo: irn.AckNo, AckDate: &ack, SignedQR: irn.SignedQR, RecordedBy: irn.RecordedBy, CreatedAt: &at}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return fmt.Errorf("record the IRN of invoice %d: %w", id, invoice.ErrIRNRecorded.Wrap(err))
		}
		return fmt.Errorf("record the IRN of invoice %d: %w", id, sqlbase.Translate(err))
	}
	return nil
}

// withIRNs sets the IRN of each of docs that has one recorded.
func (s *InvoiceStore) withIRNs(ctx context.Context, docs []invoice.Invoice) error {
	if len(docs) == 0 {
		return nil
	}
	ids := make([]uint64, len(docs))
	for i := range docs {
		ids[i] = docs[i].ID
	}
	var rows []invoiceIRNRow
	if err := s.Conn(ctx).Where("invoice_id IN ?", ids).Find(&rows).Error; err != nil {
		return fmt.Errorf("IRNs of invoices: %w", sqlbase.Translate(err))
	}
	by := make(map[uint64]*invoice.IRN, len(rows))
	for _, r := range rows {
		by[r.InvoiceID] = &invoice.IRN{IRN: r.IRN, AckNo: r.AckNo, AckDate: sqlbase.TimeFromDB(r.AckDate), SignedQR: r.SignedQR,
			RecordedBy: r.RecordedBy, RecordedAt: sqlbase.TimeFromDB(r.CreatedAt)}
	}
	for i := range docs {
		docs[i].IRN = by[docs[i].ID]
	}
	return nil
}
