// Package dburl handles database URLs (sqlite://…, mysql://…) outside the
// store: it hides their passwords in messages, and opens the server of a
// mysql:// URL for the tools and tests that create and drop databases.
package dburl

import (
	"database/sql"
	"fmt"
	"net/url"

	"github.com/go-sql-driver/mysql"
)

// Redact hides the password of a database URL, for messages and logs; a
// URL that does not parse is not shown at all (it may hold a password).
func Redact(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "(invalid URL)"
	}
	if u.User == nil {
		return databaseURL
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// OpenServer connects to the MariaDB/MySQL server of a mysql:// URL as its
// user, without selecting a database (its path is ignored): for CREATE
// and DROP DATABASE and server settings. Connections are made on first
// use.
func OpenServer(serverURL string) (*sql.DB, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Scheme != "mysql" {
		return nil, fmt.Errorf("want a mysql:// URL, got %q", Redact(serverURL))
	}
	cfg := mysql.NewConfig()
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	cfg.Net, cfg.Addr = "tcp", u.Host
	return sql.Open("mysql", cfg.FormatDSN())
}
