// Package issuing issues each account's GST documents for a month: one
// tax invoice of its billable charges, and credit notes for refunds of
// charges an earlier invoice billed (docs/decisions.md, "Tax invoices").
// A document is written whole, once, in the transaction that takes its
// number, under the account's row lock, so any number of instances and
// `server invoices issue` may run at once: numbers stay consecutive and
// nothing is issued twice. The documents and their pure Build are
// core/billing/invoice's, the tax rules core/billing/gst's (migration 00038).
//
// Billable. Supplies are metered and gateway calls (ledger api_hit debits,
// by service), plan fees (by plan) and collection fees (payment_fee);
// refunds of calls and payout fees give back. Top-ups, adjustments,
// transfers, payouts' and payments' principal are not supplies. A line is
// its entries summed: quantity = items billed less items refunded, unit
// price the items' one amount (or none when they differ), gross = the
// ledger's sum; SAC from the service (the built-in payment, recharge and
// payout services 997158, gateway.Services), collection fees 997158
// (invoice.GroupCollectionFee), else the supplier's default. A refund
// in the month of its charge nets in its line; a refund of an earlier
// month's charge is a credit note in the refund's month, one per corrected
// invoice, naming its number and date (CGST rule 53) and why, worded from
// what its refunds give back and stored with it ("Refund of the fee of a
// failed payout"; invoice.Month.Reasons, migration 00053), taxed at that
// invoice's rate and place. A refund of a charge from before invoicing
// began corrects nothing and is only logged.
//
// Tax. Prices include GST (core/billing/gst Heads): when the place of supply (the
// recipient's state, the supplier's without a profile) is the supplier's
// state, each line's CGST and SGST are equal halves of its exact tax,
// rounded half-up, and its taxable value the rest (the odd paisa there);
// else its taxable value is gross ÷ (1 + rate) rounded half-up and the rest
// IGST. Totals are the lines' sums, so their halves are equal too. The
// split is made once, when the document is issued, and stored: a document
// issued under an earlier rule keeps its figures. GST_RATE 0 issues bills
// of supply.
//
// Issue. IssueDue (the invoices worker, every minute on every instance)
// and `server invoices issue [--month] [--at]` (Issue) issue the month
// before --at, dated --at; a month not over is refused, a finished month
// (invoice_months) is skipped at once, a month nobody was charged in is
// finished without documents, settings complete or not, and nothing is
// issued while the supplier's settings are incomplete (409; the invoices
// worker logs that once an hour, not each minute). Each account in its own
// transaction under its row lock: the documents of that account and month
// are read, built, numbered and written whole with their invoice.issued
// event; (user, month, kind, corrected invoice) is unique; the owner is
// mailed after the commit. Months a long outage skipped are issued by the
// command, oldest first.
//
// Numbers. PG/26-27/000001: the prefix (1-2 characters, settings), the
// financial year of the issue date (April to March), a 6-digit sequence
// (at most 16 characters, rule 46); credit notes PGC/…. invoice_series
// holds each series' last number; the run creates its rows before any
// issuing transaction (so issuers only update: no insert races), and the
// transaction's update of the row takes the next number under its lock: a
// rolled-back issue gives its number back.
//
// Resellers (docs/decisions.md, "Tax invoices, credit notes and statements"). A
// customer's documents (users.parent_id set) are its reseller's: the
// supplier block, payee, prefix and series come from the reseller's own
// billing record (Parties.Issuer), its series keyed "R<id>:<prefix>/<fy>"
// so each reseller numbers from 000001 whatever prefix it chose; without a
// GSTIN it issues bills of supply. A reseller without a complete record
// holds its customers' documents and its own back (ErrResellerBillingMissing;
// never issued under the platform's name): the month stays open, the
// reseller is mailed once a month (invoice_holds). The platform's invoice
// to a reseller adds its customers' charges at its cost (invoice.AtCost:
// the customer's charge less the commission on it, a refund less the
// commission it cancelled, hits' commission_cancelled) in lines of their
// own ("Customers' calls: <service>", Line.Resold); charge and commission
// fall in the local month of the debit, as the customer's invoice bills
// it. A credit note is issued by the issuer of the invoice it corrects.
// A reseller lists its own documents and those it issued (Filter.Party,
// as=recipient|issuer) and reads both; anyone else's is not found.
//
// Reads. Upcoming builds this month so far with the same code, after the
// instance's pending charges are written; a month already issued for the
// account (its invoice written, or the month finished) has no draft. The PDF (adapters/invoicepdf,
// core fonts) of a document is the same bytes every time (creation date =
// issue date); text is made ASCII (₹ prints as "Rs.", accents dropped).
// Every charge is debited from the prepaid balance when it is made, so an
// invoice prints "Paid from prepaid balance" and a credit note "Credited to
// prepaid balance", never bank details as if money were due.
// Statement gives a month's opening balance (the balance before its first
// entry), credits (credits and refunds), debits and closing balance: as
// figures, as a PDF of up to 10,000 entries (then 422 statement_too_long:
// use the CSV), or as CSV oldest first between an opening and a closing
// row, under the export rules (core/platform/export). The ledger check
// (core/money/ledger/check/invoices.go) proves each document as stored, never
// split again: every line's taxable value and tax add up to its gross, its
// CGST and SGST are at most a paisa apart (equal under the rule above;
// a paisa apart in documents issued before it), totals are the lines'
// sums, and the gross equals its month's billable ledger entries.
//
// E-invoicing (einvoice.go). A B2B document (both GSTINs, not a bill of
// supply) is given to its issuer (the admin for the platform's, the
// reseller for its customers'; its recipient 403 not_issuer) in the
// e-invoice schema 1.1 (invoice.ToEInvoice; JSON by adapters/einvoice),
// and the portal's answer (IRN, acknowledgement, signed QR) is recorded
// once (invoice_irns, migration 00051; audited invoice.irn_record) and
// printed on the PDF with the QR code.
//
// Register. Register is a month's GSTR-1 register of an issuer (an
// admin: the platform; a reseller: the documents it issued, not the
// platform's to it; anyone else 403): the documents dated in the month
// (issued_at in TIMEZONE, so November's invoices are December's), each in
// its GSTR-1 table (invoice.SectionOf), and the SAC summary of their
// lines per scope (b2b, b2c), SAC and rate, credit notes subtracted,
// which adds up to the documents' net sums (invoice.NewRegister).
//
// Not done by the product: a connection to the e-invoice portal (IRNs are
// recorded, not fetched), filing returns (GSTR-1 is given as a register,
// GSTR-3B not at all), TDS. The
// invoice list (by month), each invoice's JSON and the transactions CSV are
// what an accountant's tools take in.
package issuing
