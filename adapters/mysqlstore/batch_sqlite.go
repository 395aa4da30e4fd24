package mysqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"paygate/core/hitlog"
	"paygate/core/ledger"
)

// SQLite runs in the process: a statement costs no round trip, but parsing
// one does cost, and a multi-row statement's text (its CASE lists above
// all, evaluated per row) grows with the batch, so it is parsed anew for
// every batch. There the batched writes prepare one single-row statement
// per batch and run it for each row instead: parsed once, and each
// conditional UPDATE's own rows-affected says whether that hit moved,
// without a prior read (the IMMEDIATE transaction holds the write lock).

const hitInsertOne = "INSERT INTO api_hit_logs " + hitColumns + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

const hitFinishOne = "UPDATE api_hit_logs SET status = ?, response_payload = ?, charge_amount = ?, cost_amount = ?, " +
	"response_time_ms = ?, updated_at = ? WHERE id = ? AND status = ?"

const entryInsertOne = "INSERT INTO transactions " + entryColumns + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"

// prepare prepares query on the repository's handle (the transaction's,
// inside WithinTx).
func (b base) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	st, err := b.db.Statement.ConnPool.PrepareContext(ctx, query)
	if err != nil {
		return nil, translate(err)
	}
	return st, nil
}

func (s *hitStore) insertEach(ctx context.Context, hits []*hitlog.Hit) error {
	st, err := s.prepare(ctx, hitInsertOne)
	if err != nil {
		return fmt.Errorf("insert hits: %w", err)
	}
	defer st.Close()
	now := dbTime(time.Now())
	for _, h := range hits {
		values, err := hitValues(h, now)
		if err != nil {
			return fmt.Errorf("insert hits: %w", err)
		}
		res, err := st.ExecContext(ctx, values...)
		if err != nil {
			return fmt.Errorf("insert hit %s: %w", h.RequestID, translate(err))
		}
		id, err := res.LastInsertId()
		if err != nil {
			return fmt.Errorf("insert hit %s: %w", h.RequestID, translate(err))
		}
		h.ID = uint64(id)
	}
	return nil
}

// finishEach settles each hit still pending with its own conditional
// UPDATE; a hit listed twice moves once. With success (SucceedMany), a hit
// the update did not move but that reads success counts as moved (an
// earlier attempt of this settlement moved it).
func (s *hitStore) finishEach(ctx context.Context, hits []*hitlog.Hit, success bool) ([]bool, error) {
	moved := make([]bool, len(hits))
	if len(hits) == 0 {
		return moved, nil
	}
	st, err := s.prepare(ctx, hitFinishOne)
	if err != nil {
		return moved, fmt.Errorf("finish hits: %w", err)
	}
	defer st.Close()
	now := dbTime(time.Now())
	for i, h := range hits {
		if h.ID == 0 {
			return moved, fmt.Errorf("finish hit %s: no id", h.RequestID)
		}
		var w moneyWriter
		charge, cost := w.put(colCharge, h.ChargeAmount), w.put(colCost, h.CostAmount)
		if w.err != nil {
			return moved, fmt.Errorf("finish hit %s: %w", h.RequestID, w.err)
		}
		res, err := st.ExecContext(ctx, string(h.Status), h.ResponsePayload, charge, cost, h.ResponseTimeMs, now, h.ID, string(hitlog.StatusPending))
		if err != nil {
			return moved, fmt.Errorf("finish hit %s: %w", h.RequestID, translate(err))
		}
		n, err := res.RowsAffected()
		if err != nil {
			return moved, fmt.Errorf("finish hit %s: %w", h.RequestID, translate(err))
		}
		if n == 1 {
			moved[i] = true
			h.UpdatedAt = now
			continue
		}
		if success && !listedBefore(hits, i) {
			var status []string
			if err := s.conn(ctx).Model(&hitRow{}).Where("id = ?", h.ID).Pluck("status", &status).Error; err != nil {
				return moved, fmt.Errorf("read settled hit %s: %w", h.RequestID, translate(err))
			}
			moved[i] = len(status) == 1 && status[0] == string(hitlog.StatusSuccess)
		}
	}
	return moved, nil
}

func (s *ledgerStore) insertEach(ctx context.Context, entries []*ledger.Entry) error {
	st, err := s.prepare(ctx, entryInsertOne)
	if err != nil {
		return fmt.Errorf("insert transactions: %w", err)
	}
	defer st.Close()
	now := dbTime(time.Now())
	for _, e := range entries {
		r, err := toEntryRow(e)
		if err != nil {
			return fmt.Errorf("insert transactions: %w", err)
		}
		if r.CreatedAt == nil {
			r.CreatedAt, r.UpdatedAt = &now, &now
		}
		if _, err := st.ExecContext(ctx, r.UserID, r.TxnID, r.Type, r.Amount, r.BalanceBefore, r.BalanceAfter, r.ReferenceType, r.ReferenceID,
			r.Description, r.Status, *r.CreatedAt, *r.UpdatedAt); err != nil {
			return fmt.Errorf("insert transaction %s: %w", e.TxnID, translate(err))
		}
		e.CreatedAt = timeFromDB(r.CreatedAt)
	}
	return nil
}

// listedBefore reports whether hits[i]'s id appears earlier in hits.
func listedBefore(hits []*hitlog.Hit, i int) bool {
	for _, h := range hits[:i] {
		if h.ID == hits[i].ID {
			return true
		}
	}
	return false
}
