package accountstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/session"
	"paygate/core/platform/errs"
)

// tokenableUser is personal_access_tokens.tokenable_type of a user's token.
const tokenableUser = "user"

type tokenRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	TokenableType string     `gorm:"column:tokenable_type"`
	TokenableID   uint64     `gorm:"column:tokenable_id"`
	Name          string     `gorm:"column:name"`
	Token         string     `gorm:"column:token"`          // hex SHA-256 of the token value
	PreviousToken *string    `gorm:"column:previous_token"` // the hash before the last rotation
	Abilities     *string    `gorm:"column:abilities"`
	LastUsedAt    *time.Time `gorm:"column:last_used_at"`
	ExpiresAt     *time.Time `gorm:"column:expires_at"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt     *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (tokenRow) TableName() string { return "personal_access_tokens" }

func toTokenRow(t *session.Token) tokenRow {
	r := tokenRow{
		ID:            t.ID,
		TokenableType: tokenableUser,
		TokenableID:   t.UserID,
		Name:          t.Name,
		Token:         t.TokenHash,
		LastUsedAt:    sqlbase.TimePtrToDB(t.LastUsedAt),
		ExpiresAt:     sqlbase.NonZeroTime(t.ExpiresAt),
		CreatedAt:     sqlbase.Stamp(t.CreatedAt),
	}
	r.UpdatedAt = r.CreatedAt
	return r
}

func toDomainToken(r *tokenRow) session.Token {
	return session.Token{
		ID:        r.ID,
		UserID:    r.TokenableID,
		Name:      r.Name,
		TokenHash: r.Token,
		PreviousHash: func() string {
			if r.PreviousToken == nil {
				return ""
			}
			return *r.PreviousToken
		}(),
		LastUsedAt: sqlbase.TimePtrFromDB(r.LastUsedAt),
		ExpiresAt:  sqlbase.TimeFromDB(r.ExpiresAt),
		CreatedAt:  sqlbase.TimeFromDB(r.CreatedAt),
	}
}

// SessionStore is the database's session.Repository.
type SessionStore struct{ sqlbase.Base }

var _ session.Repository = (*SessionStore)(nil)

func (s *SessionStore) Create(ctx context.Context, t *session.Token) error {
	r := toTokenRow(t)
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("create session token: %w", sqlbase.Translate(err))
	}
	t.ID = r.ID
	t.CreatedAt = sqlbase.TimeFromDB(r.CreatedAt)
	return nil
}

func (s *SessionStore) ByHash(ctx context.Context, hash string) (*session.Token, error) {
	var r tokenRow
	err := s.Conn(ctx).Where("token = ? AND tokenable_type = ?", hash, tokenableUser).Take(&r).Error
	if err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, errs.ErrNotFound)
	}
	t := toDomainToken(&r)
	return &t, nil
}

func (s *SessionStore) ByPreviousHash(ctx context.Context, hash string) (*session.Token, error) {
	var r tokenRow
	err := s.Conn(ctx).Where("previous_token = ? AND tokenable_type = ?", hash, tokenableUser).Take(&r).Error
	if err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, errs.ErrNotFound)
	}
	t := toDomainToken(&r)
	return &t, nil
}

func (s *SessionStore) ByID(ctx context.Context, id uint64) (*session.Token, error) {
	var r tokenRow
	err := s.Conn(ctx).Where("id = ? AND tokenable_type = ?", id, tokenableUser).Take(&r).Error
	if err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, errs.ErrNotFound)
	}
	t := toDomainToken(&r)
	return &t, nil
}

// Rotate is a conditional update on the old hash, which it keeps as the
// previous hash (reuse detection): the second of two
// concurrent rotations (MySQL re-reads the row after the first commits;
// SQLite runs them one after the other) matches no row.
func (s *SessionStore) Rotate(ctx context.Context, id uint64, oldHash, newHash string, now, expiresAt time.Time) (bool, error) {
	res := s.Conn(ctx).Model(&tokenRow{}).Where("id = ? AND token = ?", id, oldHash).Updates(map[string]any{
		"token":          newHash,
		"previous_token": oldHash,
		"last_used_at":   sqlbase.DBTime(now),
		"expires_at":     sqlbase.DBTime(expiresAt),
		"updated_at":     sqlbase.DBTime(now),
	})
	if res.Error != nil {
		return false, fmt.Errorf("rotate session token %d: %w", id, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

// Delete reports whether this call removed the token: of two concurrent
// deletes of one token, exactly one sees a row affected.
func (s *SessionStore) Delete(ctx context.Context, id uint64) (bool, error) {
	res := s.Conn(ctx).Where("id = ?", id).Delete(&tokenRow{})
	if res.Error != nil {
		return false, fmt.Errorf("delete session token %d: %w", id, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *SessionStore) DeleteByUser(ctx context.Context, userID uint64) error {
	err := s.Conn(ctx).Where("tokenable_type = ? AND tokenable_id = ?", tokenableUser, userID).Delete(&tokenRow{}).Error
	if err != nil {
		return fmt.Errorf("delete session tokens of user %d: %w", userID, sqlbase.Translate(err))
	}
	return nil
}

func (s *SessionStore) DeleteOthers(ctx context.Context, userID, keepID uint64) error {
	err := s.Conn(ctx).Where("tokenable_type = ? AND tokenable_id = ? AND id <> ?", tokenableUser, userID, keepID).Delete(&tokenRow{}).Error
	if err != nil {
		return fmt.Errorf("delete other session tokens of user %d: %w", userID, sqlbase.Translate(err))
	}
	return nil
}

// ListByUser lists a user's tokens, newest first.
func (s *SessionStore) ListByUser(ctx context.Context, userID uint64) ([]session.Token, error) {
	var rows []tokenRow
	err := s.Conn(ctx).Where("tokenable_type = ? AND tokenable_id = ?", tokenableUser, userID).
		Order("id DESC").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list session tokens of user %d: %w", userID, sqlbase.Translate(err))
	}
	out := make([]session.Token, 0, len(rows))
	for i := range rows {
		out = append(out, toDomainToken(&rows[i]))
	}
	return out, nil
}

type settingRow struct {
	Name  string `gorm:"column:name;primaryKey"`
	Value string `gorm:"column:value"`
}

func (settingRow) TableName() string { return "settings" }

// SettingStore is the database's session.Settings.
type SettingStore struct{ sqlbase.Base }

var _ session.Settings = (*SettingStore)(nil)

// GetOrCreate inserts value unless key exists, then reads what is stored:
// of concurrent first starts, the first insert wins and all read its value.
func (s *SettingStore) GetOrCreate(ctx context.Context, key, value string) (string, error) {
	err := s.Conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&settingRow{Name: key, Value: value}).Error
	if err != nil {
		return "", fmt.Errorf("store setting %s: %w", key, sqlbase.Translate(err))
	}
	var r settingRow
	if err := s.Conn(ctx).Where("name = ?", key).Take(&r).Error; err != nil {
		return "", fmt.Errorf("read setting %s: %w", key, sqlbase.Translate(err))
	}
	return r.Value, nil
}

// Prune deletes the user's expired tokens and those beyond the newest keep.
func (s *SessionStore) Prune(ctx context.Context, userID uint64, now time.Time, keep int) error {
	db := s.Conn(ctx)
	mine := db.Where("tokenable_type = ? AND tokenable_id = ?", tokenableUser, userID)
	if err := mine.Session(&gorm.Session{}).Where("expires_at < ?", sqlbase.DBTime(now)).Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("prune expired sessions of user %d: %w", userID, sqlbase.Translate(err))
	}
	var ids []uint64
	if err := mine.Session(&gorm.Session{}).Model(&tokenRow{}).Order("id DESC").Offset(keep).Limit(1000).Pluck("id", &ids).Error; err != nil {
		return fmt.Errorf("find old sessions of user %d: %w", userID, sqlbase.Translate(err))
	}
	if len(ids) == 0 {
		return nil
	}
	if err := db.Where("id IN ?", ids).Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("prune old sessions of user %d: %w", userID, sqlbase.Translate(err))
	}
	return nil
}
