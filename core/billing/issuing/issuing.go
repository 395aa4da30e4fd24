package issuing

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/user"
	"paygate/core/billing/gst"
	"paygate/core/billing/invoice"
	"paygate/core/billing/plan"
	"paygate/core/events/webhook"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// Supplier is the supplier's side of every document, read in the issuing
// transaction.
type Supplier struct {
	Party  invoice.Party
	Payee  invoice.Payee
	Prefix string // invoice series prefix ("PG"); credit notes add "C"
	SAC    string // the default SAC code
	// IssuerID is the reseller issuing its customers' documents; nil: the
	// platform.
	IssuerID *uint64
}

// series is the invoice_series key of prefix's series in financial year
// fy: "PG/26-27" for the platform, "R12:AB/26-27" for reseller 12, so each
// reseller numbers its own documents from 1.
func (sup *Supplier) series(prefix, fy string) string {
	if sup.IssuerID == nil {
		return prefix + "/" + fy
	}
	return fmt.Sprintf("R%d:%s/%s", *sup.IssuerID, prefix, fy)
}

// Parties reads the supplier's settings and an account's billing profile
// (its recipient block; the account's name and email when it has none).
type Parties interface {
	// Ready refuses to issue documents while the supplier's settings
	// cannot make one at rate (taxprofile.ErrSupplierIncomplete).
	Ready(ctx context.Context, p Profiles, rate decimal.Decimal) error
	Supplier(ctx context.Context, p Profiles) (*Supplier, error)
	// Issuer is reseller resellerID's supplier block, prefix and series
	// for its customers' documents; ErrResellerBillingMissing while it
	// cannot make one.
	Issuer(ctx context.Context, r ResellerBilling, resellerID uint64) (*Supplier, error)
	Recipient(ctx context.Context, p Profiles, u *user.User) (invoice.Party, error)
}

// Notify mails an account's owner after the transaction committed.
type Notify func(ctx context.Context, to, subject, text string)

// Config is what invoicing needs of the configuration.
type Config struct {
	Location      *time.Location  // TIMEZONE: months and the financial year
	Rate          decimal.Decimal // GST_RATE in percent; 0 issues bills of supply
	PublicBaseURL string          // links in events and mail
	Livemode      bool            // the events' livemode
}

// Deps are the ports invoicing runs on.
type Deps struct {
	Tx      store.TransactorOf[TxStores]
	Stores  Stores
	Parties Parties
	// Renderer draws the documents as PDF (adapters/invoicepdf); nil
	// answers 503.
	Renderer invoice.Renderer
	Notify   Notify
	// Settled returns once the charges of calls this instance answered
	// are written (metering's fence): the draft and the issue read them.
	Settled func(ctx context.Context) error
	Now     func() time.Time
	Log     *slog.Logger
	Metrics Metrics // may be nil
	Config  Config
}

// Metrics receives invoicing's measurements (adapters/metrics).
type Metrics interface {
	// DocumentIssued counts a tax document of kind (invoice, credit_note)
	// once the transaction that numbered it committed.
	DocumentIssued(kind string)
}

type nopMetrics struct{}

func (nopMetrics) DocumentIssued(string) {}

// Invoicing is the documents' use cases.
type Invoicing struct {
	tx       store.TransactorOf[TxStores]
	s        Stores
	parties  Parties
	renderer invoice.Renderer
	notify   Notify
	settled  func(ctx context.Context) error
	now      func() time.Time
	log      *slog.Logger
	metrics  Metrics
	cfg      Config
}

func New(d Deps) *Invoicing {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Config.Location == nil {
		d.Config.Location = time.UTC
	}
	if d.Settled == nil {
		d.Settled = func(context.Context) error { return nil }
	}
	if d.Metrics == nil {
		d.Metrics = nopMetrics{}
	}
	return &Invoicing{tx: d.Tx, s: d.Stores, parties: d.Parties, renderer: d.Renderer, notify: d.Notify, settled: d.Settled,
		now: d.Now, log: d.Log, metrics: d.Metrics, cfg: d.Config}
}

// ErrResellerBillingMissing: a customer's documents are its reseller's to
// issue (docs/decisions.md, "Tax invoices, credit notes and statements") and the
// reseller has no billing record that makes one yet. The customer's and the
// reseller's documents of the month wait (never issued under the
// platform's name) and the month stays open until it saves one.
var ErrResellerBillingMissing = errs.E(errs.Conflict, "reseller_billing_missing",
	"The reseller's billing settings are missing or incomplete: its customers' invoices wait for them")

// ErrMonthNotOver refuses to invoice a month that has not ended.
var ErrMonthNotOver = errs.E(errs.Invalid, "month_not_over", "The month has not ended yet")

// batch is how many accounts one query of a round picks.
const batch = 100

// Result counts what a run issued.
type Result struct {
	Invoices, CreditNotes int
}

// Issue issues month's documents at instant at (their date): every account
// with billable charges in the month gets its invoice and its credit notes,
// each account in its own transaction. Run again, or on several instances
// at once, it issues nothing twice. A month that has not ended at at is
// refused; a month once finished is skipped at once.
func (v *Invoicing) Issue(ctx context.Context, month string, at time.Time) (Result, error) {
	var res Result
	start, end, err := plan.Bounds(month, v.cfg.Location)
	if err != nil {
		return res, err
	}
	if at.Before(end) {
		return res, ErrMonthNotOver
	}
	if done, err := v.s.Invoices.MonthDone(ctx, month); err != nil || done {
		return res, err
	}
	if err := v.settled(ctx); err != nil {
		return res, err
	}
	// A month nobody was charged in is finished without documents, the
	// supplier's settings complete or not.
	ids, err := v.s.Invoices.Charged(ctx, start, end, 0, batch)
	if err != nil {
		return res, err
	}
	if len(ids) == 0 {
		return res, v.s.Invoices.FinishMonth(ctx, month, at)
	}
	if err := v.parties.Ready(ctx, v.s.Profiles, v.cfg.Rate); err != nil {
		return res, err
	}
	// One supplier block for the run; its series' counters exist before
	// any issuing transaction updates them.
	sup, err := v.parties.Supplier(ctx, v.s.Profiles)
	if err != nil {
		return res, err
	}
	if err := v.openSeries(ctx, sup, at); err != nil {
		return res, err
	}
	var first error
	for {
		for _, id := range ids {
			if err := v.issueAccount(ctx, sup, id, month, start, end, at, &res); err != nil {
				if ctx.Err() != nil {
					return res, err
				}
				if errors.Is(err, ErrResellerBillingMissing) {
					v.held(ctx, id, month, at)
				} else {
					v.log.Warn("invoicing of an account failed", "user_id", id, "month", month, "err", err)
				}
				if first == nil {
					first = fmt.Errorf("invoices of user %d for %s: %w", id, month, err)
				}
			}
		}
		if len(ids) < batch {
			break
		}
		if ids, err = v.s.Invoices.Charged(ctx, start, end, ids[len(ids)-1], batch); err != nil {
			return res, errors.Join(first, err)
		}
	}
	if first != nil {
		return res, first
	}
	return res, v.s.Invoices.FinishMonth(ctx, month, at)
}

// held tells the reseller of userID (or userID, a reseller) once a month
// that its customers' documents and its own wait for its billing record.
func (v *Invoicing) held(ctx context.Context, userID uint64, month string, at time.Time) {
	u, err := v.s.Users.ByID(ctx, userID)
	if err != nil {
		v.log.Warn("invoices held: read the account", "user_id", userID, "err", err)
		return
	}
	rid := u.ID
	if u.ParentID != nil {
		rid = *u.ParentID
	}
	first, err := v.s.Invoices.Hold(ctx, rid, month, at)
	if err != nil || !first {
		if err != nil {
			v.log.Warn("invoices held: record", "reseller_id", rid, "err", err)
		}
		return
	}
	r, err := v.s.Users.ByID(ctx, rid)
	if err != nil {
		v.log.Warn("invoices held: read the reseller", "reseller_id", rid, "err", err)
		return
	}
	v.log.Warn("a reseller's invoices wait for its billing settings", "reseller_id", rid, "month", month)
	if v.notify != nil && r.Email != "" {
		v.notify(ctx, r.Email, fmt.Sprintf("Your customers' invoices for %s wait for your billing settings", month),
			fmt.Sprintf("Your customers' invoices for %s are issued in your name, and your own invoice with them, once your "+
				"billing settings (legal name, address, state; GSTIN if registered) are saved in the panel, %s "+
				"(or with PUT /api/v1/panel/settings/billing).", month, v.cfg.PublicBaseURL))
	}
}

// IssueDue issues the documents of the month before at's: the worker's
// step, on every instance, cheap once the month is finished. Older months
// a long outage skipped are issued with `server invoices issue --month`.
func (v *Invoicing) IssueDue(ctx context.Context, at time.Time) (Result, error) {
	return v.Issue(ctx, plan.PrevMonth(plan.Month(at, v.cfg.Location)), at)
}

type issued struct {
	inv *invoice.Invoice
	to  string
}

// openSeries makes sure sup's invoice and credit note series of at's
// financial year exist, before any issuing transaction updates them.
func (v *Invoicing) openSeries(ctx context.Context, sup *Supplier, at time.Time) error {
	fy := gst.FinancialYear(at, v.cfg.Location)
	for _, p := range []string{sup.Prefix, gst.CreditNotePrefix(sup.Prefix)} {
		if err := v.s.Invoices.OpenSeries(ctx, sup.series(p, fy)); err != nil {
			return err
		}
	}
	return nil
}

// issuerOf is the supplier of userID's documents: its reseller's for a
// reseller's customer (its series opened), else the platform's.
func (v *Invoicing) issuerOf(ctx context.Context, platform *Supplier, userID uint64, at time.Time) (*Supplier, error) {
	u, err := v.s.Users.ByID(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.ParentID == nil {
		return platform, nil
	}
	sup, err := v.parties.Issuer(ctx, v.s.Resellers, *u.ParentID)
	if err != nil {
		return nil, err
	}
	return sup, v.openSeries(ctx, sup, at)
}

// issueAccount writes userID's documents of month that are not written yet.
func (v *Invoicing) issueAccount(ctx context.Context, platform *Supplier, userID uint64, month string, start, end, at time.Time, res *Result) error {
	sup, err := v.issuerOf(ctx, platform, userID, at)
	if err != nil {
		return err
	}
	var out []issued
	err = v.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		out = nil
		u, err := s.Users.LockByID(ctx, userID)
		if err != nil {
			return err
		}
		if !sameID(u.ParentID, sup.IssuerID) {
			return fmt.Errorf("user %d changed reseller while its documents were issued", userID)
		}
		have, err := s.Invoices.Issued(ctx, userID, month)
		if err != nil {
			return err
		}
		b, err := v.draft(ctx, s, sup, u, month, start, end, at, true)
		if err != nil {
			return err
		}
		if len(b.invoice.Lines) > 0 && !has(have, invoice.KindInvoice, 0) {
			if err := v.write(ctx, s, u, b.invoice, sup, sup.Prefix); err != nil {
				return err
			}
			out = append(out, issued{b.invoice, u.Email})
		}
		for _, cm := range slices.Sorted(maps.Keys(b.credits)) {
			orig, err := s.Invoices.InvoiceOf(ctx, userID, cm)
			if errors.Is(err, invoice.ErrNotFound) {
				// Charged before invoicing began: no invoice to correct.
				v.log.Info("refund of a charge no invoice billed: no credit note", "user_id", userID, "month", month, "charged_in", cm)
				continue
			}
			if err != nil {
				return err
			}
			if has(have, invoice.KindCreditNote, orig.ID) {
				continue
			}
			// A credit note is its invoice's issuer's.
			cnSup := sup
			switch {
			case sameID(orig.IssuerID, sup.IssuerID):
			case orig.IssuerID == nil:
				cnSup = platform
			default:
				v.log.Warn("refund of a charge another reseller invoiced: no credit note", "user_id", userID, "month", month,
					"charged_in", cm, "issuer_id", *orig.IssuerID)
				continue
			}
			cn := b.credits[cm]
			issuedAt := orig.IssuedAt
			cn.CorrectsID, cn.CorrectsNumber, cn.CorrectsIssuedAt = &orig.ID, orig.Number, &issuedAt
			// Taxed as the invoice it corrects was, from its supplier.
			cn.Supplier, cn.IssuerID, cn.Payee = orig.Supplier, orig.IssuerID, cnSup.Payee
			cn.Recipient, cn.PlaceOfSupply = orig.Recipient, orig.PlaceOfSupply
			cn.Rate = orig.Rate
			cn.Lines = invoice.Retax(cn.Lines, invoice.Tax{Rate: orig.Rate, IntraState: orig.IntraState()})
			cn.Totals = invoice.Sum(cn.Lines)
			if err := v.write(ctx, s, u, cn, cnSup, gst.CreditNotePrefix(cnSup.Prefix)); err != nil {
				return err
			}
			out = append(out, issued{cn, u.Email})
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, d := range out {
		v.metrics.DocumentIssued(string(d.inv.Kind))
		if d.inv.Kind == invoice.KindInvoice {
			res.Invoices++
		} else {
			res.CreditNotes++
		}
		v.mail(ctx, d)
	}
	return nil
}

func sameID(a, b *uint64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// draft builds u's documents of month from sup: u's own charges and, for a
// reseller, its customers' at its cost (invoice.AtCost). With strict, a
// reseller whose customers were charged needs its own billing record
// first: its invoice waits with theirs (ErrResellerBillingMissing).
func (v *Invoicing) draft(ctx context.Context, s TxStores, sup *Supplier, u *user.User, month string, start, end, at time.Time, strict bool) (built, error) {
	rcp, err := v.parties.Recipient(ctx, s.TaxProfiles, u)
	if err != nil {
		return built{}, err
	}
	charges, err := s.Invoices.Charges(ctx, u.ID, start, end)
	if err != nil {
		return built{}, err
	}
	resold, err := s.Invoices.CustomerCharges(ctx, u.ID, start, end)
	if err != nil {
		return built{}, err
	}
	if len(resold) > 0 && strict {
		// Its record, as the issuers' are, read outside the transaction.
		if _, err := v.parties.Issuer(ctx, v.s.Resellers, u.ID); err != nil {
			return built{}, err
		}
	}
	return v.document(sup, rcp, u.ID, month, at, append(charges, invoice.AtCost(resold)...)), nil
}

// built is an account's documents of a month as its charges make them:
// the invoice (without lines when nothing is billable) and a credit note
// per month whose charges were refunded.
type built struct {
	invoice *invoice.Invoice
	credits map[string]*invoice.Invoice
}

// rate is the rate sup issues at: a reseller without a GSTIN issues bills
// of supply (rate 0), everyone else GST_RATE.
func (v *Invoicing) rate(sup *Supplier) decimal.Decimal {
	if sup.IssuerID != nil && sup.Party.GSTIN == "" {
		return decimal.Zero
	}
	return v.cfg.Rate
}

// document builds userID's documents of month from its charges, dated at.
func (v *Invoicing) document(sup *Supplier, rcp invoice.Party, userID uint64, month string, at time.Time, charges []invoice.Charge) built {
	place := rcp.State
	if place == "" {
		place = sup.Party.State
	}
	rate := v.rate(sup)
	m := invoice.Build(charges, month, v.cfg.Location, invoice.Tax{Rate: rate, IntraState: place == sup.Party.State, DefaultSAC: sup.SAC})
	doc := func(kind invoice.Kind, lines []invoice.Line) *invoice.Invoice {
		return &invoice.Invoice{UserID: userID, IssuerID: sup.IssuerID, Kind: kind, Month: month, IssuedAt: at.UTC(), Rate: rate,
			Supplier: sup.Party, Recipient: rcp, PlaceOfSupply: place, Payee: sup.Payee, Lines: lines,
			Totals: invoice.Sum(lines), CreatedAt: v.now().UTC()}
	}
	b := built{invoice: doc(invoice.KindInvoice, m.Lines), credits: map[string]*invoice.Invoice{}}
	for cm, lines := range m.Credits {
		b.credits[cm] = doc(invoice.KindCreditNote, lines)
		b.credits[cm].Reason = m.Reasons[cm]
	}
	return b
}

func has(docs []invoice.Invoice, kind invoice.Kind, corrects uint64) bool {
	for _, d := range docs {
		c := uint64(0)
		if d.CorrectsID != nil {
			c = *d.CorrectsID
		}
		if d.Kind == kind && c == corrects {
			return true
		}
	}
	return false
}

// write numbers inv in prefix's series of sup (the platform's or a
// reseller's) of its financial year and stores it with its invoice.issued
// event.
func (v *Invoicing) write(ctx context.Context, s TxStores, u *user.User, inv *invoice.Invoice, sup *Supplier, prefix string) error {
	fy := gst.FinancialYear(inv.IssuedAt, v.cfg.Location)
	series := sup.series(prefix, fy)
	seq, err := s.Invoices.NextNumber(ctx, series)
	if err != nil {
		return err
	}
	if inv.Number, err = gst.Number(prefix, fy, seq); err != nil {
		return err
	}
	if err := s.Invoices.Insert(ctx, inv, series, seq); err != nil {
		return err
	}
	data := map[string]any{"invoice_id": inv.ID, "number": inv.Number, "kind": string(inv.Kind), "month": inv.Month,
		"gross": inr.Format2(inv.Totals.Gross), "pdf_url": v.pdfURL(inv), "panel_url": v.panelURL(inv)}
	if inv.CorrectsID != nil {
		data["corrects_number"] = inv.CorrectsNumber
	}
	return store.EmitMode(ctx, s.Webhooks, v.now(), u, webhook.InvoiceIssued, data, "", v.cfg.Livemode)
}

// pdfURL is the document's PDF in the API (a panel token reads it).
func (v *Invoicing) pdfURL(inv *invoice.Invoice) string {
	return fmt.Sprintf("%s/api/v1/panel/invoices/%d/pdf", v.cfg.PublicBaseURL, inv.ID)
}

// panelURL is the document in the panel, where its owner signs in to read
// and download it: the link of the mail.
func (v *Invoicing) panelURL(inv *invoice.Invoice) string {
	return fmt.Sprintf("%s/invoices?invoice=%d", v.cfg.PublicBaseURL, inv.ID)
}

func (v *Invoicing) mail(ctx context.Context, d issued) {
	if v.notify == nil || d.to == "" {
		return
	}
	what := "Tax invoice"
	if d.inv.Kind == invoice.KindCreditNote {
		what = "Credit note"
	}
	v.notify(ctx, d.to, fmt.Sprintf("%s %s for %s", what, d.inv.Number, d.inv.Month),
		fmt.Sprintf("Your %s %s for %s, INR %s, is ready in the panel: %s", what, d.inv.Number, d.inv.Month, inr.Format2(d.inv.Totals.Gross), v.panelURL(d.inv)))
}
