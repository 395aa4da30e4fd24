package sqlbase

import (
	"strconv"
	"strings"
)

// ConflictSyntax is how an upsert names the values of the row it could not
// insert: the store reads it from the server at Open.
type ConflictSyntax uint8

const (
	// ConflictExcluded: SQLite, ON CONFLICT (…) DO UPDATE SET c = excluded.c.
	ConflictExcluded ConflictSyntax = iota
	// ConflictValues: MariaDB (which has no row alias) and MySQL before
	// 8.0.19, ON DUPLICATE KEY UPDATE c = VALUES(c).
	ConflictValues
	// ConflictAlias: MySQL 8.0.19 and later, VALUES (…) AS new ON DUPLICATE
	// KEY UPDATE c = new.c; VALUES() there is deprecated since 8.0.20.
	ConflictAlias
)

// ConflictSyntaxOf is the syntax of a MySQL-protocol server from its
// SELECT VERSION(): "10.11.6-MariaDB-1:10.11.6+maria~ubu2204", "8.0.36",
// "5.7.44-log".
func ConflictSyntaxOf(version string) ConflictSyntax {
	if strings.Contains(strings.ToLower(version), "mariadb") {
		return ConflictValues
	}
	parts := strings.SplitN(strings.FieldsFunc(version, func(r rune) bool { return r == '-' || r == ' ' })[0], ".", 4)
	num := func(i int) int {
		if i >= len(parts) {
			return 0
		}
		n, _ := strconv.Atoi(parts[i])
		return n
	}
	major, minor, patch := num(0), num(1), num(2)
	if major > 8 || major == 8 && (minor > 0 || patch >= 19) {
		return ConflictAlias
	}
	return ConflictValues
}

// RowAlias follows the VALUES list of a MySQL upsert: " AS new" where the
// server takes a row alias, else nothing.
func (c ConflictSyntax) RowAlias() string {
	if c == ConflictAlias {
		return " AS new"
	}
	return ""
}

// Inserted names column col of the row that was not inserted, in an
// update's SET list.
func (c ConflictSyntax) Inserted(col string) string {
	switch c {
	case ConflictAlias:
		return "new." + col
	case ConflictValues:
		return "VALUES(" + col + ")"
	}
	return "excluded." + col
}
