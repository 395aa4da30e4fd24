package sqlbase

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/go-sql-driver/mysql"
	"gorm.io/gorm"
	"modernc.org/sqlite"

	"paygate/core/platform/errs"
)

// ErrInvalidReference is returned when a row names a parent that does not
// exist (a foreign key refused it).
var ErrInvalidReference = errs.E(errs.Invalid, "invalid_reference", "A referenced record does not exist")

type failure int

const (
	failOther      failure = iota
	failDuplicate          // a unique key refused the row
	FailForeignKey         // a foreign key refused the row
	FailBusy               // lock wait, deadlock or a busy database: try again
)

// MySQL and SQLite (extended) error codes this package understands.
const (
	mysqlDuplicate      = 1062
	mysqlFKChild        = 1452
	mysqlFKParent       = 1451
	mysqlFKChildOld     = 1216
	mysqlFKParentOld    = 1217
	MySQLLockWait       = 1205
	MySQLDeadlock       = 1213
	mysqlTooManyConns   = 1040
	mysqlShutdown       = 1053 // server shutdown in progress
	mysqlConnKilled     = 1927 // connection was killed
	mysqlGoneAway       = 2006
	mysqlLostConn       = 2013
	sqliteBusy          = 5
	sqliteLocked        = 6
	sqliteConstraintPK  = 1555
	sqliteConstraintUQ  = 2067
	sqliteConstraintFK  = 787
	sqlitePrimaryResult = 0xff
)

// Classify reports what kind of failure err is and the driver's message,
// which names the index or constraint involved.
func Classify(err error) (failure, string) {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case mysqlDuplicate:
			return failDuplicate, me.Message
		case mysqlFKChild, mysqlFKParent, mysqlFKChildOld, mysqlFKParentOld:
			return FailForeignKey, me.Message
		case MySQLLockWait, MySQLDeadlock:
			return FailBusy, me.Message
		}
		return failOther, me.Message
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch code := se.Code(); {
		case code == sqliteConstraintUQ || code == sqliteConstraintPK:
			return failDuplicate, se.Error()
		case code == sqliteConstraintFK:
			return FailForeignKey, se.Error()
		case code&sqlitePrimaryResult == sqliteBusy || code&sqlitePrimaryResult == sqliteLocked:
			return FailBusy, se.Error()
		}
		return failOther, se.Error()
	}
	return failOther, ""
}

// DuplicateOf reports whether err is a unique-key violation and, if so, the
// driver's message naming the index ("... for key 'users_email_unique'",
// "UNIQUE constraint failed: users.email").
func DuplicateOf(err error) (string, bool) {
	f, msg := Classify(err)
	return msg, f == failDuplicate
}

// connectionLost reports whether err means the database could not be
// reached or the connection died under a statement (server stopped,
// restarted, killed the connection, network gone).
func connectionLost(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, mysql.ErrInvalidConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		switch me.Number {
		case mysqlTooManyConns, mysqlShutdown, mysqlConnKilled, mysqlGoneAway, mysqlLostConn:
			return true
		}
	}
	return false
}

// markUnavailable is a GORM callback run last after every statement: a lost
// database connection becomes errs.ErrUnavailable (503 at the edge) however
// the repository wraps it afterwards.
func markUnavailable(db *gorm.DB) {
	if db.Error != nil && errs.KindOf(db.Error) != errs.Unavailable && connectionLost(db.Error) {
		db.Error = errs.ErrUnavailable.Wrap(db.Error)
	}
}

// RegisterUnavailable installs markUnavailable on every kind of statement.
func RegisterUnavailable(db *gorm.DB) error {
	cb := db.Callback()
	for _, err := range []error{
		cb.Create().After("*").Register("paygate:unavailable", markUnavailable),
		cb.Query().After("*").Register("paygate:unavailable", markUnavailable),
		cb.Update().After("*").Register("paygate:unavailable", markUnavailable),
		cb.Delete().After("*").Register("paygate:unavailable", markUnavailable),
		cb.Row().After("*").Register("paygate:unavailable", markUnavailable),
		cb.Raw().After("*").Register("paygate:unavailable", markUnavailable),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// Translate maps driver errors every repository shares: duplicates to
// errs.ErrConflict, foreign keys to ErrInvalidReference, lock trouble and a
// lost connection to errs.ErrUnavailable. Others pass through unchanged.
func Translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return errs.ErrNotFound.Wrap(err)
	}
	if errs.KindOf(err) == errs.Unavailable {
		return err
	}
	if connectionLost(err) {
		return errs.ErrUnavailable.Wrap(err)
	}
	switch f, _ := Classify(err); f {
	case failDuplicate:
		return errs.ErrConflict.Wrap(err)
	case FailForeignKey:
		return ErrInvalidReference.Wrap(err)
	case FailBusy:
		return errs.ErrUnavailable.Wrap(err)
	}
	return err
}

// Mentions reports whether a driver message names one of the given index or
// column fragments.
func Mentions(msg string, fragments ...string) bool {
	for _, f := range fragments {
		if strings.Contains(msg, f) {
			return true
		}
	}
	return false
}

// ErrNotFoundOr returns notFound for a missing row, else err translated.
func ErrNotFoundOr(err, notFound error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return notFound
	}
	return Translate(err)
}
