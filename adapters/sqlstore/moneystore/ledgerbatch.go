package moneystore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/money/ledger"
)

const entryColumns = "(user_id, txn_id, type, amount, balance_before, balance_after, reference_type, reference_id, " +
	"description, status, created_at, updated_at)"

// InsertMany inserts ledger entries in their order with multi-row INSERTs
// (plain SQL; the ids are not read back).
func (s *LedgerStore) InsertMany(ctx context.Context, entries []*ledger.Entry) error {
	now := sqlbase.DBTime(time.Now())
	for _, c := range EntryChunks(len(entries)) {
		q, args, err := EntryInsert(entries[c[0]:c[1]], nil, now)
		if err != nil {
			return err
		}
		if _, err := s.SQLExec(ctx, q, args...); err != nil {
			return fmt.Errorf("insert %d transactions: %w", c[1]-c[0], sqlbase.Translate(err))
		}
	}
	return nil
}

// EntryChunks cuts n entries into the ranges one INSERT each carries.
func EntryChunks(n int) [][2]int {
	return sqlbase.Chunks(n, func(int) int { return 300 })
}

// EntryInsert is the multi-row INSERT of part and its arguments; entry i
// with refs[i].v set takes its reference_id from refs[i] (refs nil: every
// entry its own ReferenceID). Each entry gets its created_at as stored.
func EntryInsert(part []*ledger.Entry, refs []HitRef, now time.Time) (string, []any, error) {
	var q strings.Builder
	q.WriteString("INSERT INTO transactions " + entryColumns + " VALUES ")
	args := make([]any, 0, 12*len(part))
	for i, e := range part {
		r, err := toEntryRow(e)
		if err != nil {
			return "", nil, fmt.Errorf("insert transactions: %w", err)
		}
		if r.CreatedAt == nil {
			r.CreatedAt, r.UpdatedAt = &now, &now
		}
		if i > 0 {
			q.WriteByte(',')
		}
		var ref any = r.ReferenceID
		if refs != nil && refs[i].V != "" {
			ref = refs[i].K
			q.WriteString("(?,?,?,?,?,?,?," + refs[i].V + "+?,?,?,?,?)")
		} else {
			q.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?)")
		}
		args = append(args, r.UserID, r.TxnID, r.Type, r.Amount, r.BalanceBefore, r.BalanceAfter, r.ReferenceType, ref,
			r.Description, r.Status, *r.CreatedAt, *r.UpdatedAt)
		e.CreatedAt = sqlbase.TimeFromDB(r.CreatedAt)
	}
	return q.String(), args, nil
}

// HitRef is a reference_id taken in the database: the id of the hit k rows
// after the first row of the hit INSERT whose first id is in the session's
// user variable v (batchInserts).
type HitRef struct {
	V string
	K int
}
