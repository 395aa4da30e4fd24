package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"paygate/core/accounts/user"
)

// normaliseEmailsVersion is migration 00034 of both dialects, written in Go
// because SQL has no NFKC: every stored email becomes user.NormalizeEmail's
// form, the one every lookup now uses. There is no SQL file with its number.
const normaliseEmailsVersion = 34

// normaliseEmails rewrites, in id order, each email whose normal form
// differs from it. An account whose normal form another account already
// holds (a look-alike that SQLite's NOCASE let in beside the plain
// spelling, or a later look-alike of the same form) keeps its stored email
// and is logged: no sign-in, reset or registration can type it any more,
// since every input is normalised, so an admin decides (block or delete).
// So the account that already holds the normal form keeps it, and among
// look-alikes of a form nobody holds the oldest takes it. Reset tokens of rewritten emails
// are dropped (their links named the old spelling; they last an hour).
func (s *Store) normaliseEmails(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, email FROM users ORDER BY id")
	if err != nil {
		return fmt.Errorf("read emails: %w", err)
	}
	type account struct {
		id    uint64
		email string
	}
	var stale []account
	for rows.Next() {
		var a account
		if err := rows.Scan(&a.id, &a.email); err != nil {
			rows.Close()
			return fmt.Errorf("read emails: %w", err)
		}
		if user.NormalizeEmail(a.email) != a.email {
			stale = append(stale, a)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read emails: %w", err)
	}
	for _, a := range stale {
		normal := user.NormalizeEmail(a.email)
		var holder uint64
		err := tx.QueryRowContext(ctx, "SELECT id FROM users WHERE email = ? AND id <> ? ORDER BY id LIMIT 1", normal, a.id).Scan(&holder)
		switch {
		case err == nil:
			s.log.Warn("email not normalised: another account holds its normal form; an admin should block or delete one",
				"user_id", a.id, "holder_id", holder)
			continue
		case !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("look up email of user %d: %w", a.id, err)
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM password_reset_tokens WHERE email = ?", a.email); err != nil {
			return fmt.Errorf("drop reset token of user %d: %w", a.id, err)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE users SET email = ? WHERE id = ?", normal, a.id); err != nil {
			return fmt.Errorf("normalise email of user %d: %w", a.id, err)
		}
	}
	if len(stale) > 0 {
		s.log.Info("emails normalised", "candidates", len(stale))
	}
	return nil
}
