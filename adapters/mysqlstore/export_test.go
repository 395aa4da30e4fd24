package mysqlstore

import "context"

// MySQLConfig exposes the URL-to-driver-config conversion to the tests.
var MySQLConfig = mysqlConfig

// MigrateTo applies the migrations up to version only.
func (s *Store) MigrateTo(ctx context.Context, version int64) error { return s.migrateTo(ctx, version) }

// Translate exposes the driver-error mapping to the tests.
var Translate = translate

// ReadBackIDs makes InsertMany read hit ids back by request_id, as on a
// MySQL whose multi-row INSERTs may take non-consecutive ids.
func (s *Store) ReadBackIDs() { s.consecutiveIDs = false }
