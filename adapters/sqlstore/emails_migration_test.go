package sqlstore_test

import (
	"context"
	"testing"

	"paygate/adapters/sqlstore"
)

// Migration 00034 stores every email in user.NormalizeEmail's form. An
// account whose normal form another holds keeps its stored spelling (on
// SQLite, whose NOCASE let look-alikes in; MySQL's collation never did):
// the plain spelling's holder keeps it, and among look-alikes of a form
// nobody held the oldest takes it. Reset tokens of rewritten emails go.
func TestMigrationNormalisesStoredEmails(t *testing.T) {
	eachAtVersion(t, 30, func(t *testing.T, s *sqlstore.Store) {
		db := s.DB()
		insert := func(id int, email string) error {
			return db.Exec("INSERT INTO users (id, name, email, phone, password) VALUES (?, 'U', ?, ?, 'x')",
				id, email, "98765000"+string(rune('0'+id/10))+string(rune('0'+id%10))).Error
		}
		for id, email := range map[int]string{1: "u1@ex.com", 2: "u2@ex.coｍ", 3: "ＡＳＨＡ@ex.com", 6: "plain@ex.com"} {
			if err := insert(id, email); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Exec("INSERT INTO password_reset_tokens (email, token) VALUES ('u2@ex.coｍ', 'h'), ('plain@ex.com', 'k')").Error; err != nil {
			t.Fatal(err)
		}
		// Look-alikes of a normal form another row holds: SQLite's NOCASE
		// lets them in, MySQL's collation refuses them as duplicates.
		if err := insert(5, "ｕ5@ex.com"); err != nil {
			t.Fatal(err)
		}
		sqlite := insert(4, "u1@ex.coｍ") == nil
		if err := insert(7, "u5@ex.coｍ"); (err == nil) != sqlite {
			t.Fatalf("insert 7: %v", err)
		}
		if err := s.MigrateTo(context.Background(), 34); err != nil {
			t.Fatal(err)
		}
		var rows []struct {
			ID    int
			Email string
		}
		if err := db.Raw("SELECT id, email FROM users ORDER BY id").Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		want := map[int]string{1: "u1@ex.com", 2: "u2@ex.com", 3: "asha@ex.com", 5: "u5@ex.com", 6: "plain@ex.com"}
		if sqlite {
			want[4] = "u1@ex.coｍ" // u1@ex.com is user 1's
			want[7] = "u5@ex.coｍ" // user 5, older, took u5@ex.com
		}
		got := map[int]string{}
		for _, r := range rows {
			got[r.ID] = r.Email
		}
		if len(got) != len(want) {
			t.Fatalf("users %v, want %v", got, want)
		}
		for id, e := range want {
			if got[id] != e {
				t.Errorf("user %d: %q, want %q", id, got[id], e)
			}
		}
		var tokens []string
		db.Raw("SELECT email FROM password_reset_tokens ORDER BY email").Scan(&tokens)
		if len(tokens) != 1 || tokens[0] != "plain@ex.com" {
			t.Errorf("reset tokens left: %q", tokens)
		}
	})
}
