package meteringstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/metering/hitlog"
)

// Hit payloads live in hit_payloads (migration 00030), one row per hit,
// keyed by the hit's id and month (payloadMonth of its created_at). The
// hit repository writes them in the transaction that writes the hit: the
// request (and a final hit's response) with the INSERT, a pending hit's
// response with the settlement that moves it. Reads join them (payloadJoin).
// On MySQL the table is a ring of monthly hash partitions, so retention
// empties a month with one TRUNCATE PARTITION; SQLite deletes expired rows
// in bounded batches (ClearPayloads).

// payloadMonths is the number of partitions of MySQL's ring: month m is in
// partition m MOD payloadMonths (PARTITION BY HASH (month)).
const payloadMonths = 24

// MaxPayloadRetentionMySQL is the longest HIT_PAYLOAD_RETENTION MySQL's
// ring supports with room to spare: a month's partition must be emptied
// before the ring comes back to it (23 months later), and a retention of a
// year leaves the retention worker ten months to do it.
const MaxPayloadRetentionMySQL = 365 * 24 * time.Hour

// PayloadMonth is t's month in UTC counted from year 0: YEAR * 12 + MONTH - 1,
// as the SQL of payloadJoin and migration 00030 compute it.
func PayloadMonth(t time.Time) int {
	u := t.UTC()
	return u.Year()*12 + int(u.Month()) - 1
}

const payloadColumns = "(hit_id, month, request_payload, response_payload)"

// payloadJoin joins the hits of a query on api_hit_logs to their payloads
// as p. On MySQL the join names the month too, so each hit's lookup reads
// one partition by its primary key.
func payloadJoin(b sqlbase.Base) string {
	if b.MySQL {
		return "LEFT JOIN hit_payloads p ON p.hit_id = api_hit_logs.id AND " +
			"p.month = YEAR(api_hit_logs.created_at) * 12 + MONTH(api_hit_logs.created_at) - 1"
	}
	return "LEFT JOIN hit_payloads p ON p.hit_id = api_hit_logs.id"
}

// withPayloads is the select list of a hit with its payloads (joined by
// payloadJoin); a hit without a payload row reads an empty request.
const withPayloads = "api_hit_logs.*, COALESCE(p.request_payload, '') AS request_payload, p.response_payload AS response_payload"

// PayloadInsert is the multi-row INSERT of the payloads of hits, whose
// creation times are set. idVar "" takes each hit's ID; otherwise hit k's
// id is the SQL user variable idVar plus k (a deferred batch INSERT's first
// id, batchConn.deferHits).
func PayloadInsert(hits []*hitlog.Hit, idVar string) (string, []any) {
	var q strings.Builder
	q.WriteString("INSERT INTO hit_payloads " + payloadColumns + " VALUES ")
	args := make([]any, 0, 4*len(hits))
	for k, h := range hits {
		if k > 0 {
			q.WriteByte(',')
		}
		if idVar != "" {
			q.WriteString("(" + idVar + "+?,?,?,?)")
			args = append(args, k)
		} else {
			q.WriteString("(?,?,?,?)")
			args = append(args, h.ID)
		}
		args = append(args, PayloadMonth(h.CreatedAt), h.RequestPayload, h.ResponsePayload)
	}
	return q.String(), args
}

// insertPayloads inserts the payloads of hits, which have their ids.
func (s *HitStore) insertPayloads(ctx context.Context, hits []*hitlog.Hit) error {
	for _, part := range HitChunks(hits) {
		q, args := PayloadInsert(part, "")
		if _, err := s.SQLExec(ctx, q, args...); err != nil {
			return fmt.Errorf("insert the payloads of %d hits: %w", len(part), sqlbase.Translate(err))
		}
	}
	return nil
}

// settlePayloads writes the responses of hits a settlement moved (those
// with one): an upsert on the payload row's key, so each row is found by
// its primary key in its month's partition, and a row retention already
// removed comes back with the response alone.
func (s *HitStore) settlePayloads(ctx context.Context, hits []*hitlog.Hit) error {
	with := make([]*hitlog.Hit, 0, len(hits))
	for _, h := range hits {
		if h.ResponsePayload == nil {
			continue
		}
		if h.CreatedAt.IsZero() {
			// Its month would be wrong: the response would land on a row of its own.
			return fmt.Errorf("write the response of hit %s: no creation time", h.RequestID)
		}
		with = append(with, h)
	}
	for _, part := range HitChunks(with) {
		var q strings.Builder
		args := make([]any, 0, 3*len(part))
		q.WriteString("INSERT INTO hit_payloads " + payloadColumns + " VALUES ")
		for k, h := range part {
			if k > 0 {
				q.WriteByte(',')
			}
			q.WriteString("(?,?,'',?)")
			args = append(args, h.ID, PayloadMonth(h.CreatedAt), *h.ResponsePayload)
		}
		q.WriteString(responseUpsert(s.Conflict))
		if _, err := s.SQLExec(ctx, q.String(), args...); err != nil {
			return fmt.Errorf("write the responses of %d hits: %w", len(part), sqlbase.Translate(err))
		}
	}
	return nil
}

// ClearPayloads removes the payloads of hits created before `before`.
//
// MySQL empties whole months: each call truncates at most one partition of
// the ring whose every row is from a month that ended before `before`, and
// reports the rows the partition held (InnoDB's estimate). A month's
// payloads therefore stay until the whole month is past the retention: up
// to a month longer than it. The TRUNCATE waits at most a second for the
// metadata lock (lock_wait_timeout), so a long transaction makes it give up
// until the next round rather than queue metered calls behind it.
//
// SQLite deletes the payload rows of the oldest hits (hit id order), up to
// limit of them whose hit was created before `before`, in one DELETE by a
// range of hit ids. Several instances at once are harmless either way.
func (s *HitStore) ClearPayloads(ctx context.Context, before time.Time, limit int) (int, bool, error) {
	if limit <= 0 {
		limit = 1000
	}
	if s.MySQL {
		return s.dropPayloadMonth(ctx, before)
	}
	db := s.Conn(ctx)
	var next []struct {
		ID        uint64     `gorm:"column:hit_id"`
		CreatedAt *time.Time `gorm:"column:created_at"`
	}
	err := db.Raw("SELECT p.hit_id, h.created_at FROM hit_payloads p LEFT JOIN api_hit_logs h ON h.id = p.hit_id "+
		"ORDER BY p.hit_id LIMIT ?", limit).Scan(&next).Error
	if err != nil {
		return 0, false, fmt.Errorf("read the oldest hit payloads: %w", sqlbase.Translate(err))
	}
	cutoff := sqlbase.DBTime(before)
	run := 0
	for _, r := range next {
		if r.CreatedAt != nil && !r.CreatedAt.Before(cutoff) {
			break
		}
		run++
	}
	if run == 0 {
		return 0, false, nil
	}
	res := db.Exec("DELETE FROM hit_payloads WHERE hit_id >= ? AND hit_id <= ?", next[0].ID, next[run-1].ID)
	if res.Error != nil {
		return 0, false, fmt.Errorf("delete hit payloads: %w", sqlbase.Translate(res.Error))
	}
	return int(res.RowsAffected), run == limit, nil
}

// dropPayloadMonth truncates the first partition of the ring that holds
// rows and whose latest possible month ended before `before` (MySQL). The
// months that may hold rows run to the one a day from now, so an instance
// whose clock runs ahead into the next month never writes into a partition
// another one empties.
func (s *HitStore) dropPayloadMonth(ctx context.Context, before time.Time) (int, bool, error) {
	live := PayloadMonth(time.Now().Add(24 * time.Hour))
	expired := PayloadMonth(before) // the months before this one ended before `before`
	var candidates []int
	for p := range payloadMonths {
		latest := live - (live-p)%payloadMonths // the last month up to live in partition p
		if latest < expired {
			candidates = append(candidates, p)
		}
	}
	db := s.Conn(ctx)
	for i, p := range candidates {
		name := fmt.Sprintf("p%d", p)
		var found []int
		if err := db.Raw("SELECT 1 FROM hit_payloads PARTITION (" + name + ") LIMIT 1").Scan(&found).Error; err != nil {
			return 0, false, fmt.Errorf("look at hit payload partition %s: %w", name, sqlbase.Translate(err))
		}
		if len(found) == 0 {
			continue
		}
		var rows int64
		if err := db.Raw("SELECT COALESCE(TABLE_ROWS, 0) FROM information_schema.PARTITIONS "+
			"WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'hit_payloads' AND PARTITION_NAME = ?", name).Scan(&rows).Error; err != nil {
			return 0, false, fmt.Errorf("count hit payload partition %s: %w", name, sqlbase.Translate(err))
		}
		err := db.Connection(func(c *gorm.DB) error {
			if err := c.Exec("SET SESSION lock_wait_timeout = 1").Error; err != nil {
				return err
			}
			err := c.Exec("ALTER TABLE hit_payloads TRUNCATE PARTITION " + name).Error
			if rerr := c.Exec("SET SESSION lock_wait_timeout = DEFAULT").Error; err == nil {
				err = rerr
			}
			return err
		})
		if err != nil {
			return 0, false, fmt.Errorf("truncate hit payload partition %s: %w", name, sqlbase.Translate(err))
		}
		return max(int(rows), 1), i < len(candidates)-1, nil
	}
	return 0, false, nil
}

// responseUpsert ends settlePayloads' INSERT: a row already there (the
// request's) takes the response.
func responseUpsert(cs sqlbase.ConflictSyntax) string {
	if cs == sqlbase.ConflictExcluded {
		return " ON CONFLICT (hit_id) DO UPDATE SET response_payload = excluded.response_payload"
	}
	return cs.RowAlias() + " ON DUPLICATE KEY UPDATE response_payload = " + cs.Inserted("response_payload")
}
