package accountstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/user"
)

// resetRow is a password_reset_tokens row: one per email; token
// holds the hex SHA-256 of the token value, never the value.
type resetRow struct {
	Email     string     `gorm:"column:email;primaryKey"`
	Token     string     `gorm:"column:token"`
	CreatedAt *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (resetRow) TableName() string { return "password_reset_tokens" }

// ResetStore is the database's user.ResetRepository.
type ResetStore struct{ sqlbase.Base }

var _ user.ResetRepository = (*ResetStore)(nil)

// Put inserts the email's token or replaces the one it has (an upsert on
// the primary key, so two concurrent requests leave one row).
func (s *ResetStore) Put(ctx context.Context, t user.ResetToken) error {
	r := resetRow{Email: strings.ToLower(t.Email), Token: t.TokenHash, CreatedAt: sqlbase.Stamp(t.CreatedAt)}
	err := s.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"token", "created_at"}),
	}).Create(&r).Error
	if err != nil {
		return fmt.Errorf("store reset token: %w", sqlbase.Translate(err))
	}
	return nil
}

// Take is a conditional delete: only the call that removes the row sees
// one row affected.
func (s *ResetStore) Take(ctx context.Context, email, tokenHash string, notBefore time.Time) (bool, error) {
	res := s.Conn(ctx).Where("email = ? AND token = ? AND created_at > ?", strings.ToLower(email), tokenHash, sqlbase.DBTime(notBefore)).
		Delete(&resetRow{})
	if res.Error != nil {
		return false, fmt.Errorf("take reset token: %w", sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

// Delete removes the email's token, if any: a password changed another way
// makes an outstanding reset link useless.
func (s *ResetStore) Delete(ctx context.Context, email string) error {
	if err := s.Conn(ctx).Where("email = ?", strings.ToLower(email)).Delete(&resetRow{}).Error; err != nil {
		return fmt.Errorf("delete reset token: %w", sqlbase.Translate(err))
	}
	return nil
}
