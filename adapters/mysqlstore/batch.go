package mysqlstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"paygate/core/apikey"
	"paygate/core/errs"
	"paygate/core/hitlog"
	"paygate/core/ledger"
)

// Batched writes of the metering pipeline (core/app's group commit): one
// statement for many rows, cut into chunks so that no statement grows past
// batchRows rows or about batchBytes bytes of payload (MySQL's
// max_allowed_packet is 16 MiB by default, SQLite allows 32766 variables).
const (
	batchRows  = 200
	batchBytes = 1 << 20
)

// chunks cuts n items into ranges of at most batchRows items and about
// batchBytes bytes (size of item i); an item larger than batchBytes goes alone.
func chunks(n int, size func(i int) int) [][2]int {
	var out [][2]int
	start, bytes := 0, 0
	for i := 0; i < n; i++ {
		sz := size(i)
		if i > start && (i-start >= batchRows || bytes+sz > batchBytes) {
			out = append(out, [2]int{start, i})
			start, bytes = i, 0
		}
		bytes += sz
	}
	if n > start {
		out = append(out, [2]int{start, n})
	}
	return out
}

func hitSize(h *hitlog.Hit) int {
	n := len(h.RequestPayload) + 200
	if h.ResponsePayload != nil {
		n += len(*h.ResponsePayload)
	}
	return n
}

// InsertMany inserts hits with multi-row INSERTs, then reads their ids back
// by request_id (unique): ids of a multi-row INSERT are not guaranteed
// consecutive on every MySQL configuration (innodb_autoinc_lock_mode=2).
func (s *hitStore) InsertMany(ctx context.Context, hits []*hitlog.Hit) error {
	if len(hits) == 0 {
		return nil
	}
	for _, c := range chunks(len(hits), func(i int) int { return hitSize(hits[i]) }) {
		part := hits[c[0]:c[1]]
		rows := make([]hitRow, len(part))
		reqIDs := make([]string, len(part))
		for i, h := range part {
			r, err := toHitRow(h)
			if err != nil {
				return fmt.Errorf("insert hits: %w", err)
			}
			r.ID = 0
			rows[i] = r
			reqIDs[i] = h.RequestID
		}
		if err := s.conn(ctx).Create(&rows).Error; err != nil {
			return fmt.Errorf("insert %d hits: %w", len(rows), translate(err))
		}
		var ids []struct {
			ID        uint64 `gorm:"column:id"`
			RequestID string `gorm:"column:request_id"`
		}
		if err := s.conn(ctx).Model(&hitRow{}).Select("id", "request_id").Where("request_id IN ?", reqIDs).Find(&ids).Error; err != nil {
			return fmt.Errorf("read ids of %d hits: %w", len(rows), translate(err))
		}
		byReq := make(map[string]uint64, len(ids))
		for _, x := range ids {
			byReq[x.RequestID] = x.ID
		}
		for i, h := range part {
			id, ok := byReq[h.RequestID]
			if !ok {
				return fmt.Errorf("insert hits: hit %s not found after insert", h.RequestID)
			}
			h.ID = id
			h.CreatedAt, h.UpdatedAt = timeFromDB(rows[i].CreatedAt), timeFromDB(rows[i].UpdatedAt)
		}
	}
	return nil
}

// FinishMany settles the hits still pending: it locks them (SELECT … FOR
// UPDATE; SQLite's transaction already holds the write lock), then writes
// every settled field with one UPDATE … CASE id … per chunk, still
// conditional on status 'pending'.
func (s *hitStore) FinishMany(ctx context.Context, hits []*hitlog.Hit) ([]bool, error) {
	moved := make([]bool, len(hits))
	if len(hits) == 0 {
		return moved, nil
	}
	ids := make([]uint64, 0, len(hits))
	for _, h := range hits {
		if h.ID == 0 {
			return nil, fmt.Errorf("finish hit %s: no id", h.RequestID)
		}
		ids = append(ids, h.ID)
	}
	var pendingIDs []uint64
	q := s.conn(ctx).Model(&hitRow{}).Where("id IN ? AND status = ?", ids, string(hitlog.StatusPending))
	if err := s.locking(q).Pluck("id", &pendingIDs).Error; err != nil {
		return nil, fmt.Errorf("lock %d pending hits: %w", len(ids), translate(err))
	}
	pending := make(map[uint64]bool, len(pendingIDs))
	for _, id := range pendingIDs {
		pending[id] = true
	}
	var todo []int
	for i, h := range hits {
		if pending[h.ID] {
			todo = append(todo, i)
			pending[h.ID] = false // a hit listed twice moves once
		}
	}
	now := dbTime(time.Now())
	for _, c := range chunks(len(todo), func(i int) int { return hitSize(hits[todo[i]]) }) {
		part := todo[c[0]:c[1]]
		var (
			w                                   moneyWriter
			status, payload, charge, cost, took strings.Builder
			args                                [5][]any
			in                                  []any
		)
		for _, b := range []*strings.Builder{&status, &payload, &charge, &cost, &took} {
			b.WriteString("CASE id")
		}
		for _, i := range part {
			h := hits[i]
			for k, b := range []*strings.Builder{&status, &payload, &charge, &cost, &took} {
				b.WriteString(" WHEN ? THEN ?")
				args[k] = append(args[k], h.ID)
			}
			args[0] = append(args[0], string(h.Status))
			args[1] = append(args[1], h.ResponsePayload)
			args[2] = append(args[2], w.put(colCharge, h.ChargeAmount))
			args[3] = append(args[3], w.put(colCost, h.CostAmount))
			args[4] = append(args[4], h.ResponseTimeMs)
			in = append(in, h.ID)
		}
		if w.err != nil {
			return nil, fmt.Errorf("finish hits: %w", w.err)
		}
		sql := "UPDATE api_hit_logs SET status = " + status.String() + " END, response_payload = " + payload.String() +
			" END, charge_amount = " + charge.String() + " END, cost_amount = " + cost.String() +
			" END, response_time_ms = " + took.String() + " END, updated_at = ? WHERE id IN ? AND status = ?"
		all := make([]any, 0, 11*len(part)+3)
		for k := range args {
			all = append(all, args[k]...)
		}
		all = append(all, now, in, string(hitlog.StatusPending))
		res := s.conn(ctx).Exec(sql, all...)
		if res.Error != nil {
			return nil, fmt.Errorf("finish %d hits: %w", len(part), translate(res.Error))
		}
		if res.RowsAffected != int64(len(part)) {
			return nil, errs.E(errs.Conflict, "hit_not_pending", fmt.Sprintf("finish hits: %d of %d locked pending hits moved", res.RowsAffected, len(part)))
		}
		for _, i := range part {
			moved[i] = true
			hits[i].UpdatedAt = now
		}
	}
	return moved, nil
}

// InsertMany inserts ledger entries in their order with multi-row INSERTs.
func (s *ledgerStore) InsertMany(ctx context.Context, entries []*ledger.Entry) error {
	for _, c := range chunks(len(entries), func(int) int { return 300 }) {
		part := entries[c[0]:c[1]]
		rows := make([]entryRow, len(part))
		for i, e := range part {
			r, err := toEntryRow(e)
			if err != nil {
				return fmt.Errorf("insert transactions: %w", err)
			}
			r.ID = 0
			rows[i] = r
		}
		if err := s.conn(ctx).Create(&rows).Error; err != nil {
			return fmt.Errorf("insert %d transactions: %w", len(rows), translate(err))
		}
		for i, e := range part {
			e.CreatedAt = timeFromDB(rows[i].CreatedAt)
		}
	}
	return nil
}

// CountHits counts up to n calls of one key under its row lock (FOR UPDATE
// on MySQL; SQLite's IMMEDIATE transaction holds the write lock).
func (s *keyStore) CountHits(ctx context.Context, id uint64, day string, n int, at time.Time) (int, error) {
	var r struct {
		HitsToday  int     `gorm:"column:hits_today"`
		HitsDate   *string `gorm:"column:hits_date"`
		DailyLimit int     `gorm:"column:daily_limit"`
	}
	q := s.conn(ctx).Model(&keyRow{}).Select("hits_today", "hits_date", "daily_limit").Where("id = ?", id)
	if err := s.locking(q).Take(&r).Error; err != nil {
		return 0, fmt.Errorf("count hits of api key %d: %w", id, errNotFoundOr(err, apikey.ErrNotFound))
	}
	cur := 0
	if r.HitsDate != nil && *r.HitsDate == day {
		cur = r.HitsToday
	}
	granted := min(n, r.DailyLimit-cur)
	if granted <= 0 {
		return 0, nil
	}
	err := s.conn(ctx).Model(&keyRow{}).Where("id = ?", id).Updates(map[string]any{
		"hits_today": cur + granted, "hits_date": day, "last_used_at": dbTime(at),
	}).Error
	if err != nil {
		return 0, fmt.Errorf("count hits of api key %d: %w", id, translate(err))
	}
	return granted, nil
}
