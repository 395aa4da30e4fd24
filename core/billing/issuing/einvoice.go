package issuing

import (
	"context"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/billing/invoice"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
)

// E-invoicing. A B2B document's e-invoice and its IRN belong to its
// supplier: the platform's admin for the platform's documents, the
// reseller for those it issued to its customers. Anyone who may read the
// document but did not issue it (its recipient, an admin for a reseller's
// customer's document) is refused with 403 not_issuer; anyone else is
// told it does not exist, as for every invoice route.

// ErrNotIssuer: only a document's issuer handles its e-invoice.
var ErrNotIssuer = errs.E(errs.Forbidden, "not_issuer", "Only the issuer of this document handles its e-invoice")

// IRNInput is the portal's answer as its issuer sends it (AckDate RFC
// 3339).
type IRNInput struct {
	IRN, AckNo, AckDate, SignedQR string
}

// asIssuer is document id when actor issued it.
func (v *Invoicing) asIssuer(ctx context.Context, actor *user.User, id uint64) (*invoice.Invoice, error) {
	inv, err := v.Get(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	platform := inv.IssuerID == nil && actor.Role == user.RoleAdmin
	reseller := inv.IssuerID != nil && actor.Role == user.RoleReseller && *inv.IssuerID == actor.ID
	if !platform && !reseller {
		return nil, ErrNotIssuer
	}
	return inv, nil
}

// EInvoice is document id in the e-invoice schema (invoice.ToEInvoice),
// for its issuer; 409 not_b2b for a document without both GSTINs.
func (v *Invoicing) EInvoice(ctx context.Context, actor *user.User, id uint64) (*invoice.EInvoice, error) {
	inv, err := v.asIssuer(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	return invoice.ToEInvoice(inv, v.cfg.Location)
}

// RecordIRN records the portal's answer for B2B document id, once
// (invoice.ErrIRNRecorded after), audited in the same transaction; the
// document is returned with it.
func (v *Invoicing) RecordIRN(ctx context.Context, actor *user.User, id uint64, in IRNInput) (*invoice.Invoice, error) {
	inv, err := v.asIssuer(ctx, actor, id)
	if err != nil {
		return nil, err
	}
	if !inv.B2B() {
		return nil, invoice.ErrNotB2B
	}
	now := v.now()
	irn, err := invoice.NewIRN(in.IRN, in.AckNo, in.AckDate, in.SignedQR, actor.ID, now)
	if err != nil {
		return nil, err
	}
	err = v.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Invoices.RecordIRN(ctx, id, irn); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, actor, audit.InvoiceIRNRecord, audit.TargetInvoice, id, nil, map[string]any{
			"number": inv.Number, "irn": irn.IRN, "ack_no": irn.AckNo, "ack_date": irn.AckDate})
	})
	if err != nil {
		return nil, err
	}
	inv.IRN = &irn
	return inv, nil
}
