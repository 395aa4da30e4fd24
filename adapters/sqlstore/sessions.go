package sqlstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

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
		LastUsedAt:    timePtrToDB(t.LastUsedAt),
		ExpiresAt:     nonZeroTime(t.ExpiresAt),
		CreatedAt:     stamp(t.CreatedAt),
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
		LastUsedAt: timePtrFromDB(r.LastUsedAt),
		ExpiresAt:  timeFromDB(r.ExpiresAt),
		CreatedAt:  timeFromDB(r.CreatedAt),
	}
}

type sessionStore struct{ base }

var _ session.Repository = (*sessionStore)(nil)

func (s *sessionStore) Create(ctx context.Context, t *session.Token) error {
	r := toTokenRow(t)
	r.ID = 0
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("create session token: %w", translate(err))
	}
	t.ID = r.ID
	t.CreatedAt = timeFromDB(r.CreatedAt)
	return nil
}

func (s *sessionStore) ByHash(ctx context.Context, hash string) (*session.Token, error) {
	var r tokenRow
	err := s.conn(ctx).Where("token = ? AND tokenable_type = ?", hash, tokenableUser).Take(&r).Error
	if err != nil {
		return nil, errNotFoundOr(err, errs.ErrNotFound)
	}
	t := toDomainToken(&r)
	return &t, nil
}

func (s *sessionStore) ByPreviousHash(ctx context.Context, hash string) (*session.Token, error) {
	var r tokenRow
	err := s.conn(ctx).Where("previous_token = ? AND tokenable_type = ?", hash, tokenableUser).Take(&r).Error
	if err != nil {
		return nil, errNotFoundOr(err, errs.ErrNotFound)
	}
	t := toDomainToken(&r)
	return &t, nil
}

func (s *sessionStore) ByID(ctx context.Context, id uint64) (*session.Token, error) {
	var r tokenRow
	err := s.conn(ctx).Where("id = ? AND tokenable_type = ?", id, tokenableUser).Take(&r).Error
	if err != nil {
		return nil, errNotFoundOr(err, errs.ErrNotFound)
	}
	t := toDomainToken(&r)
	return &t, nil
}

// Rotate is a conditional update on the old hash, which it keeps as the
// previous hash (reuse detection): the second of two
// concurrent rotations (MySQL re-reads the row after the first commits;
// SQLite runs them one after the other) matches no row.
func (s *sessionStore) Rotate(ctx context.Context, id uint64, oldHash, newHash string, now, expiresAt time.Time) (bool, error) {
	res := s.conn(ctx).Model(&tokenRow{}).Where("id = ? AND token = ?", id, oldHash).Updates(map[string]any{
		"token":          newHash,
		"previous_token": oldHash,
		"last_used_at":   dbTime(now),
		"expires_at":     dbTime(expiresAt),
		"updated_at":     dbTime(now),
	})
	if res.Error != nil {
		return false, fmt.Errorf("rotate session token %d: %w", id, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

// Delete reports whether this call removed the token: of two concurrent
// deletes of one token, exactly one sees a row affected.
func (s *sessionStore) Delete(ctx context.Context, id uint64) (bool, error) {
	res := s.conn(ctx).Where("id = ?", id).Delete(&tokenRow{})
	if res.Error != nil {
		return false, fmt.Errorf("delete session token %d: %w", id, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *sessionStore) DeleteByUser(ctx context.Context, userID uint64) error {
	err := s.conn(ctx).Where("tokenable_type = ? AND tokenable_id = ?", tokenableUser, userID).Delete(&tokenRow{}).Error
	if err != nil {
		return fmt.Errorf("delete session tokens of user %d: %w", userID, translate(err))
	}
	return nil
}

func (s *sessionStore) DeleteOthers(ctx context.Context, userID, keepID uint64) error {
	err := s.conn(ctx).Where("tokenable_type = ? AND tokenable_id = ? AND id <> ?", tokenableUser, userID, keepID).Delete(&tokenRow{}).Error
	if err != nil {
		return fmt.Errorf("delete other session tokens of user %d: %w", userID, translate(err))
	}
	return nil
}

// ListByUser lists a user's tokens, newest first.
func (s *sessionStore) ListByUser(ctx context.Context, userID uint64) ([]session.Token, error) {
	var rows []tokenRow
	err := s.conn(ctx).Where("tokenable_type = ? AND tokenable_id = ?", tokenableUser, userID).
		Order("id DESC").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list session tokens of user %d: %w", userID, translate(err))
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

type settingStore struct{ base }

var _ session.Settings = (*settingStore)(nil)

// GetOrCreate inserts value unless key exists, then reads what is stored:
// of concurrent first starts, the first insert wins and all read its value.
func (s *settingStore) GetOrCreate(ctx context.Context, key, value string) (string, error) {
	err := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&settingRow{Name: key, Value: value}).Error
	if err != nil {
		return "", fmt.Errorf("store setting %s: %w", key, translate(err))
	}
	var r settingRow
	if err := s.conn(ctx).Where("name = ?", key).Take(&r).Error; err != nil {
		return "", fmt.Errorf("read setting %s: %w", key, translate(err))
	}
	return r.Value, nil
}

// Prune deletes the user's expired tokens and those beyond the newest keep.
func (s *sessionStore) Prune(ctx context.Context, userID uint64, now time.Time, keep int) error {
	db := s.conn(ctx)
	mine := db.Where("tokenable_type = ? AND tokenable_id = ?", tokenableUser, userID)
	if err := mine.Session(&gorm.Session{}).Where("expires_at < ?", dbTime(now)).Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("prune expired sessions of user %d: %w", userID, translate(err))
	}
	var ids []uint64
	if err := mine.Session(&gorm.Session{}).Model(&tokenRow{}).Order("id DESC").Offset(keep).Limit(1000).Pluck("id", &ids).Error; err != nil {
		return fmt.Errorf("find old sessions of user %d: %w", userID, translate(err))
	}
	if len(ids) == 0 {
		return nil
	}
	if err := db.Where("id IN ?", ids).Delete(&tokenRow{}).Error; err != nil {
		return fmt.Errorf("prune old sessions of user %d: %w", userID, translate(err))
	}
	return nil
}
