package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"paygate/adapters/sqlstore/sqlbase"
)

// UseSealer makes the store seal and open secrets with sl. Call it once,
// after Open and before the repositories are used.
func (s *Store) UseSealer(sl sqlbase.Sealer) { s.sealer = sl }

// secretColumns are the columns kept sealed, each on a table with an id
// primary key.
var secretColumns = []struct{ table, column string }{
	{"users", "api_secret"},
	{"api_services", "provider_key"},
}

// RotateBatch is how many rows one step of RotateSecrets reads.
const RotateBatch = 200

// RotateResult counts what RotateSecrets did.
type RotateResult struct {
	Sealed  int // values re-sealed under the current key (legacy plaintext included)
	Skipped int // values changed by someone else meanwhile (written under the current key)
	Failed  int // values that could not be opened (their key is not held)
}

// RotateSecrets re-seals every secret not sealed under the current key: in
// pages of batch rows by id, each value written back by a conditional
// UPDATE (… WHERE id = ? AND col = <the value read>), so a value the
// application changed meanwhile is left as it was written. Running it
// again changes nothing. Values that cannot be opened are counted and left
// as they are; the error names the first of them.
func (s *Store) RotateSecrets(ctx context.Context, batch int) (RotateResult, error) {
	var res RotateResult
	var firstErr error
	if batch <= 0 {
		batch = RotateBatch
	}
	db := s.db.WithContext(ctx)
	for _, sc := range secretColumns {
		var after uint64
		for {
			type row struct {
				ID    uint64
				Value string
			}
			var rows []row
			err := db.Raw("SELECT id, "+sc.column+" AS value FROM "+sc.table+
				" WHERE id > ? AND "+sc.column+" IS NOT NULL AND "+sc.column+" <> '' ORDER BY id LIMIT ?", after, batch).
				Scan(&rows).Error
			if err != nil {
				return res, fmt.Errorf("read %s.%s: %w", sc.table, sc.column, sqlbase.Translate(err))
			}
			for _, r := range rows {
				after = r.ID
				if s.sealer.Current(r.Value) {
					continue
				}
				plain, err := s.sealer.Open(r.Value)
				if err != nil {
					res.Failed++
					if firstErr == nil {
						firstErr = fmt.Errorf("%s %d %s: %w", sc.table, r.ID, sc.column, err)
					}
					continue
				}
				sealed, err := s.sealer.Seal(plain)
				if err != nil {
					return res, err
				}
				u := db.Exec("UPDATE "+sc.table+" SET "+sc.column+" = ? WHERE id = ? AND "+sc.column+" = ?", sealed, r.ID, r.Value)
				if u.Error != nil {
					return res, fmt.Errorf("re-seal %s %d %s: %w", sc.table, r.ID, sc.column, sqlbase.Translate(u.Error))
				}
				if u.RowsAffected == 1 {
					res.Sealed++
				} else {
					res.Skipped++
				}
			}
			if len(rows) < batch {
				break
			}
		}
	}
	if firstErr != nil {
		return res, fmt.Errorf("%d secrets could not be opened, first: %w", res.Failed, firstErr)
	}
	return res, nil
}

// sealedKeyPrefixLen is the length of "enc:v1:<8 hex digits>:".
const sealedKeyPrefixLen = len("enc:v1:") + 8 + 1

// CheckSecrets fails, naming the key ids, when a stored secret is sealed
// under a key the sealer does not hold (DATA_KEY changed without
// DATA_KEY_PREVIOUS): the server then refuses to start rather than fail
// on every read of those rows. One grouped scan per secret column.
func (s *Store) CheckSecrets(ctx context.Context) error {
	var unknown []string
	for _, sc := range secretColumns {
		var rows []struct {
			Prefix string
			N      int64
		}
		prefix := fmt.Sprintf("SUBSTR(%s, 1, %d)", sc.column, sealedKeyPrefixLen)
		err := s.db.WithContext(ctx).Raw("SELECT "+prefix+" AS prefix, COUNT(*) AS n FROM "+sc.table+
			" WHERE "+sc.column+" LIKE ? GROUP BY "+prefix, sqlbase.SealedPrefix+"%").Scan(&rows).Error
		if err != nil {
			return fmt.Errorf("check %s.%s: %w", sc.table, sc.column, sqlbase.Translate(err))
		}
		for _, r := range rows {
			if !s.sealer.Holds(r.Prefix) {
				unknown = append(unknown, fmt.Sprintf("%d in %s.%s under %q", r.N, sc.table, sc.column, r.Prefix))
			}
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("stored secrets sealed under a key that neither DATA_KEY nor DATA_KEY_PREVIOUS is: %s", strings.Join(unknown, ", "))
	}
	return nil
}
