package sqlstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"

	"paygate/adapters/sqlstore/accountstore"
	"paygate/adapters/sqlstore/meteringstore"
	"paygate/adapters/sqlstore/sqlbase"
)

// Optimistic reservation batches (MySQL). A batch normally spends a round
// trip locking and reading its users' rows before it can decide. When this
// instance's last committed batch left a user's row in a state it knows
// (read under the lock, with that batch's own update applied), the next
// batch starts from that snapshot and checks it in the database instead:
// its deferred query begins with snapshotGuard, which locks the same rows
// (ascending ids), compares them with the snapshots (snapshotMatch), counts
// the keys' calls, and fails with error 1172 unless every row matched and
// every count fitted. The failure stops the query before the COMMIT, the
// batch rolls back and runs again reading under the locks, and the users
// that failed get no snapshot for staleCooldown, so a row that others keep
// changing costs one failed attempt per cooldown, not one per batch.

// errStaleSnapshot: an optimistic batch's check failed; it is run again
// with the locked read.
var errStaleSnapshot = errors.New("metering batch: a user's row or a key's count differs from this instance's snapshot")

// staleCooldown is how long a user whose snapshot failed its check is
// batched the usual way.
const staleCooldown = time.Second

// maxSnapshots bounds the snapshots kept (cleared when exceeded).
const maxSnapshots = 10000

// userSnapshots are the users' rows as this instance's last committed
// batches left them.
type userSnapshots struct {
	mu   sync.Mutex
	rows map[uint64]accountstore.UserRow
	cool map[uint64]time.Time // no snapshot use before then
}

func newUserSnapshots() *userSnapshots {
	return &userSnapshots{rows: map[uint64]accountstore.UserRow{}, cool: map[uint64]time.Time{}}
}

// get returns the snapshots of ids, or false when one is missing or
// cooling down.
func (c *userSnapshots) get(ids []uint64, now time.Time) ([]accountstore.UserRow, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	rows := make([]accountstore.UserRow, len(ids))
	for i, id := range ids {
		r, ok := c.rows[id]
		if !ok || now.Before(c.cool[id]) {
			return nil, false
		}
		rows[i] = r
	}
	return rows, true
}

// put keeps rows as committed.
func (c *userSnapshots) put(rows map[uint64]accountstore.UserRow) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.rows)+len(rows) > maxSnapshots {
		clear(c.rows)
		clear(c.cool)
	}
	for id, r := range rows {
		c.rows[id] = r
	}
}

// drop forgets the snapshots of ids; with cool, none is used for them
// until staleCooldown has passed.
func (c *userSnapshots) drop(ids []uint64, cool bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range ids {
		delete(c.rows, id)
		if cool {
			c.cool[id] = now.Add(staleCooldown)
		} else {
			delete(c.cool, id)
		}
	}
}

// snapshotIgnored are the users columns the guard does not compare, each
// with the reason; every other column of userRow is compared.
var snapshotIgnored = map[string]string{
	"created_at":     "written once when the account is made; no batch decision or write depends on it",
	"remember_token": "not mapped to user.User: the batch neither reads nor writes it",
}

// snapshotHashed are compared by their SHA-256, so the secrets are never
// sent.
var snapshotHashed = map[string]bool{"password": true, "api_secret": true}

// snapshotDecimals are the users' money columns, compared as numbers: the
// row holds their text with the column's places.
var snapshotDecimals = map[string]bool{sqlbase.ColBalance.Name: true, sqlbase.ColSpent.Name: true, sqlbase.ColHeld.Name: true, sqlbase.ColLowBalance.Name: true,
	sqlbase.ColFeePercent.Name: true, sqlbase.ColPayoutLimit.Name: true}

// snapshotColumn is how the guard compares one column: cond with one
// placeholder, whose argument is the snapshot's field (hashed first).
type snapshotColumn struct {
	cond   string
	field  []int
	hashed bool
}

// snapshotColumns are the guard's comparisons, one for each column of
// userRowColumns not in snapshotIgnored. A nullable column (a pointer
// field) compares with <=>, so NULL matches NULL; text compares as bytes
// (BINARY), as the columns' collations ignore case and trailing spaces.
var snapshotColumns = newSnapshotColumns(accountstore.UserRowColumns)

func newSnapshotColumns(cols []sqlbase.RowColumn) []snapshotColumn {
	var out []snapshotColumn
	for _, c := range cols {
		if _, ignored := snapshotIgnored[c.Name]; ignored {
			continue
		}
		t, op := c.Field.Type, " = "
		if t.Kind() == reflect.Pointer {
			t, op = t.Elem(), " <=> "
		}
		lhs, rhs := c.Name, "?"
		switch {
		case snapshotHashed[c.Name]:
			lhs, rhs = "SHA2("+c.Name+", 256)", "BINARY ?"
		case snapshotDecimals[c.Name]:
			rhs = "CAST(? AS DECIMAL(30, 4))"
		case t.Kind() == reflect.String:
			rhs = "BINARY ?"
		}
		out = append(out, snapshotColumn{cond: lhs + op + rhs, field: c.Field.Index, hashed: snapshotHashed[c.Name]})
	}
	return out
}

// snapshotCondition is the condition that a users row reads a snapshot,
// with one placeholder per snapshotColumns.
var snapshotCondition = allOf(snapshotColumns)

// allOf is the conjunction of cols' conditions, in parentheses.
func allOf(cols []snapshotColumn) string {
	conds := make([]string, len(cols))
	for i, c := range cols {
		conds[i] = c.cond
	}
	return "(" + strings.Join(conds, " AND ") + ")"
}

// snapshotMatch is the condition that the users row with id r.ID reads r
// (snapshotCondition), and its arguments.
func snapshotMatch(r *accountstore.UserRow) (string, []any) {
	v := reflect.ValueOf(r).Elem()
	args := make([]any, len(snapshotColumns))
	for i, c := range snapshotColumns {
		f := v.FieldByIndex(c.field)
		switch {
		case !c.hashed:
			args[i] = f.Interface()
		case f.Kind() == reflect.Pointer:
			args[i] = sha256Hex(f.Interface().(*string))
		default:
			args[i] = sha256Hex(f.Addr().Interface().(*string))
		}
	}
	return snapshotCondition, args
}

// sha256Hex is SHA2(s, 256) as MySQL prints it (NULL for NULL).
func sha256Hex(s *string) *string {
	if s == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(*s))
	h := hex.EncodeToString(sum[:])
	return &h
}

// snapshotCheck fails with error 1172 unless @paygate_ok is the argument.
const snapshotCheck = "SELECT 1 INTO @paygate_stale FROM (SELECT 1 AS x UNION ALL SELECT 2) AS two WHERE @paygate_ok <> ?"

// snapshotGuard is the start of an optimistic batch's query: the users'
// locks and snapshot checks for rows (ascending ids), each count's
// statement, and the check; its number of statements and its arguments.
func snapshotGuard(rows []accountstore.UserRow, counts []countArgs) (string, int, []any) {
	var q strings.Builder
	args := make([]any, 0, (len(snapshotColumns)+1)*len(rows)+7*len(counts)+1)
	q.WriteString("SELECT COUNT(*) INTO @paygate_ok FROM users WHERE id IN ")
	ids := make([]uint64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	args = meteringstore.InList(&q, args, ids)
	q.WriteString(" AND (")
	for i := range rows {
		if i > 0 {
			q.WriteString(" OR ")
		}
		cond, a := snapshotMatch(&rows[i])
		q.WriteString(cond)
		args = append(args, a...)
	}
	q.WriteString(") FOR UPDATE")
	for _, c := range counts {
		q.WriteString(";" + accountstore.CountHitsFast + ";SET @paygate_ok = @paygate_ok + ROW_COUNT()")
		args = append(args, c...)
	}
	q.WriteString(";" + snapshotCheck)
	args = append(args, len(rows)+len(counts))
	return q.String(), 2 + 2*len(counts), args
}

// countArgs are countHitsFast's arguments for one key.
type countArgs = []any

// isSnapshotCheckFailure reports the check's error.
func isSnapshotCheckFailure(err error) bool {
	var me *mysql.MySQLError
	return errors.As(err, &me) && me.Number == 1172
}
