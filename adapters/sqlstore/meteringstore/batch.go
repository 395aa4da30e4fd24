package meteringstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
	"paygate/core/platform/errs"
)

func hitSize(h *hitlog.Hit) int {
	n := len(h.RequestPayload) + 200
	if h.ResponsePayload != nil {
		n += len(*h.ResponsePayload)
	}
	return n
}

// hitValues are h's values in hitColumns order; a hit without times gets
// now, and h carries the times as stored.
func hitValues(h *hitlog.Hit, now time.Time) ([]any, error) {
	r, err := toHitRow(h)
	if err != nil {
		return nil, err
	}
	if r.CreatedAt == nil {
		r.CreatedAt = &now
	}
	if r.UpdatedAt == nil {
		r.UpdatedAt = r.CreatedAt
	}
	h.CreatedAt, h.UpdatedAt = sqlbase.TimeFromDB(r.CreatedAt), sqlbase.TimeFromDB(r.UpdatedAt)
	return []any{r.UserID, r.ServiceID, r.APIKeyID, r.RequestID, r.ChargeAmount,
		r.CostAmount, r.ReservedAmount, r.AdmittedAmount, r.Uncharged, r.IPAddress, r.Status, r.Outcome, r.ResponseTimeMs,
		*r.CreatedAt, *r.UpdatedAt, r.ResellerID, r.Commission}, nil
}

const hitColumns = "(user_id, api_service_id, api_key_id, request_id, charge_amount, " +
	"cost_amount, reserved_amount, admitted_amount, uncharged, ip_address, status, outcome, response_time_ms, created_at, updated_at, " +
	"reseller_id, commission)"

// hitPlaceholders is one row of hitColumns' values.
const hitPlaceholders = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

// InsertMany inserts hits with multi-row INSERTs (plain SQL: no RETURNING,
// no reflection). Ids: a multi-row INSERT takes consecutive ids on SQLite
// (its transaction holds the write lock) and on MySQL when
// innodb_autoinc_lock_mode ≤ 1 with an increment of 1 (checked at Open);
// otherwise they are read back by request_id (unique). Their payloads and
// the usage roll-up of the final ones are written in the same transaction.
func (s *HitStore) InsertMany(ctx context.Context, hits []*hitlog.Hit) error {
	if len(hits) == 0 {
		return nil
	}
	return s.withinTx(ctx, func(s *HitStore) error { return s.insertMany(ctx, hits) })
}

func (s *HitStore) insertMany(ctx context.Context, hits []*hitlog.Hit) error {
	now := sqlbase.DBTime(time.Now())
	for _, part := range HitChunks(hits) {
		q, args, err := HitInsert(part, now)
		if err != nil {
			return err
		}
		res, err := s.SQLExec(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("insert %d hits: %w", len(part), sqlbase.Translate(err))
		}
		if err := s.setHitIDs(ctx, part, res); err != nil {
			return err
		}
		if err := s.insertPayloads(ctx, part); err != nil {
			return err
		}
	}
	return s.countFinal(ctx, hits)
}

// HitChunks cuts hits into the parts one INSERT each carries.
func HitChunks(hits []*hitlog.Hit) [][]*hitlog.Hit {
	cs := sqlbase.Chunks(len(hits), func(i int) int { return hitSize(hits[i]) })
	parts := make([][]*hitlog.Hit, len(cs))
	for i, c := range cs {
		parts[i] = hits[c[0]:c[1]]
	}
	return parts
}

// HitInsert is the multi-row INSERT of part and its arguments.
func HitInsert(part []*hitlog.Hit, now time.Time) (string, []any, error) {
	var q strings.Builder
	q.WriteString("INSERT INTO api_hit_logs " + hitColumns + " VALUES ")
	args := make([]any, 0, 17*len(part))
	for i, h := range part {
		values, err := hitValues(h, now)
		if err != nil {
			return "", nil, fmt.Errorf("insert hits: %w", err)
		}
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString(hitPlaceholders)
		args = append(args, values...)
	}
	return q.String(), args, nil
}

func (s *HitStore) setHitIDs(ctx context.Context, part []*hitlog.Hit, res sql.Result) error {
	if s.ConsecutiveIDs {
		if last, err := res.LastInsertId(); err == nil && last > 0 {
			first := uint64(last) // MySQL reports the first row's id
			if !s.MySQL {
				first = uint64(last) - uint64(len(part)) + 1 // SQLite the last row's
			}
			for i, h := range part {
				h.ID = first + uint64(i)
			}
			return nil
		}
	}
	reqIDs := make([]string, len(part))
	for i, h := range part {
		reqIDs[i] = h.RequestID
	}
	var ids []struct {
		ID        uint64 `gorm:"column:id"`
		RequestID string `gorm:"column:request_id"`
	}
	if err := s.Conn(ctx).Model(&HitRow{}).Select("id", "request_id").Where("request_id IN ?", reqIDs).Find(&ids).Error; err != nil {
		return fmt.Errorf("read ids of %d hits: %w", len(part), sqlbase.Translate(err))
	}
	byReq := make(map[string]uint64, len(ids))
	for _, x := range ids {
		byReq[x.RequestID] = x.ID
	}
	for _, h := range part {
		id, ok := byReq[h.RequestID]
		if !ok {
			return fmt.Errorf("insert hits: hit %s not found after insert", h.RequestID)
		}
		h.ID = id
	}
	return nil
}

// hitsByPrimaryKey names the hit log for the settlements' statements on
// MySQL, which select hits by id and status 'pending': without the hint the
// optimizer may read them through the status index (status, created_at),
// scanning every pending hit and taking range locks on that index, which
// other batches' settlements then wait for (decisions: "Conditional
// updates by primary key").
const hitsByPrimaryKey = "api_hit_logs" + sqlbase.ForcePrimary

// FinishMany settles the hits still pending: it locks them (SELECT … FOR
// UPDATE; SQLite's transaction already holds the write lock), then writes
// every settled field with one UPDATE … CASE id … per chunk, still
// conditional on status 'pending'. The moved hits are added to the usage
// roll-up in the same transaction.
func (s *HitStore) FinishMany(ctx context.Context, hits []*hitlog.Hit) (moved []bool, err error) {
	err = s.withinTx(ctx, func(s *HitStore) error {
		if !s.MySQL {
			moved, err = s.finishEach(ctx, hits, false)
			return err
		}
		moved = make([]bool, len(hits))
		all := make([]int, len(hits))
		for i := range hits {
			all[i] = i
		}
		return s.settleLocked(ctx, hits, all, moved)
	})
	if err != nil {
		return nil, err
	}
	return moved, nil
}

// settleLocked settles hits[i], i in part, that are still pending (MySQL,
// in a transaction): it locks them, writes them with one UPDATE per chunk,
// marks them in moved and adds them to the usage roll-up.
func (s *HitStore) settleLocked(ctx context.Context, hits []*hitlog.Hit, part []int, moved []bool) error {
	if len(part) == 0 {
		return nil
	}
	ids := make([]uint64, 0, len(part))
	for _, i := range part {
		h := hits[i]
		if h.ID == 0 {
			return fmt.Errorf("finish hit %s: no id", h.RequestID)
		}
		ids = append(ids, h.ID)
	}
	var pendingIDs []uint64
	q := s.Conn(ctx).Table(hitsByPrimaryKey).Where("id IN ? AND status = ?", ids, string(hitlog.StatusPending))
	if err := s.Locking(q).Pluck("id", &pendingIDs).Error; err != nil {
		return fmt.Errorf("lock %d pending hits: %w", len(ids), sqlbase.Translate(err))
	}
	pending := make(map[uint64]bool, len(pendingIDs))
	for _, id := range pendingIDs {
		pending[id] = true
	}
	var todo []int
	for _, i := range part {
		if h := hits[i]; pending[h.ID] {
			todo = append(todo, i)
			pending[h.ID] = false // a hit listed twice moves once
		}
	}
	now := sqlbase.DBTime(time.Now())
	settled := make([]*hitlog.Hit, 0, len(todo))
	for _, c := range sqlbase.Chunks(len(todo), func(i int) int { return hitSize(hits[todo[i]]) }) {
		chunk := todo[c[0]:c[1]]
		sql, all, _, err := settleUpdate(hits, chunk, now)
		if err != nil {
			return fmt.Errorf("finish hits: %w", err)
		}
		res := s.Conn(ctx).Exec(sql, all...)
		if res.Error != nil {
			return fmt.Errorf("finish %d hits: %w", len(chunk), sqlbase.Translate(res.Error))
		}
		if res.RowsAffected != int64(len(chunk)) {
			return errs.E(errs.Conflict, "hit_not_pending", fmt.Sprintf("finish hits: %d of %d locked pending hits moved", res.RowsAffected, len(chunk)))
		}
		for _, i := range chunk {
			moved[i] = true
			hits[i].UpdatedAt = now
			settled = append(settled, hits[i])
		}
	}
	if err := s.settlePayloads(ctx, settled); err != nil {
		return err
	}
	return s.countFinal(ctx, settled)
}

// SucceedMany settles successful calls, a transaction per chunk: one
// conditional UPDATE … CASE and no prior read, then the chunk's responses
// and its addition to the usage roll-up. When the UPDATE moved fewer rows than the chunk has
// (crash recovery took some, or an earlier attempt of this settlement
// committed before its connection was lost), that transaction rolls back
// and the chunk is settled again hits locked first (settleLocked), so only
// the hits this settlement moves are added; of the others, those that read
// success were moved by an earlier attempt (only their own settlement sets
// a hit success), which added them.
func (s *HitStore) SucceedMany(ctx context.Context, hits []*hitlog.Hit) ([]bool, error) {
	moved := make([]bool, len(hits))
	seen := make(map[uint64]bool, len(hits))
	todo := make([]int, 0, len(hits))
	for _, h := range hits {
		if h.Status != hitlog.StatusSuccess {
			return moved, fmt.Errorf("settle hit %s: status %s is not success", h.RequestID, h.Status)
		}
	}
	if !s.MySQL {
		var moved []bool
		err := s.withinTx(ctx, func(s *HitStore) (err error) {
			moved, err = s.finishEach(ctx, hits, true)
			return err
		})
		return moved, err
	}
	for i, h := range hits {
		if h.ID == 0 {
			return moved, fmt.Errorf("settle hit %s: no id", h.RequestID)
		}
		if !seen[h.ID] { // a hit listed twice moves once
			seen[h.ID] = true
			todo = append(todo, i)
		}
	}
	now := sqlbase.DBTime(time.Now())
	for _, c := range sqlbase.Chunks(len(todo), func(i int) int { return hitSize(hits[todo[i]]) }) {
		part := todo[c[0]:c[1]]
		q, all, ids, err := settleUpdate(hits, part, now)
		if err != nil {
			return moved, fmt.Errorf("settle hits: %w", err)
		}
		err = s.withinTx(ctx, func(s *HitStore) error {
			res, err := s.SQLExec(ctx, q, all...)
			if err != nil {
				return sqlbase.Translate(err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return sqlbase.Translate(err)
			}
			if n != int64(len(part)) {
				return errNotAllPending
			}
			if err := s.settlePayloads(ctx, pick(hits, part)); err != nil {
				return err
			}
			return s.countFinal(ctx, pick(hits, part))
		})
		if err == nil {
			for _, i := range part {
				moved[i] = true
				hits[i].UpdatedAt = now
			}
			continue
		}
		if !errors.Is(err, errNotAllPending) {
			return moved, fmt.Errorf("settle %d hits: %w", len(part), err)
		}
		got := make([]bool, len(hits))
		if err := s.withinTx(ctx, func(s *HitStore) error { return s.settleLocked(ctx, hits, part, got) }); err != nil {
			return moved, fmt.Errorf("settle %d hits: %w", len(part), err)
		}
		for _, i := range part {
			moved[i] = got[i]
		}
		var done []uint64
		if err := s.Conn(ctx).Model(&HitRow{}).Where("id IN ? AND status = ?", ids, string(hitlog.StatusSuccess)).
			Pluck("id", &done).Error; err != nil {
			return moved, fmt.Errorf("read %d settled hits: %w", len(part), sqlbase.Translate(err))
		}
		ok := make(map[uint64]bool, len(done))
		for _, id := range done {
			ok[id] = true
		}
		for _, i := range part {
			if ok[hits[i].ID] {
				moved[i] = true
			}
		}
	}
	return moved, nil
}

// errNotAllPending rolls back a settlement whose UPDATE moved fewer hits
// than it names.
var errNotAllPending = errors.New("not every hit was pending")

// pick is hits[i] for i in part.
func pick(hits []*hitlog.Hit, part []int) []*hitlog.Hit {
	out := make([]*hitlog.Hit, len(part))
	for j, i := range part {
		out[j] = hits[i]
	}
	return out
}

// settleUpdate is the UPDATE settling hits[i] for i in part (distinct
// ids), each with its status, charge, cost and response time
// (perHit: a value they all share is one parameter, as the status of
// SucceedMany's), and its outcome when one of them failed (outcome); it
// moves only hits still pending. ids are the hits' ids.
func settleUpdate(hits []*hitlog.Hit, part []int, now time.Time) (query string, args []any, ids []uint64, err error) {
	var (
		w                                                sqlbase.MoneyWriter
		status, outcomes, charge, cost, commission, took []any
	)
	ids = make([]uint64, len(part))
	for j, i := range part {
		h := hits[i]
		ids[j] = h.ID
		status = append(status, string(h.Status))
		outcomes = append(outcomes, Outcome(h.Status))
		charge = append(charge, w.Put(sqlbase.ColCharge, h.ChargeAmount))
		cost = append(cost, w.Put(sqlbase.ColCost, h.CostAmount))
		commission = append(commission, w.Put(sqlbase.ColCommission, h.Commission))
		took = append(took, h.ResponseTimeMs)
	}
	if w.Err != nil {
		return "", nil, nil, w.Err
	}
	p := newPerHit(ids)
	var q strings.Builder
	args = make([]any, 0, 2*len(ids)+8)
	q.WriteString("UPDATE " + hitsByPrimaryKey + " SET ")
	type column struct {
		col  string
		vals []any
	}
	cols := []column{{"status", status}, {"charge_amount", charge}, {"cost_amount", cost}, {"response_time_ms", took}}
	if commissionMoves(hits, part) {
		cols = append(cols, column{"commission", commission})
	}
	if outcomeMoves(hits, part) {
		cols = append(cols, column{"outcome", outcomes})
	}
	for _, c := range cols {
		args = p.set(&q, args, c.col, c.vals)
		q.WriteString(", ")
	}
	q.WriteString("updated_at = ? WHERE id IN ")
	args = InList(&q, append(args, now), ids)
	q.WriteString(" AND status = ?")
	args = append(args, string(hitlog.StatusPending))
	return q.String(), args, ids, nil
}

// InList writes "(?,?,…)" for ids into q and appends the ids to args.
func InList(q *strings.Builder, args []any, ids []uint64) []any {
	q.WriteByte('(')
	for i, id := range ids {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteByte('?')
		args = append(args, id)
	}
	q.WriteByte(')')
	return args
}
