// Package migrations holds the versioned SQL schema, one folder per SQL
// dialect with the same version numbers, embedded into the binary and
// applied at start-up with goose (never GORM's AutoMigrate).
package migrations

import "embed"

// FS holds mysql/*.sql and sqlite/*.sql.
//
//go:embed mysql/*.sql sqlite/*.sql
var FS embed.FS
