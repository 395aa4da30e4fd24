package sqlstore

import "context"

// Exec runs one statement on the store's database (tests write rows of
// columns no repository writes yet: a hit's reseller and commission, a
// commission settlement).
func (s *Store) Exec(ctx context.Context, sql string, args ...any) error {
	return s.db.WithContext(ctx).Exec(sql, args...).Error
}
