// Package dburl handles database URLs (sqlite://…, mysql://…) for
// messages: the server's store and the bench tools print them.
package dburl

import "net/url"

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
