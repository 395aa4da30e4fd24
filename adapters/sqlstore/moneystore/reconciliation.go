package moneystore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/gatewaystore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/gateway/payment"
	"paygate/core/money/statement"
	"paygate/core/money/topup"
)

// Reconciliation: imported bank statements and their credit lines. Lines
// go in by multi-row INSERTs that skip a line_key already recorded (INSERT
// IGNORE on MySQL, ON CONFLICT DO NOTHING on SQLite), so importing a file
// twice records each line once, also when two imports race.

type statementRow struct {
	ID          uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	ImportedBy  uint64     `gorm:"column:imported_by"`
	FileName    string     `gorm:"column:file_name"`
	SHA256      string     `gorm:"column:file_sha256"`
	CreditLines int        `gorm:"column:credit_lines"`
	NewLines    int        `gorm:"column:new_lines"`
	DebitLines  int        `gorm:"column:debit_lines"`
	Skipped     int        `gorm:"column:skipped_lines"`
	Matched     int        `gorm:"column:matched"`
	Unmatched   int        `gorm:"column:unmatched"`
	CreatedAt   *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (statementRow) TableName() string { return "reconciliation_statements" }

type lineRow struct {
	ID               uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	StatementID      uint64     `gorm:"column:statement_id"`
	Key              string     `gorm:"column:line_key"`
	LineNo           int        `gorm:"column:line_no"`
	TxnDate          string     `gorm:"column:txn_date"`
	Narration        string     `gorm:"column:narration"`
	RefNo            string     `gorm:"column:ref_no"`
	UTR              string     `gorm:"column:utr"`
	Amount           string     `gorm:"column:amount"`
	Balance          *string    `gorm:"column:balance"`
	Status           string     `gorm:"column:status"`
	Reason           *string    `gorm:"column:reason"`
	PaymentID        *uint64    `gorm:"column:payment_id"`
	PaymentPublicID  *string    `gorm:"column:payment_public_id"`
	BalanceRequestID *uint64    `gorm:"column:balance_request_id"`
	DecidedBy        *uint64    `gorm:"column:decided_by"`
	DecidedAt        *time.Time `gorm:"column:decided_at"`
	Note             *string    `gorm:"column:note"`
	CreatedAt        *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt        *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (lineRow) TableName() string { return "reconciliation_lines" }

var colLineBalance = sqlbase.Column{Name: "balance", Total: 16, Places: 2}

func toDomainLine(r *lineRow) (statement.Line, error) {
	var w sqlbase.MoneyWriter
	d, err := time.Parse(time.DateOnly, r.TxnDate)
	if err != nil {
		return statement.Line{}, fmt.Errorf("statement line %d: date %q: %w", r.ID, r.TxnDate, err)
	}
	l := statement.Line{ID: r.ID, StatementID: r.StatementID, Key: r.Key, LineNo: r.LineNo, Date: d, Narration: r.Narration,
		RefNo: r.RefNo, UTR: r.UTR, Amount: w.Get(sqlbase.ColAmount, r.Amount), Balance: w.GetPtr(colLineBalance, r.Balance),
		Status: statement.Status(r.Status), PaymentID: r.PaymentID, PaymentPublicID: r.PaymentPublicID,
		BalanceRequestID: r.BalanceRequestID, DecidedBy: r.DecidedBy, DecidedAt: sqlbase.TimePtrFromDB(r.DecidedAt), Note: r.Note,
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
	if r.Reason != nil {
		l.Reason = *r.Reason
	}
	if w.Err != nil {
		return l, fmt.Errorf("statement line %d: %w", r.ID, w.Err)
	}
	return l, nil
}

// StatementStore is the database's statement.Repository.
type StatementStore struct{ sqlbase.Base }

var _ statement.Repository = (*StatementStore)(nil)

func (s *StatementStore) CreateStatement(ctx context.Context, st *statement.Statement) error {
	r := statementRow{ImportedBy: st.ImportedBy, FileName: st.FileName, SHA256: st.SHA256, CreditLines: st.CreditLines,
		DebitLines: st.DebitLines, Skipped: st.Skipped, CreatedAt: sqlbase.Stamp(st.CreatedAt)}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert statement: %w", sqlbase.Translate(err))
	}
	st.ID = r.ID
	return nil
}

func (s *StatementStore) UpdateStatement(ctx context.Context, st *statement.Statement) error {
	err := s.ByPrimaryKey(ctx, &statementRow{}).Where("id = ?", st.ID).Updates(map[string]any{
		"file_sha256": st.SHA256, "credit_lines": st.CreditLines, "debit_lines": st.DebitLines, "skipped_lines": st.Skipped,
		"new_lines": st.NewLines, "matched": st.Matched, "unmatched": st.Unmatched}).Error
	if err != nil {
		return fmt.Errorf("update statement %d: %w", st.ID, sqlbase.Translate(err))
	}
	return nil
}

// lineInsertBatch rows per INSERT: 13 columns, 13,000 placeholders (SQLite
// allows 32,766, MySQL 65,535).
const lineInsertBatch = 1000

const lineInsertColumns = "statement_id, line_key, line_no, txn_date, narration, ref_no, utr, amount, balance, status, reason, created_at, updated_at"

func (s *StatementStore) InsertLines(ctx context.Context, statementID uint64, lines []statement.Line) (int, error) {
	head, tail := "INSERT INTO reconciliation_lines ("+lineInsertColumns+") VALUES ", " ON CONFLICT (line_key) DO NOTHING"
	if s.MySQL {
		// Only the unique line_key can collide on insert (the other unique
		// columns are NULL here); every value is checked and clipped first.
		head, tail = "INSERT IGNORE INTO reconciliation_lines ("+lineInsertColumns+") VALUES ", ""
	}
	const row = "(?,?,?,?,?,?,?,?,?,?,?,?,?)"
	var n int64
	for start := 0; start < len(lines); start += lineInsertBatch {
		part := lines[start:min(start+lineInsertBatch, len(lines))]
		var sql strings.Builder
		sql.Grow(len(head) + len(part)*(len(row)+1) + len(tail))
		sql.WriteString(head)
		args := make([]any, 0, len(part)*13)
		for i := range part {
			l := &part[i]
			if i > 0 {
				sql.WriteByte(',')
			}
			sql.WriteString(row)
			var w sqlbase.MoneyWriter
			amount, balance := w.Put(sqlbase.ColAmount, l.Amount), w.PutPtr(colLineBalance, l.Balance)
			if w.Err != nil {
				return 0, fmt.Errorf("statement line %d: %w", l.LineNo, w.Err)
			}
			var reason *string
			if l.Reason != "" {
				reason = &l.Reason
			}
			args = append(args, statementID, l.Key, l.LineNo, l.Date.Format(time.DateOnly), l.Narration, l.RefNo, l.UTR,
				amount, balance, string(l.Status), reason, sqlbase.DBTime(l.CreatedAt), sqlbase.DBTime(l.UpdatedAt))
		}
		sql.WriteString(tail)
		// Rows affected are the rows inserted (a skipped duplicate counts
		// none), on both databases: the import calls this once per batch.
		res := s.Conn(ctx).Exec(sql.String(), args...)
		if res.Error != nil {
			return 0, fmt.Errorf("insert statement lines: %w", sqlbase.Translate(res.Error))
		}
		n += res.RowsAffected
	}
	return int(n), nil
}

func (s *StatementStore) IDsByKey(ctx context.Context, statementID uint64, keys []string) (map[string]uint64, error) {
	out := map[string]uint64{}
	for start := 0; start < len(keys); start += lineInsertBatch {
		var rows []lineRow
		part := keys[start:min(start+lineInsertBatch, len(keys))]
		if err := s.Conn(ctx).Select("id, line_key").Where("statement_id = ? AND line_key IN ?", statementID, part).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("find statement lines: %w", sqlbase.Translate(err))
		}
		for _, r := range rows {
			out[r.Key] = r.ID
		}
	}
	return out, nil
}

func (s *StatementStore) ByID(ctx context.Context, id uint64) (*statement.Line, error) {
	var r lineRow
	if err := s.Conn(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, statement.ErrNotFound
		}
		return nil, fmt.Errorf("find statement line: %w", sqlbase.Translate(err))
	}
	l, err := toDomainLine(&r)
	return &l, err
}

func (s *StatementStore) Decide(ctx context.Context, l *statement.Line) (bool, error) {
	var reason *string
	if l.Reason != "" {
		reason = &l.Reason
	}
	res := s.ByPrimaryKey(ctx, &lineRow{}).Where("id = ? AND status = ?", l.ID, string(statement.StatusUnmatched)).Updates(map[string]any{
		"status": string(l.Status), "reason": reason, "payment_id": l.PaymentID, "payment_public_id": l.PaymentPublicID,
		"balance_request_id": l.BalanceRequestID, "decided_by": l.DecidedBy, "decided_at": sqlbase.TimePtrToDB(l.DecidedAt),
		"note": l.Note, "updated_at": sqlbase.DBTime(l.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("decide statement line %d: %w", l.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *StatementStore) SetReason(ctx context.Context, id uint64, reason string) error {
	err := s.ByPrimaryKey(ctx, &lineRow{}).Where("id = ? AND status = ?", id, string(statement.StatusUnmatched)).Update("reason", reason).Error
	if err != nil {
		return fmt.Errorf("statement line %d reason: %w", id, sqlbase.Translate(err))
	}
	return nil
}

func (s *StatementStore) List(ctx context.Context, f statement.Filter) ([]statement.Line, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.StatementID != nil {
			q = q.Where("statement_id = ?", *f.StatementID)
		}
		return q
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "statement lines", toDomainLine)
}

func (s *StatementStore) Payments(ctx context.Context, utrs, publicIDs []string) ([]statement.PaymentRef, error) {
	if len(utrs) == 0 && len(publicIDs) == 0 {
		return nil, nil
	}
	q := s.Conn(ctx).Select("id, public_id, utr, amount, status")
	switch {
	case len(utrs) > 0 && len(publicIDs) > 0:
		q = q.Where("utr IN ? OR public_id IN ?", utrs, publicIDs)
	case len(utrs) > 0:
		q = q.Where("utr IN ?", utrs)
	default:
		q = q.Where("public_id IN ?", publicIDs)
	}
	var rows []gatewaystore.PaymentRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("payments of statement lines: %w", sqlbase.Translate(err))
	}
	out := make([]statement.PaymentRef, 0, len(rows))
	for _, r := range rows {
		var w sqlbase.MoneyWriter
		p := statement.PaymentRef{ID: r.ID, PublicID: r.PublicID, Amount: w.Get(sqlbase.ColAmount, r.Amount), Status: payment.Status(r.Status)}
		if r.UTR != nil {
			p.UTR = *r.UTR
		}
		if w.Err != nil {
			return nil, fmt.Errorf("payment %s: %w", r.PublicID, w.Err)
		}
		out = append(out, p)
	}
	return out, nil
}

func (s *StatementStore) TopUps(ctx context.Context, utrs []string) ([]statement.TopUpRef, error) {
	if len(utrs) == 0 {
		return nil, nil
	}
	var rows []struct {
		ID        uint64 `gorm:"column:id"`
		UTRNumber string `gorm:"column:utr_number"`
		Amount    string `gorm:"column:amount"`
		Status    string `gorm:"column:status"`
		Customer  bool   `gorm:"column:customer"`
	}
	err := s.Conn(ctx).Table("balance_requests").
		Select("balance_requests.id, balance_requests.utr_number, balance_requests.amount, balance_requests.status, "+
			"users.parent_id IS NOT NULL AS customer").
		Joins("JOIN users ON users.id = balance_requests.user_id").
		Where("balance_requests.utr_number IN ?", utrs).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("balance requests of statement lines: %w", sqlbase.Translate(err))
	}
	out := make([]statement.TopUpRef, 0, len(rows))
	for _, r := range rows {
		var w sqlbase.MoneyWriter
		t := statement.TopUpRef{ID: r.ID, UTR: strings.ToUpper(r.UTRNumber), Amount: w.Get(sqlbase.ColAmount, r.Amount), Status: topup.Status(r.Status),
			Customer: r.Customer}
		if w.Err != nil {
			return nil, fmt.Errorf("balance request %d: %w", r.ID, w.Err)
		}
		out = append(out, t)
	}
	return out, nil
}
