package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/go-sql-driver/mysql"

	"paygate/adapters/sqlstore/sqlbase"
)

// retryBusy runs a batch again while the database aborts it as a deadlock
// or lock wait, up to busyRetries more times; any other error, or success,
// ends it at once.
func TestRetryBusy(t *testing.T) {
	deadlock := fmt.Errorf("commit: %w", &mysql.MySQLError{Number: sqlbase.MySQLDeadlock, Message: "Deadlock found"})
	other := errors.New("duplicate or worse")
	cases := []struct {
		name      string
		failures  []error // the answers of the runs, then nil
		wantRuns  int
		wantError error
	}{
		{"success at once", nil, 1, nil},
		{"two deadlocks, then success", []error{deadlock, deadlock}, 3, nil},
		{"a lock wait, then success", []error{&mysql.MySQLError{Number: sqlbase.MySQLLockWait}}, 2, nil},
		{"another error is not retried", []error{other, nil}, 1, other},
		{"deadlocks every time: given up", []error{deadlock, deadlock, deadlock, deadlock, deadlock, deadlock}, busyRetries + 1, deadlock},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs := 0
			err := retryBusy(context.Background(), func() error {
				runs++
				if runs <= len(c.failures) {
					return c.failures[runs-1]
				}
				return nil
			})
			if runs != c.wantRuns || !errors.Is(err, c.wantError) {
				t.Fatalf("runs %d, err %v; want %d, %v", runs, err, c.wantRuns, c.wantError)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	runs := 0
	if err := retryBusy(ctx, func() error { runs++; return deadlock }); runs != 1 || !errors.Is(err, deadlock) {
		t.Fatalf("a cancelled context: %d runs, %v", runs, err)
	}
}
