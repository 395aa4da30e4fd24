package meteringstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
)

// SQLite's batch writes use one statement per chunk, as MySQL's do: its
// driver compiles a statement's text on every execution that was not
// prepared (a batch's texts vary with its size), so a statement per row
// would cost a compilation per hit. The INSERTs are batch.go's multi-row
// ones (ids consecutive: the transaction holds the write lock; SQLite
// reports the last row's id); a settlement is one UPDATE … FROM (VALUES …)
// … RETURNING id per chunk, which moves only hits still pending and names
// them, with no prior read and no CASE list evaluated per row.

// finishChunk settles hits[i] for i in part (distinct ids) with one
// conditional UPDATE and reports the ids it moved.
func (s *HitStore) finishChunk(ctx context.Context, hits []*hitlog.Hit, part []int, now time.Time) (map[uint64]bool, error) {
	var (
		w    sqlbase.MoneyWriter
		q    strings.Builder
		args = make([]any, 0, 7*len(part)+2)
	)
	failed := outcomeMoves(hits, part)
	q.WriteString("UPDATE api_hit_logs SET status = v.column2, charge_amount = v.column3, " +
		"cost_amount = v.column4, response_time_ms = v.column5, ")
	if commissionMoves(hits, part) { // every row carries it (column6); set only when one earned one
		q.WriteString("commission = v.column6, ")
	}
	if failed {
		q.WriteString("outcome = v.column7, ")
	}
	q.WriteString("updated_at = ? FROM (VALUES ")
	args = append(args, now)
	for j, i := range part {
		h := hits[i]
		if j > 0 {
			q.WriteByte(',')
		}
		args = append(args, h.ID, string(h.Status), w.Put(sqlbase.ColCharge, h.ChargeAmount), w.Put(sqlbase.ColCost, h.CostAmount), h.ResponseTimeMs,
			w.Put(sqlbase.ColCommission, h.Commission))
		if failed {
			q.WriteString("(?,?,?,?,?,?,?)")
			args = append(args, Outcome(h.Status))
		} else {
			q.WriteString("(?,?,?,?,?,?)")
		}
	}
	if w.Err != nil {
		return nil, fmt.Errorf("finish hits: %w", w.Err)
	}
	q.WriteString(") AS v WHERE api_hit_logs.id = v.column1 AND api_hit_logs.status = ? RETURNING api_hit_logs.id")
	args = append(args, string(hitlog.StatusPending))
	rows, err := s.DB.Statement.ConnPool.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("finish %d hits: %w", len(part), sqlbase.Translate(err))
	}
	defer rows.Close()
	moved := make(map[uint64]bool, len(part))
	for rows.Next() {
		var id uint64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("finish %d hits: %w", len(part), sqlbase.Translate(err))
		}
		moved[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("finish %d hits: %w", len(part), sqlbase.Translate(err))
	}
	return moved, nil
}

// finishEach settles the hits still pending (SQLite); a hit listed twice
// moves once. With success (SucceedMany), a hit the update did not move but
// that reads success counts as moved (an earlier attempt of this
// settlement moved it).
func (s *HitStore) finishEach(ctx context.Context, hits []*hitlog.Hit, success bool) ([]bool, error) {
	moved := make([]bool, len(hits))
	seen := make(map[uint64]bool, len(hits))
	todo := make([]int, 0, len(hits))
	for i, h := range hits {
		if h.ID == 0 {
			return moved, fmt.Errorf("finish hit %s: no id", h.RequestID)
		}
		if !seen[h.ID] {
			seen[h.ID] = true
			todo = append(todo, i)
		}
	}
	now := sqlbase.DBTime(time.Now())
	var settled []*hitlog.Hit // moved by this call: added to the usage roll-up
	for _, c := range sqlbase.Chunks(len(todo), func(i int) int { return hitSize(hits[todo[i]]) }) {
		part := todo[c[0]:c[1]]
		ok, err := s.finishChunk(ctx, hits, part, now)
		if err != nil {
			return moved, err
		}
		var missed []uint64
		for _, i := range part {
			if ok[hits[i].ID] {
				moved[i] = true
				hits[i].UpdatedAt = now
				settled = append(settled, hits[i])
			} else if success {
				missed = append(missed, hits[i].ID)
			}
		}
		if len(missed) == 0 {
			continue
		}
		var done []uint64
		if err := s.Conn(ctx).Model(&HitRow{}).Where("id IN ? AND status = ?", missed, string(hitlog.StatusSuccess)).
			Pluck("id", &done).Error; err != nil {
			return moved, fmt.Errorf("read %d settled hits: %w", len(missed), sqlbase.Translate(err))
		}
		byID := make(map[uint64]bool, len(done))
		for _, id := range done {
			byID[id] = true
		}
		for _, i := range part {
			if byID[hits[i].ID] {
				moved[i] = true
			}
		}
	}
	if err := s.settlePayloads(ctx, settled); err != nil {
		return moved, err
	}
	return moved, s.countFinal(ctx, settled)
}
