package sqlbase

import (
	"context"
	"database/sql"
)

// Batched writes of the metering pipeline (core/app's group commit): one
// statement for many rows, cut into chunks so that no statement grows past
// batchRows rows or about batchBytes bytes of payload (MySQL's
// max_allowed_packet is 16 MiB by default, SQLite allows 32766 variables).
const (
	BatchRows  = 200
	batchBytes = 1 << 20
)

// Chunks cuts n items into ranges of at most batchRows items and about
// batchBytes bytes (size of item i); an item larger than batchBytes goes alone.
func Chunks(n int, size func(i int) int) [][2]int {
	var out [][2]int
	start, bytes := 0, 0
	for i := 0; i < n; i++ {
		sz := size(i)
		if i > start && (i-start >= BatchRows || bytes+sz > batchBytes) {
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

// SQLExec runs one statement on the repository's handle (the transaction's,
// inside WithinTx) and returns the driver's result.
func (b Base) SQLExec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return b.DB.Statement.ConnPool.ExecContext(ctx, query, args...)
}
