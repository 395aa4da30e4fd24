package sqlstore

import (
	"context"
	"database/sql"

	"github.com/pressly/goose/v3"
)

// goMigrationSteps are the migrations written in Go, beside migrations/'s
// SQL, by version: there is no SQL file with their numbers.
func (s *Store) goMigrationSteps() map[int64]func(context.Context, *sql.Tx) error {
	return map[int64]func(context.Context, *sql.Tx) error{
		normaliseEmailsVersion:   s.normaliseEmails,
		openPlanCodesVersion:     s.openPlanCodes,
		openSubscriptionsVersion: s.openSubscriptions,
	}
}

// goMigrations registers goMigrationSteps with goose.
func (s *Store) goMigrations() goose.ProviderOption {
	var ms []*goose.Migration
	for v, run := range s.goMigrationSteps() {
		ms = append(ms, goose.NewGoMigration(v, &goose.GoFunc{RunTx: run}, nil))
	}
	return goose.WithGoMigrations(ms...)
}
