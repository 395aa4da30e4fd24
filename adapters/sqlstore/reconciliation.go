package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

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

var colLineBalance = column{"balance", 16, 2}

func toDomainLine(r *lineRow) (statement.Line, error) {
	var w moneyWriter
	d, err := time.Parse(time.DateOnly, r.TxnDate)
	if err != nil {
		return statement.Line{}, fmt.Errorf("statement line %d: date %q: %w", r.ID, r.TxnDate, err)
	}
	l := statement.Line{ID: r.ID, StatementID: r.StatementID, Key: r.Key, LineNo: r.LineNo, Date: d, Narration: r.Narration,
		RefNo: r.RefNo, UTR: r.UTR, Amount: w.get(colAmount, r.Amount), Balance: w.getPtr(colLineBalance, r.Balance),
		Status: statement.Status(r.Status), PaymentID: r.PaymentID, PaymentPublicID: r.PaymentPublicID,
		BalanceRequestID: r.BalanceRequestID, DecidedBy: r.DecidedBy, DecidedAt: timePtrFromDB(r.DecidedAt), Note: r.Note,
		CreatedAt: timeFromDB(r.CreatedAt), UpdatedAt: timeFromDB(r.UpdatedAt)}
	if r.Reason != nil {
		l.Reason = *r.Reason
	}
	if w.err != nil {
		return l, fmt.Errorf("statement line %d: %w", r.ID, w.err)
	}
	return l, nil
}

type statementStore struct{ base }

var _ statement.Repository = (*statementStore)(nil)

func (s *statementStore) CreateStatement(ctx context.Context, st *statement.Statement) error {
	r := statementRow{ImportedBy: st.ImportedBy, FileName: st.FileName, SHA256: st.SHA256, CreditLines: st.CreditLines,
		DebitLines: st.DebitLines, Skipped: st.Skipped, CreatedAt: stamp(st.CreatedAt)}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("insert statement: %w", translate(err))
	}
	st.ID = r.ID
	return nil
}

func (s *statementStore) UpdateStatement(ctx context.Context, st *statement.Statement) error {
	err := s.byID(ctx, &statementRow{}).Where("id = ?", st.ID).Updates(map[string]any{
		"file_sha256": st.SHA256, "credit_lines": st.CreditLines, "debit_lines": st.DebitLines, "skipped_lines": st.Skipped,
		"new_lines": st.NewLines, "matched": st.Matched, "unmatched": st.Unmatched}).Error
	if err != nil {
		return fmt.Errorf("update statement %d: %w", st.ID, translate(err))
	}
	return nil
}

// lineInsertBatch rows per INSERT: 13 columns, 13,000 placeholders (SQLite
// allows 32,766, MySQL 65,535).
const lineInsertBatch = 1000

const lineInsertColumns = "statement_id, line_key, line_no, txn_date, narration, ref_no, utr, amount, balance, status, reason, created_at, updated_at"

func (s *statementStore) InsertLines(ctx context.Context, statementID uint64, lines []statement.Line) (int, error) {
	head, tail := "INSERT INTO reconciliation_lines ("+lineInsertColumns+") VALUES ", " ON CONFLICT (line_key) DO NOTHING"
	if s.mysql {
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
			var w moneyWriter
			amount, balance := w.put(colAmount, l.Amount), w.putPtr(colLineBalance, l.Balance)
			if w.err != nil {
				return 0, fmt.Errorf("statement line %d: %w", l.LineNo, w.err)
			}
			var reason *string
			if l.Reason != "" {
				reason = &l.Reason
			}
			args = append(args, statementID, l.Key, l.LineNo, l.Date.Format(time.DateOnly), l.Narration, l.RefNo, l.UTR,
				amount, balance, string(l.Status), reason, dbTime(l.CreatedAt), dbTime(l.UpdatedAt))
		}
		sql.WriteString(tail)
		// Rows affected are the rows inserted (a skipped duplicate counts
		// none), on both databases: the import calls this once per batch.
		res := s.conn(ctx).Exec(sql.String(), args...)
		if res.Error != nil {
			return 0, fmt.Errorf("insert statement lines: %w", translate(res.Error))
		}
		n += res.RowsAffected
	}
	return int(n), nil
}

func (s *statementStore) IDsByKey(ctx context.Context, statementID uint64, keys []string) (map[string]uint64, error) {
	out := map[string]uint64{}
	for start := 0; start < len(keys); start += lineInsertBatch {
		var rows []lineRow
		part := keys[start:min(start+lineInsertBatch, len(keys))]
		if err := s.conn(ctx).Select("id, line_key").Where("statement_id = ? AND line_key IN ?", statementID, part).Find(&rows).Error; err != nil {
			return nil, fmt.Errorf("find statement lines: %w", translate(err))
		}
		for _, r := range rows {
			out[r.Key] = r.ID
		}
	}
	return out, nil
}

func (s *statementStore) ByID(ctx context.Context, id uint64) (*statement.Line, error) {
	var r lineRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, statement.ErrNotFound
		}
		return nil, fmt.Errorf("find statement line: %w", translate(err))
	}
	l, err := toDomainLine(&r)
	return &l, err
}

func (s *statementStore) Decide(ctx context.Context, l *statement.Line) (bool, error) {
	var reason *string
	if l.Reason != "" {
		reason = &l.Reason
	}
	res := s.byID(ctx, &lineRow{}).Where("id = ? AND status = ?", l.ID, string(statement.StatusUnmatched)).Updates(map[string]any{
		"status": string(l.Status), "reason": reason, "payment_id": l.PaymentID, "payment_public_id": l.PaymentPublicID,
		"balance_request_id": l.BalanceRequestID, "decided_by": l.DecidedBy, "decided_at": timePtrToDB(l.DecidedAt),
		"note": l.Note, "updated_at": dbTime(l.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("decide statement line %d: %w", l.ID, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *statementStore) SetReason(ctx context.Context, id uint64, reason string) error {
	err := s.byID(ctx, &lineRow{}).Where("id = ? AND status = ?", id, string(statement.StatusUnmatched)).Update("reason", reason).Error
	if err != nil {
		return fmt.Errorf("statement line %d reason: %w", id, translate(err))
	}
	return nil
}

func (s *statementStore) List(ctx context.Context, f statement.Filter) ([]statement.Line, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		if f.StatementID != nil {
			q = q.Where("statement_id = ?", *f.StatementID)
		}
		return q
	}
	return pageNewest(s.conn(ctx), filter, f.Page, f.PerPage, "statement lines", toDomainLine)
}

func (s *statementStore) Payments(ctx context.Context, utrs, publicIDs []string) ([]statement.PaymentRef, error) {
	if len(utrs) == 0 && len(publicIDs) == 0 {
		return nil, nil
	}
	q := s.conn(ctx).Select("id, public_id, utr, amount, status")
	switch {
	case len(utrs) > 0 && len(publicIDs) > 0:
		q = q.Where("utr IN ? OR public_id IN ?", utrs, publicIDs)
	case len(utrs) > 0:
		q = q.Where("utr IN ?", utrs)
	default:
		q = q.Where("public_id IN ?", publicIDs)
	}
	var rows []paymentRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("payments of statement lines: %w", translate(err))
	}
	out := make([]statement.PaymentRef, 0, len(rows))
	for _, r := range rows {
		var w moneyWriter
		p := statement.PaymentRef{ID: r.ID, PublicID: r.PublicID, Amount: w.get(colAmount, r.Amount), Status: payment.Status(r.Status)}
		if r.UTR != nil {
			p.UTR = *r.UTR
		}
		if w.err != nil {
			return nil, fmt.Errorf("payment %s: %w", r.PublicID, w.err)
		}
		out = append(out, p)
	}
	return out, nil
}

func (s *statementStore) TopUps(ctx context.Context, utrs []string) ([]statement.TopUpRef, error) {
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
	err := s.conn(ctx).Table("balance_requests").
		Select("balance_requests.id, balance_requests.utr_number, balance_requests.amount, balance_requests.status, "+
			"users.parent_id IS NOT NULL AS customer").
		Joins("JOIN users ON users.id = balance_requests.user_id").
		Where("balance_requests.utr_number IN ?", utrs).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("balance requests of statement lines: %w", translate(err))
	}
	out := make([]statement.TopUpRef, 0, len(rows))
	for _, r := range rows {
		var w moneyWriter
		t := statement.TopUpRef{ID: r.ID, UTR: strings.ToUpper(r.UTRNumber), Amount: w.get(colAmount, r.Amount), Status: topup.Status(r.Status),
			Customer: r.Customer}
		if w.err != nil {
			return nil, fmt.Errorf("balance request %d: %w", r.ID, w.err)
		}
		out = append(out, t)
	}
	return out, nil
}
