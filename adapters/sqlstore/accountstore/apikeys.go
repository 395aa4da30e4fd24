package accountstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/accounts/apikey"
)

type keyRow struct {
	ID              uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID          uint64     `gorm:"column:user_id"`
	Key             string     `gorm:"column:key"`
	Secret          string     `gorm:"column:secret"` // hex SHA-256 of the secret
	Name            string     `gorm:"column:name"`
	AllowedServices *string    `gorm:"column:allowed_services"`
	AllowedIPs      *string    `gorm:"column:allowed_ips"`
	DailyLimit      int        `gorm:"column:daily_limit"`
	HitsToday       int        `gorm:"column:hits_today"`
	HitsDate        *string    `gorm:"column:hits_date"`
	LastUsedAt      *time.Time `gorm:"column:last_used_at"`
	Status          string     `gorm:"column:status"`
	CreatedAt       *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt       *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (keyRow) TableName() string { return "api_keys" }

// allowedServicesToDB stores an empty list as NULL (every active service).
func allowedServicesToDB(ids []uint64) (*string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	s, err := sqlbase.JSONToDB("allowed_services", ids)
	return &s, err
}

func toKeyRow(k *apikey.Key) (keyRow, error) {
	allowed, err := allowedServicesToDB(k.AllowedServices)
	if err != nil {
		return keyRow{}, err
	}
	r := keyRow{
		ID:              k.ID,
		UserID:          k.UserID,
		Key:             k.Key,
		Secret:          k.SecretHash,
		Name:            k.Name,
		AllowedServices: allowed,
		AllowedIPs:      sqlbase.NullString(k.AllowedIPs),
		DailyLimit:      k.DailyLimit,
		HitsToday:       k.HitsToday,
		HitsDate:        sqlbase.NullString(k.HitsDate),
		LastUsedAt:      sqlbase.TimePtrToDB(k.LastUsedAt),
		Status:          string(k.Status),
		CreatedAt:       sqlbase.Stamp(k.CreatedAt),
		UpdatedAt:       sqlbase.Stamp(k.UpdatedAt),
	}
	if r.Status == "" {
		r.Status = string(apikey.StatusActive)
	}
	return r, nil
}

func toDomainKey(r *keyRow) (*apikey.Key, error) {
	k := &apikey.Key{
		ID:         r.ID,
		UserID:     r.UserID,
		Key:        r.Key,
		SecretHash: r.Secret,
		Name:       r.Name,
		AllowedIPs: sqlbase.Deref(r.AllowedIPs),
		DailyLimit: r.DailyLimit,
		HitsToday:  r.HitsToday,
		HitsDate:   sqlbase.Deref(r.HitsDate),
		LastUsedAt: sqlbase.TimePtrFromDB(r.LastUsedAt),
		Status:     apikey.Status(r.Status),
		CreatedAt:  sqlbase.TimeFromDB(r.CreatedAt),
		UpdatedAt:  sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if r.AllowedServices != nil {
		if err := sqlbase.JSONFromDB("allowed_services", *r.AllowedServices, &k.AllowedServices); err != nil {
			return nil, fmt.Errorf("api key %d: %w", r.ID, err)
		}
	}
	return k, nil
}

// KeyStore is the database's apikey.Repository.
type KeyStore struct{ sqlbase.Base }

var _ apikey.Repository = (*KeyStore)(nil)

func (s *KeyStore) Create(ctx context.Context, k *apikey.Key) error {
	r, err := toKeyRow(k)
	if err != nil {
		return fmt.Errorf("create api key: %w", err)
	}
	r.ID = 0
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("create api key: %w", sqlbase.Translate(err))
	}
	k.ID = r.ID
	k.CreatedAt, k.UpdatedAt = sqlbase.TimeFromDB(r.CreatedAt), sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

func (s *KeyStore) find(ctx context.Context, cond clause.Expression) (*apikey.Key, error) {
	var r keyRow
	if err := s.Conn(ctx).Clauses(cond).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, apikey.ErrNotFound)
	}
	return toDomainKey(&r)
}

func (s *KeyStore) ByID(ctx context.Context, id uint64) (*apikey.Key, error) {
	return s.find(ctx, clause.Eq{Column: clause.Column{Name: "id"}, Value: id})
}

func (s *KeyStore) ByKey(ctx context.Context, key string) (*apikey.Key, error) {
	// "key" is a reserved word in MySQL; clause.Eq quotes it for the dialect.
	return s.find(ctx, clause.Eq{Column: clause.Column{Name: "key"}, Value: key})
}

// ListByUser lists a user's keys, newest first.
func (s *KeyStore) ListByUser(ctx context.Context, userID uint64) ([]apikey.Key, error) {
	var rows []keyRow
	if err := s.Conn(ctx).Where("user_id = ?", userID).Order("id DESC").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list api keys of user %d: %w", userID, sqlbase.Translate(err))
	}
	out := make([]apikey.Key, 0, len(rows))
	for i := range rows {
		k, err := toDomainKey(&rows[i])
		if err != nil {
			return nil, err
		}
		out = append(out, *k)
	}
	return out, nil
}

// BySecretHash finds a key by the hash of its secret (unique index).
func (s *KeyStore) BySecretHash(ctx context.Context, hash string) (*apikey.Key, error) {
	return s.find(ctx, clause.Eq{Column: clause.Column{Name: "secret"}, Value: hash})
}

func (s *KeyStore) CountActive(ctx context.Context, userID uint64) (int, error) {
	var n int64
	err := s.Conn(ctx).Model(&keyRow{}).Where("user_id = ? AND status = ?", userID, string(apikey.StatusActive)).Count(&n).Error
	if err != nil {
		return 0, fmt.Errorf("count active api keys of user %d: %w", userID, sqlbase.Translate(err))
	}
	return int(n), nil
}

// Change is one conditional UPDATE of the columns c sets, on a key of
// userID that is still active: a concurrent revocation or rotation is never
// overwritten by values read before it.
func (s *KeyStore) Change(ctx context.Context, id, userID uint64, c apikey.Change, at time.Time) (*apikey.Key, error) {
	set := map[string]any{"updated_at": sqlbase.Stamp(at)}
	if c.Name != nil {
		set["name"] = *c.Name
	}
	if c.AllowedServices != nil {
		allowed, err := allowedServicesToDB(*c.AllowedServices)
		if err != nil {
			return nil, fmt.Errorf("change api key %d: %w", id, err)
		}
		set["allowed_services"] = allowed
	}
	if c.AllowedIPs != nil {
		set["allowed_ips"] = sqlbase.NullString(*c.AllowedIPs)
	}
	if c.DailyLimit != nil {
		set["daily_limit"] = *c.DailyLimit
	}
	if c.SecretHash != nil {
		set["secret"] = *c.SecretHash
	}
	res := s.Conn(ctx).Model(&keyRow{}).
		Where("id = ? AND user_id = ? AND status = ?", id, userID, string(apikey.StatusActive)).Updates(set)
	if res.Error != nil {
		return nil, fmt.Errorf("change api key %d: %w", id, sqlbase.Translate(res.Error))
	}
	k, err := s.ownKey(ctx, id, userID)
	if err != nil {
		return nil, err
	}
	if res.RowsAffected == 0 {
		return nil, apikey.ErrRevoked
	}
	return k, nil
}

// Revoke sets status revoked only on an active key; nothing ever sets it
// back (Change leaves revoked keys alone).
func (s *KeyStore) Revoke(ctx context.Context, id, userID uint64, at time.Time) (*apikey.Key, error) {
	res := s.Conn(ctx).Model(&keyRow{}).
		Where("id = ? AND user_id = ? AND status = ?", id, userID, string(apikey.StatusActive)).
		Updates(map[string]any{"status": string(apikey.StatusRevoked), "updated_at": sqlbase.Stamp(at)})
	if res.Error != nil {
		return nil, fmt.Errorf("revoke api key %d: %w", id, sqlbase.Translate(res.Error))
	}
	return s.ownKey(ctx, id, userID)
}

// ownKey reads key id of userID; another user's key is not found.
func (s *KeyStore) ownKey(ctx context.Context, id, userID uint64) (*apikey.Key, error) {
	k, err := s.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if k.UserID != userID {
		return nil, apikey.ErrNotFound
	}
	return k, nil
}

// countHitSQL counts one call in a single conditional UPDATE, so concurrent
// calls can never pass the limit. hits_today is assigned before hits_date:
// MySQL evaluates SET left to right with the values already assigned, and
// the CASE must see the old hits_date (SQLite always uses the old row).
const countHitSQL = `UPDATE api_keys
SET hits_today = CASE WHEN hits_date = ? THEN hits_today + 1 ELSE 1 END,
    hits_date = ?,
    last_used_at = ?
WHERE id = ? AND daily_limit > 0
  AND (hits_date IS NULL OR hits_date <> ? OR hits_today < daily_limit)`

func (s *KeyStore) CountHit(ctx context.Context, id uint64, day string, at time.Time) (bool, error) {
	res := s.Conn(ctx).Exec(countHitSQL, day, day, sqlbase.DBTime(at), id, day)
	if res.Error != nil {
		return false, fmt.Errorf("count hit of api key %d: %w", id, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	// Nothing counted: the limit is reached, or the key is gone.
	var n int64
	if err := s.Conn(ctx).Model(&keyRow{}).Where("id = ?", id).Count(&n).Error; err != nil {
		return false, fmt.Errorf("count hit of api key %d: %w", id, sqlbase.Translate(err))
	}
	if n == 0 {
		return false, apikey.ErrNotFound
	}
	return false, nil
}
