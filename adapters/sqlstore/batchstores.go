package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/accountstore"
	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/moneystore"
	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
	"paygate/core/metering"
	"paygate/core/metering/hitlog"
	"paygate/core/money/ledger"
)

// The repositories of a metering batch on MySQL (WithinBatchTx, batchtx.go).
// They are the ordinary repositories bound to the batch's connection, except
// these batch-only types, which defer to the COMMIT the writes whose result
// the batch does not read (batchConn) and record the users' rows the batch
// locks for the snapshots (batchsnap.go). Only storesOnBatch builds them.

var (
	_ user.Repository       = batchUsers{}
	_ ledger.Repository     = batchLedger{}
	_ metering.BatchLocks   = batchLocks{}
	_ metering.BatchInserts = batchInserts{}
)

// storesOnBatch are the repositories of the batch transaction db, whose
// connection is bc; Inserts in one exchange only where a multi-row INSERT
// takes consecutive ids, else statement by statement.
func (s *Store) storesOnBatch(db *gorm.DB, bc *batchConn) metering.BatchStores {
	st := metering.BatchStores{TxStores: metering.TxStoresOf(s.storesOn(db))}
	b := s.baseOn(db)
	users := batchUsers{UserStore: &accountstore.UserStore{Base: b}, bc: bc}
	entries := batchLedger{LedgerStore: &moneystore.LedgerStore{Base: b}, bc: bc}
	st.Users, st.Ledger, st.Locks = users, entries, batchLocks{b: b, bc: bc}
	st.Inserts = metering.Statements(st.TxStores).Inserts
	if s.consecutiveIDs {
		st.Inserts = batchInserts{entries}
	}
	return st
}

// batchUsers is the users repository of a batch. LockByID records the row
// it locked; SaveBalance of a user whose row the batch holds locked is sent
// with the COMMIT (an UPDATE by primary key of a row we hold matches it),
// and the row is recorded as the batch leaves it. Another user's balance
// is saved at once, its rows affected checked as usual.
type batchUsers struct {
	*accountstore.UserStore
	bc *batchConn
}

func (s batchUsers) LockByID(ctx context.Context, id uint64) (*user.User, error) {
	r, err := s.FindRow(ctx, true, "id = ?", id)
	if err != nil {
		return nil, err
	}
	u, err := accountstore.OpenUser(s.Base, r)
	if err != nil {
		return nil, fmt.Errorf("lock user %d: %w", id, err)
	}
	s.bc.keep(*r) // the row as read under the lock, its secret as stored
	return u, nil
}

func (s batchUsers) SaveBalance(ctx context.Context, u *user.User) error {
	r, locked := s.bc.lockedRow(u.ID)
	if !locked {
		return s.UserStore.SaveBalance(ctx, u)
	}
	now := sqlbase.DBTime(time.Now())
	values, err := accountstore.BalanceValues(u, now)
	if err != nil {
		return err
	}
	s.bc.deferExec("UPDATE users SET balance = ?, total_spent = ?, held_amount = ?, plan_month = ?, plan_calls = ?, updated_at = ? WHERE id = ?",
		values["balance"], values["total_spent"], values["held_amount"], values["plan_month"], values["plan_calls"], now, u.ID)
	u.UpdatedAt = now
	r.Balance, r.TotalSpent, r.HeldAmount = values["balance"].(string), values["total_spent"].(string), values["held_amount"].(string)
	r.PlanMonth, r.PlanCalls, r.UpdatedAt = sqlbase.NullString(u.PlanMonth), u.PlanCalls, &now
	s.bc.keep(r)
	return nil
}

// batchLedger is the ledger repository of a batch: InsertMany is sent with
// the COMMIT (a multi-row INSERT inserts every row or fails, and a failure
// stops the query before the COMMIT).
type batchLedger struct {
	*moneystore.LedgerStore
	bc *batchConn
}

func (s batchLedger) InsertMany(_ context.Context, entries []*ledger.Entry) error {
	return s.insertMany(entries, nil)
}

// insertMany is InsertMany where entry i with refs[i].v set takes its
// reference_id from refs[i] (refs nil: every entry its own ReferenceID).
func (s batchLedger) insertMany(entries []*ledger.Entry, refs []moneystore.HitRef) error {
	now := sqlbase.DBTime(time.Now())
	for _, c := range moneystore.EntryChunks(len(entries)) {
		var part []moneystore.HitRef
		if refs != nil {
			part = refs[c[0]:c[1]]
		}
		q, args, err := moneystore.EntryInsert(entries[c[0]:c[1]], part, now)
		if err != nil {
			return err
		}
		s.bc.deferExec(q, args...)
	}
	return nil
}

// batchInserts sends a batch's hit rows and ledger rows with the COMMIT
// (metering.BatchInserts): each hit INSERT is followed by SET
// @paygate_hits_<i> = LAST_INSERT_ID(), its first row's id, and a ledger
// row that references one of those hits takes its reference_id from that
// variable plus the hit's row index. The hits get their ids from the
// result of the query that sends them (batchConn.setIDs).
type batchInserts struct{ ledger batchLedger }

func (w batchInserts) Insert(ctx context.Context, hits []*hitlog.Hit, entries []*ledger.Entry, hitOf []int) error {
	if len(hitOf) != len(entries) {
		return fmt.Errorf("insert batch: %d hit references for %d entries", len(hitOf), len(entries))
	}
	bc := w.ledger.bc
	now := sqlbase.DBTime(time.Now())
	at := make([]moneystore.HitRef, 0, len(hits)) // where hit i's id is in the database
	for _, part := range meteringstore.HitChunks(hits) {
		q, args, err := meteringstore.HitInsert(part, now)
		if err != nil {
			return err
		}
		v, err := bc.deferHits(ctx, q, args, part, func(v string) (string, []any) { return meteringstore.PayloadInsert(part, v) })
		if err != nil {
			return fmt.Errorf("insert %d hits: %w", len(part), err)
		}
		for k := range part {
			at = append(at, moneystore.HitRef{V: v, K: k})
		}
	}
	if err := bc.usage.AddAll(hits); err != nil {
		return err
	}
	refs := make([]moneystore.HitRef, len(entries))
	for i, k := range hitOf {
		if k >= 0 {
			refs[i] = at[k]
			bc.refs = append(bc.refs, deferredRef{entry: entries[i], hit: hits[k]})
		}
	}
	return w.ledger.insertMany(entries, refs)
}

// batchLocks takes a metering batch's locks in one query
// (metering.BatchLocks): SELECT … FOR UPDATE of the users (ascending ids),
// then for each key the one-statement count (countHitsFast) and its
// ROW_COUNT(). A key whose calls do not all fit (or that is gone) is then
// decided by CountHits' locked read; its row is already locked by the
// UPDATE that read it (REPEATABLE READ keeps the lock of a row that did
// not match). From snapshots, the users are not read at all
// (fromSnapshots).
type batchLocks struct {
	b  sqlbase.Base
	bc *batchConn
}

func (l batchLocks) LockAndCount(ctx context.Context, userIDs []uint64, counts []metering.KeyCount, at time.Time) (map[uint64]*user.User, []int, error) {
	users := make(map[uint64]*user.User, len(userIDs))
	granted := make([]int, len(counts))
	keys := &accountstore.KeyStore{Base: l.b}
	if len(userIDs) == 0 { // never in a batch (every reservation has its user)
		for i, c := range counts {
			g, err := keys.CountHits(ctx, c.KeyID, c.Day, c.N, at)
			if err != nil && !errors.Is(err, apikey.ErrNotFound) {
				return nil, nil, err
			}
			granted[i] = g
		}
		return users, granted, nil
	}
	if ok, err := l.fromSnapshots(userIDs, counts, at, users, granted); ok || err != nil {
		return users, granted, err
	}
	var q strings.Builder
	args := make([]any, 0, len(userIDs)+7*len(counts))
	q.WriteString("SELECT " + accountstore.UserColumns + " FROM users WHERE id IN ")
	args = meteringstore.InList(&q, args, userIDs)
	q.WriteString(" ORDER BY id FOR UPDATE")
	for _, c := range counts {
		if c.N > 0 {
			q.WriteString(";" + accountstore.CountHitsFast + ";SELECT ROW_COUNT()")
			args = append(args, accountstore.CountHitsFastArgs(c.KeyID, c.Day, c.N, at)...)
		}
	}
	if err := l.query(ctx, q.String(), args, counts, users, granted); err != nil {
		return nil, nil, err
	}
	for _, id := range userIDs {
		if users[id] == nil {
			return nil, nil, fmt.Errorf("lock user %d: %w", id, user.ErrNotFound)
		}
	}
	for i, c := range counts {
		if granted[i] > 0 {
			continue
		}
		g, err := keys.CountHits(ctx, c.KeyID, c.Day, c.N, at)
		if err != nil && !errors.Is(err, apikey.ErrNotFound) {
			return nil, nil, err
		}
		granted[i] = g
	}
	return users, granted, nil
}

// fromSnapshots is LockAndCount from the snapshots of the users' rows
// (batchsnap.go), when the batch may use them and has them all, and every
// count has calls: the users as their snapshots, every call granted, and
// the locks, counts and their check deferred to the batch's query. False
// when it did nothing.
func (l batchLocks) fromSnapshots(userIDs []uint64, counts []metering.KeyCount, at time.Time,
	users map[uint64]*user.User, granted []int) (bool, error) {
	bc := l.bc
	if bc.snaps == nil || !slices.IsSorted(userIDs) {
		return false, nil
	}
	for _, c := range counts {
		if c.N <= 0 {
			return false, nil
		}
	}
	rows, ok := bc.snaps.get(userIDs, time.Now())
	if !ok {
		return false, nil
	}
	args := make([]countArgs, len(counts))
	for i, c := range counts {
		args[i] = accountstore.CountHitsFastArgs(c.KeyID, c.Day, c.N, at)
		granted[i] = c.N
	}
	for _, r := range rows {
		if err := bc.lockUser(l.b, r, users); err != nil {
			return false, err
		}
	}
	q, n, a := snapshotGuard(rows, args)
	bc.deferStatements(q, n, a...)
	bc.guarded = true
	return true, nil
}

// query runs LockAndCount's query: users into users, and for each count
// with N > 0 whose update matched, granted = N.
func (l batchLocks) query(ctx context.Context, q string, args []any, counts []metering.KeyCount, users map[uint64]*user.User, granted []int) error {
	rows, err := l.b.DB.Statement.ConnPool.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("lock users and count hits: %w", sqlbase.Translate(err))
	}
	defer rows.Close()
	for rows.Next() {
		var r accountstore.UserRow
		if err := rows.Scan(r.Fields()...); err != nil {
			return fmt.Errorf("lock users: %w", sqlbase.Translate(err))
		}
		if err := l.bc.lockUser(l.b, r, users); err != nil {
			return err
		}
	}
	for i, c := range counts {
		if c.N <= 0 {
			continue
		}
		var moved int64
		if !rows.NextResultSet() || !rows.Next() {
			if err := rows.Err(); err != nil {
				return fmt.Errorf("count hits of api key %d: %w", c.KeyID, sqlbase.Translate(err))
			}
			return fmt.Errorf("count hits of api key %d: no result", c.KeyID)
		}
		if err := rows.Scan(&moved); err != nil {
			return fmt.Errorf("count hits of api key %d: %w", c.KeyID, sqlbase.Translate(err))
		}
		if moved == 1 {
			granted[i] = c.N
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("lock users and count hits: %w", sqlbase.Translate(err))
	}
	return rows.Close()
}
