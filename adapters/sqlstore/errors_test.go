package sqlstore_test

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/go-sql-driver/mysql"

	"paygate/adapters/sqlstore"
	"paygate/core/platform/errs"
)

// TestLostConnectionIsUnavailable: every way a database connection dies
// maps to errs.ErrUnavailable (503 service_unavailable), not a bare 500.
func TestLostConnectionIsUnavailable(t *testing.T) {
	lost := []error{
		driver.ErrBadConn,
		mysql.ErrInvalidConn,
		io.ErrUnexpectedEOF,
		&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED},
		fmt.Errorf("read: %w", syscall.ECONNRESET),
		&mysql.MySQLError{Number: 1053, Message: "Server shutdown in progress"},
		&mysql.MySQLError{Number: 1927, Message: "Connection was killed"},
	}
	for _, err := range lost {
		if got := sqlstore.Translate(err); !errors.Is(got, errs.ErrUnavailable) || !errors.Is(got, err) {
			t.Errorf("translate(%v) = %v, want errs.ErrUnavailable wrapping it", err, got)
		}
	}
	for _, err := range []error{errors.New("syntax error"), &mysql.MySQLError{Number: 1064, Message: "syntax"}} {
		if got := sqlstore.Translate(err); errs.KindOf(got) == errs.Unavailable {
			t.Errorf("translate(%v) = %v: not a lost connection", err, got)
		}
	}
}
