package billingstore

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/billing/invoice"
	"paygate/core/money/ledger"
	"paygate/core/platform/errs"
)

var (
	colInvoiceRate = sqlbase.Column{Name: "rate", Total: 5, Places: 2}
	colInvoiceSum  = sqlbase.Column{Name: "gross", Total: 14, Places: 2}
)

type invoiceRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID        uint64     `gorm:"column:user_id"`
	IssuerID      *uint64    `gorm:"column:issuer_id"`
	IssuerKey     uint64     `gorm:"column:issuer_key"`
	Kind          string     `gorm:"column:kind"`
	Number        string     `gorm:"column:number"`
	Series        string     `gorm:"column:series"`
	Seq           int64      `gorm:"column:seq"`
	Month         string     `gorm:"column:month"`
	CorrectsID    *uint64    `gorm:"column:corrects_id"`
	CorrectsKey   uint64     `gorm:"column:corrects_key"`
	CorrectsNum   *string    `gorm:"column:corrects_number"`
	CorrectsAt    *time.Time `gorm:"column:corrects_issued_at"`
	Reason        string     `gorm:"column:reason"`
	Rate          string     `gorm:"column:rate"`
	PlaceOfSupply string     `gorm:"column:place_of_supply"`
	Supplier      string     `gorm:"column:supplier"`
	Recipient     string     `gorm:"column:recipient"`
	Payee         string     `gorm:"column:payee"`
	Lines         string     `gorm:"column:lines"`
	Gross         string     `gorm:"column:gross"`
	Taxable       string     `gorm:"column:taxable"`
	CGST          string     `gorm:"column:cgst"`
	SGST          string     `gorm:"column:sgst"`
	IGST          string     `gorm:"column:igst"`
	IssuedAt      *time.Time `gorm:"column:issued_at"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (invoiceRow) TableName() string { return "invoices" }

// The documents' JSON columns: the parties and lines as they were at issue.
type (
	partyJSON struct {
		LegalName string `json:"legal_name"`
		Address   string `json:"address"`
		State     string `json:"state"`
		GSTIN     string `json:"gstin,omitempty"`
		PAN       string `json:"pan,omitempty"`
		Email     string `json:"email,omitempty"`
	}
	payeeJSON struct {
		BankName      string `json:"bank_name,omitempty"`
		AccountName   string `json:"account_name,omitempty"`
		AccountNumber string `json:"account_number,omitempty"`
		IFSC          string `json:"ifsc,omitempty"`
		UPI           string `json:"upi,omitempty"`
	}
	lineJSON struct {
		Description string           `json:"description"`
		SAC         string           `json:"sac"`
		Quantity    int64            `json:"quantity"`
		UnitPrice   *decimal.Decimal `json:"unit_price"`
		Gross       decimal.Decimal  `json:"gross"`
		Taxable     decimal.Decimal  `json:"taxable"`
		CGST        decimal.Decimal  `json:"cgst"`
		SGST        decimal.Decimal  `json:"sgst"`
		IGST        decimal.Decimal  `json:"igst"`
		Resold      bool             `json:"resold,omitempty"`
	}
)

func toInvoiceRow(inv *invoice.Invoice, series string, seq int64) (invoiceRow, error) {
	var w sqlbase.MoneyWriter
	r := invoiceRow{ID: inv.ID, UserID: inv.UserID, IssuerID: inv.IssuerID, Kind: string(inv.Kind), Number: inv.Number, Series: series, Seq: seq,
		Month: inv.Month, CorrectsID: inv.CorrectsID, Reason: inv.Reason, Rate: w.Put(colInvoiceRate, inv.Rate), PlaceOfSupply: inv.PlaceOfSupply,
		Gross: w.Put(colInvoiceSum, inv.Totals.Gross), Taxable: w.Put(colInvoiceSum, inv.Totals.Taxable),
		CGST: w.Put(colInvoiceSum, inv.Totals.CGST), SGST: w.Put(colInvoiceSum, inv.Totals.SGST), IGST: w.Put(colInvoiceSum, inv.Totals.IGST)}
	if w.Err != nil {
		return r, w.Err
	}
	if inv.IssuerID != nil {
		r.IssuerKey = *inv.IssuerID
	}
	if inv.CorrectsID != nil {
		r.CorrectsKey = *inv.CorrectsID
		num := inv.CorrectsNumber
		r.CorrectsNum = &num
		if inv.CorrectsIssuedAt != nil {
			at := sqlbase.DBTime(*inv.CorrectsIssuedAt)
			r.CorrectsAt = &at
		}
	}
	issued, created := sqlbase.DBTime(inv.IssuedAt), sqlbase.DBTime(inv.CreatedAt)
	r.IssuedAt, r.CreatedAt = &issued, &created
	lines := make([]lineJSON, len(inv.Lines))
	for i, l := range inv.Lines {
		lines[i] = lineJSON{l.Description, l.SAC, l.Quantity, l.UnitPrice, l.Gross, l.Taxable, l.CGST, l.SGST, l.IGST, l.Resold}
	}
	for _, f := range []struct {
		dst  *string
		name string
		v    any
	}{
		{&r.Supplier, "supplier", partyJSON(inv.Supplier)}, {&r.Recipient, "recipient", partyJSON(inv.Recipient)},
		{&r.Payee, "payee", payeeJSON(inv.Payee)}, {&r.Lines, "lines", lines},
	} {
		s, err := sqlbase.JSONToDB(f.name, f.v)
		if err != nil {
			return r, err
		}
		*f.dst = s
	}
	return r, nil
}

func toDomainInvoice(r *invoiceRow) (invoice.Invoice, error) {
	var w sqlbase.MoneyWriter
	inv := invoice.Invoice{ID: r.ID, UserID: r.UserID, IssuerID: r.IssuerID, Kind: invoice.Kind(r.Kind), Number: r.Number, Month: r.Month,
		IssuedAt: sqlbase.TimeFromDB(r.IssuedAt), Rate: w.Get(colInvoiceRate, r.Rate), PlaceOfSupply: r.PlaceOfSupply,
		CorrectsID: r.CorrectsID, Reason: r.Reason, CreatedAt: sqlbase.TimeFromDB(r.CreatedAt),
		CorrectsIssuedAt: r.CorrectsAt,
		Totals: invoice.Totals{Gross: w.Get(colInvoiceSum, r.Gross), Taxable: w.Get(colInvoiceSum, r.Taxable),
			CGST: w.Get(colInvoiceSum, r.CGST), SGST: w.Get(colInvoiceSum, r.SGST), IGST: w.Get(colInvoiceSum, r.IGST)}}
	if w.Err != nil {
		return inv, fmt.Errorf("invoice %d: %w", r.ID, w.Err)
	}
	if r.CorrectsNum != nil {
		inv.CorrectsNumber = *r.CorrectsNum
	}
	var sup, rcp partyJSON
	var pay payeeJSON
	var lines []lineJSON
	for _, f := range []struct {
		name, s string
		dst     any
	}{{"supplier", r.Supplier, &sup}, {"recipient", r.Recipient, &rcp}, {"payee", r.Payee, &pay}, {"lines", r.Lines, &lines}} {
		if err := sqlbase.JSONFromDB(f.name, f.s, f.dst); err != nil {
			return inv, fmt.Errorf("invoice %d: %w", r.ID, err)
		}
	}
	inv.Supplier, inv.Recipient, inv.Payee = invoice.Party(sup), invoice.Party(rcp), invoice.Payee(pay)
	for _, l := range lines {
		inv.Lines = append(inv.Lines, invoice.Line{Description: l.Description, SAC: l.SAC, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			Gross: l.Gross, Taxable: l.Taxable, CGST: l.CGST, SGST: l.SGST, IGST: l.IGST, Resold: l.Resold})
	}
	return inv, nil
}

// InvoiceStore is the database's invoice.Store.
type InvoiceStore struct{ sqlbase.Base }

var _ invoice.Store = (*InvoiceStore)(nil)

func (s *InvoiceStore) Insert(ctx context.Context, inv *invoice.Invoice, series string, seq int64) error {
	r, err := toInvoiceRow(inv, series, seq)
	if err != nil {
		return fmt.Errorf("insert invoice %s: %w", inv.Number, err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert invoice %s: %w", inv.Number, sqlbase.Translate(err))
	}
	inv.ID = r.ID
	return nil
}

func (s *InvoiceStore) OpenSeries(ctx context.Context, series string) error {
	if err := s.Conn(ctx).Exec(s.InsertIgnore()+"invoice_series (series, last_seq) VALUES (?, 0)", series).Error; err != nil {
		return fmt.Errorf("open series %s: %w", series, sqlbase.Translate(err))
	}
	return nil
}

func (s *InvoiceStore) NextNumber(ctx context.Context, series string) (int64, error) {
	res := s.Conn(ctx).Exec("UPDATE invoice_series SET last_seq = last_seq + 1 WHERE series = ?", series)
	if res.Error != nil {
		return 0, fmt.Errorf("take a number of %s: %w", series, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected != 1 {
		return 0, fmt.Errorf("take a number of %s: the series is not open", series)
	}
	var seq int64
	if err := s.Conn(ctx).Raw("SELECT last_seq FROM invoice_series WHERE series = ?", series).Scan(&seq).Error; err != nil {
		return 0, fmt.Errorf("read the number of %s: %w", series, sqlbase.Translate(err))
	}
	return seq, nil
}

func (s *InvoiceStore) Issued(ctx context.Context, userID uint64, month string) ([]invoice.Invoice, error) {
	var rows []invoiceRow
	if err := s.Conn(ctx).Where("user_id = ? AND month = ?", userID, month).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("invoices of user %d for %s: %w", userID, month, sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainInvoice)
}

func (s *InvoiceStore) InvoiceOf(ctx context.Context, userID uint64, month string) (*invoice.Invoice, error) {
	var r invoiceRow
	err := s.Conn(ctx).Where("user_id = ? AND month = ? AND kind = ?", userID, month, string(invoice.KindInvoice)).Take(&r).Error
	if err != nil {
		return nil, fmt.Errorf("invoice of user %d for %s: %w", userID, month, sqlbase.ErrNotFoundOr(err, invoice.ErrNotFound))
	}
	inv, err := toDomainInvoice(&r)
	return &inv, err
}

func (s *InvoiceStore) ByID(ctx context.Context, id uint64) (*invoice.Invoice, error) {
	var r invoiceRow
	if err := s.Conn(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		return nil, fmt.Errorf("invoice %d: %w", id, sqlbase.ErrNotFoundOr(err, invoice.ErrNotFound))
	}
	inv, err := toDomainInvoice(&r)
	if err != nil {
		return nil, err
	}
	docs := []invoice.Invoice{inv}
	if err := s.withIRNs(ctx, docs); err != nil {
		return nil, err
	}
	return &docs[0], nil
}

func (s *InvoiceStore) ByIssueDate(ctx context.Context, issuerID uint64, from, to time.Time) ([]invoice.Invoice, error) {
	var rows []invoiceRow
	err := s.Conn(ctx).Where("issuer_key = ? AND issued_at >= ? AND issued_at < ?", issuerID, sqlbase.DBTime(from), sqlbase.DBTime(to)).
		Order("issued_at, id").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("invoices of issuer %d from %s: %w", issuerID, from.Format(time.RFC3339), sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainInvoice)
}

func (s *InvoiceStore) List(ctx context.Context, f invoice.Filter) ([]invoice.Invoice, int64, error) {
	q := s.Conn(ctx).Model(&invoiceRow{})
	if f.UserID != 0 {
		q = q.Where("user_id = ?", f.UserID)
	}
	if f.IssuerID != 0 {
		q = q.Where("issuer_id = ?", f.IssuerID)
	}
	if f.Party != 0 {
		q = q.Where("(user_id = ? OR issuer_id = ?)", f.Party, f.Party)
	}
	if f.Month != "" {
		q = q.Where("month = ?", f.Month)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", string(f.Kind))
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count invoices: %w", sqlbase.Translate(err))
	}
	page, per := max(f.Page, 1), f.PerPage
	if per <= 0 {
		per = 20
	}
	var rows []invoiceRow
	if err := q.Order("id DESC").Offset((page - 1) * per).Limit(per).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("list invoices: %w", sqlbase.Translate(err))
	}
	out, err := sqlbase.ConvertRows(rows, toDomainInvoice)
	if err != nil {
		return nil, 0, err
	}
	return out, total, s.withIRNs(ctx, out)
}

func (s *InvoiceStore) MonthDone(ctx context.Context, month string) (bool, error) {
	var n int64
	if err := s.Conn(ctx).Raw("SELECT COUNT(*) FROM invoice_months WHERE month = ?", month).Scan(&n).Error; err != nil {
		return false, fmt.Errorf("invoice month %s: %w", month, sqlbase.Translate(err))
	}
	return n > 0, nil
}

func (s *InvoiceStore) FinishMonth(ctx context.Context, month string, at time.Time) error {
	err := s.Conn(ctx).Exec(s.InsertIgnore()+"invoice_months (month, finished_at) VALUES (?, ?)", month, sqlbase.DBTime(at)).Error
	if err != nil {
		return fmt.Errorf("finish invoice month %s: %w", month, sqlbase.Translate(err))
	}
	return nil
}

func (s *InvoiceStore) Hold(ctx context.Context, resellerID uint64, month string, at time.Time) (bool, error) {
	res := s.Conn(ctx).Exec(s.InsertIgnore()+"invoice_holds (reseller_id, month, created_at) VALUES (?, ?, ?)", resellerID, month, sqlbase.DBTime(at))
	if res.Error != nil {
		return false, fmt.Errorf("hold the invoices of reseller %d for %s: %w", resellerID, month, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

// billableRefs are the reference types whose entries are supplies.
var billableRefs = []string{ledger.RefAPIHit, ledger.RefPlanFee, ledger.RefPaymentFee, ledger.RefPayoutFee}

func (s *InvoiceStore) Charged(ctx context.Context, from, to time.Time, after uint64, limit int) ([]uint64, error) {
	var ids []uint64
	// The accounts charged, and the resellers of the customers charged
	// (their invoices carry their customers' calls at cost).
	err := s.Conn(ctx).Raw("SELECT id FROM (SELECT DISTINCT user_id AS id FROM transactions WHERE created_at >= ? AND created_at < ? AND reference_type IN ? "+
		"UNION SELECT DISTINCT u.parent_id AS id FROM transactions t JOIN users u ON u.id = t.user_id "+
		"WHERE t.created_at >= ? AND t.created_at < ? AND t.reference_type IN ? AND u.parent_id IS NOT NULL) charged WHERE id > ? "+
		"ORDER BY id LIMIT ?", sqlbase.DBTime(from), sqlbase.DBTime(to), billableRefs, sqlbase.DBTime(from), sqlbase.DBTime(to), billableRefs, after, limit).Scan(&ids).Error
	if err != nil {
		return nil, fmt.Errorf("charged accounts: %w", sqlbase.Translate(err))
	}
	return ids, nil
}

// chargeSum is one aggregate of billable entries.
type chargeSum struct {
	Type      string
	GroupID   string
	Label     *string
	SAC       *string
	N         int64
	Total     string
	Low, High string
	ChargedAt *time.Time
	// OrderedAt is a payout's creation, its fee's time when the fee's
	// debit is not found.
	OrderedAt *time.Time
	// Earned and Cancelled sum the hits' commission and the commission
	// refunds cancelled, in units of 0.0001 (CustomerCharges only).
	Earned, Cancelled int64
}

// Charges sums userID's billable entries of [from, to): calls by service
// (debits; refunds of debits of the period; refunds of earlier debits one
// by one, with their debit's time), payout fee refunds with the payout
// call's service, plan fees by plan, collection fees.
func (s *InvoiceStore) Charges(ctx context.Context, userID uint64, from, to time.Time) ([]invoice.Charge, error) {
	return s.charges(ctx, "t.user_id = ?", userID, false, from, to)
}

// CustomerCharges are Charges of resellerID's customers, with the hits'
// commission beside each sum.
func (s *InvoiceStore) CustomerCharges(ctx context.Context, resellerID uint64, from, to time.Time) ([]invoice.Charge, error) {
	return s.charges(ctx, "t.user_id IN (SELECT id FROM users WHERE parent_id = ?)", resellerID, true, from, to)
}

// charges sums the billable entries of the accounts who (a condition on
// t.user_id with one argument, arg) selects; with commission, the hits'
// commissions too (earned: kept and cancelled; cancelled alone).
func (s *InvoiceStore) charges(ctx context.Context, who string, arg any, commission bool, from, to time.Time) ([]invoice.Charge, error) {
	f, t := sqlbase.DBTime(from), sqlbase.DBTime(to)
	userID := arg
	// The hits' commission in units of 0.0001, as integers: SQLite keeps
	// DECIMAL columns as floating point, whose SUM would not be exact.
	earned, cancelled := ", 0 AS earned, 0 AS cancelled", ", 0 AS earned, 0 AS cancelled"
	if commission {
		unit := func(col string) string { return "CAST(ROUND(" + col + " * 10000) AS " + s.intType() + ")" }
		earned = ", COALESCE(SUM(" + unit("h.commission") + " + " + unit("h.commission_cancelled") + "), 0) AS earned, " +
			"COALESCE(SUM(" + unit("h.commission_cancelled") + "), 0) AS cancelled"
		cancelled = ", 0 AS earned, " + unit("h.commission_cancelled") + " AS cancelled"
	}
	queries := []struct {
		group     string // prefix of the group key
		sql       string
		args      []any
		payoutFee bool // refunds of failed payouts' fees
	}{
		// Calls: debits, and refunds of debits of the period, by service.
		{"service:", "SELECT t.type AS type, CAST(h.api_service_id AS CHAR) AS group_id, sv.name AS label, sv.sac_code AS sac, COUNT(*) AS n, SUM(t.amount) AS total, " +
			"MIN(t.amount) AS low, MAX(t.amount) AS high, NULL AS charged_at" + earned + " " +
			"FROM transactions t JOIN api_hit_logs h ON h.id = t.reference_id LEFT JOIN api_services sv ON sv.id = h.api_service_id " +
			"WHERE " + who + " AND t.reference_type = ? AND t.created_at >= ? AND t.created_at < ? AND (t.type = ? OR (t.type = ? AND " +
			"EXISTS (SELECT 1 FROM transactions d WHERE d.reference_type = t.reference_type AND d.reference_id = t.reference_id AND d.type = ? AND d.created_at >= ?))) " +
			"GROUP BY t.type, h.api_service_id, sv.name, sv.sac_code",
			[]any{userID, ledger.RefAPIHit, f, t, ledger.Debit, ledger.Refund, ledger.Debit, f}, false},
		// Calls: refunds of earlier debits, each with its debit's time.
		{"service:", "SELECT t.type AS type, CAST(h.api_service_id AS CHAR) AS group_id, sv.name AS label, sv.sac_code AS sac, 1 AS n, t.amount AS total, " +
			"t.amount AS low, t.amount AS high, d.created_at AS charged_at" + cancelled + " " +
			"FROM transactions t JOIN api_hit_logs h ON h.id = t.reference_id LEFT JOIN api_services sv ON sv.id = h.api_service_id " +
			"JOIN transactions d ON d.reference_type = t.reference_type AND d.reference_id = t.reference_id AND d.type = ? AND d.created_at < ? " +
			"WHERE " + who + " AND t.reference_type = ? AND t.type = ? AND t.created_at >= ? AND t.created_at < ?",
			[]any{ledger.Debit, f, userID, ledger.RefAPIHit, ledger.Refund, f, t}, false},
		// Payout fees refunded: the fee was the payout call's charge.
		{"service:", "SELECT t.type AS type, CAST(h.api_service_id AS CHAR) AS group_id, sv.name AS label, sv.sac_code AS sac, 1 AS n, t.amount AS total, " +
			"t.amount AS low, t.amount AS high, d.created_at AS charged_at, p.created_at AS ordered_at" + cancelled + " " +
			"FROM transactions t JOIN payouts p ON p.id = t.reference_id JOIN api_hit_logs h ON h.request_id = p.request_id AND h.user_id = p.user_id " +
			"LEFT JOIN api_services sv ON sv.id = h.api_service_id " +
			"LEFT JOIN transactions d ON d.reference_type = ? AND d.reference_id = h.id AND d.type = ? " +
			"WHERE " + who + " AND t.reference_type = ? AND t.type = ? AND t.created_at >= ? AND t.created_at < ?",
			[]any{ledger.RefAPIHit, ledger.Debit, userID, ledger.RefPayoutFee, ledger.Refund, f, t}, true},
		// Plan fees by plan.
		{"plan:", "SELECT t.type AS type, sp.plan_code AS group_id, pl.name AS label, NULL AS sac, COUNT(*) AS n, SUM(t.amount) AS total, " +
			"MIN(t.amount) AS low, MAX(t.amount) AS high, NULL AS charged_at " +
			"FROM transactions t JOIN subscription_periods sp ON sp.id = t.reference_id LEFT JOIN plans pl ON pl.code = sp.plan_code " +
			"WHERE " + who + " AND t.reference_type = ? AND t.type = ? AND t.created_at >= ? AND t.created_at < ? GROUP BY t.type, sp.plan_code, pl.name",
			[]any{userID, ledger.RefPlanFee, ledger.Debit, f, t}, false},
		// Collection fees.
		{invoice.GroupCollectionFee, "SELECT t.type AS type, '' AS group_id, NULL AS label, NULL AS sac, COUNT(*) AS n, SUM(t.amount) AS total, " +
			"MIN(t.amount) AS low, MAX(t.amount) AS high, NULL AS charged_at " +
			"FROM transactions t WHERE " + who + " AND t.reference_type = ? AND t.type = ? AND t.created_at >= ? AND t.created_at < ? GROUP BY t.type",
			[]any{userID, ledger.RefPaymentFee, ledger.Debit, f, t}, false},
	}
	var out []invoice.Charge
	for _, q := range queries {
		var rows []chargeSum
		if err := s.Conn(ctx).Raw(q.sql, q.args...).Scan(&rows).Error; err != nil {
			return nil, fmt.Errorf("charges of user %d: %w", userID, sqlbase.Translate(err))
		}
		for _, r := range rows {
			c, err := toCharge(q.group, &r, from)
			if err != nil {
				return nil, fmt.Errorf("charges of user %d: %w", userID, err)
			}
			c.PayoutFee = q.payoutFee
			out = append(out, c)
		}
	}
	return out, nil
}

func toCharge(group string, r *chargeSum, from time.Time) (invoice.Charge, error) {
	total, err1 := decimal.NewFromString(r.Total)
	low, err2 := decimal.NewFromString(r.Low)
	high, err3 := decimal.NewFromString(r.High)
	if err1 != nil || err2 != nil || err3 != nil {
		return invoice.Charge{}, errs.E(errs.Internal, "bad_amount", "a ledger amount is not a decimal")
	}
	c := invoice.Charge{Type: ledger.Type(r.Type), Count: r.N, Amount: total, Group: group + r.GroupID, ChargedAt: from,
		Commission: decimal.New(r.Earned, -4)}
	if c.Type == ledger.Refund {
		c.Commission = decimal.New(r.Cancelled, -4) // what the refund took back of the reseller's commission
	}
	if low.Equal(high) {
		c.Unit = &low
	}
	if r.SAC != nil {
		c.SAC = *r.SAC
	}
	switch {
	case r.ChargedAt != nil:
		c.ChargedAt = *r.ChargedAt
	case r.OrderedAt != nil:
		c.ChargedAt = *r.OrderedAt
	}
	switch {
	case r.Label != nil && group == "plan:":
		c.Label = "Plan " + *r.Label
	case r.Label != nil:
		c.Label = *r.Label
	case group == invoice.GroupCollectionFee:
		c.Label = "Collection fees"
	default:
		c.Label = group + r.GroupID
	}
	return c, nil
}

// intType is the dialect's integer type for CAST.
func (s *InvoiceStore) intType() string {
	if s.MySQL {
		return "SIGNED"
	}
	return "INTEGER"
}
