package resalestore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
)

// brandRow is the brand columns of reseller_settings: an upsert through it
// writes only these, never default_markup.
type brandRow struct {
	ResellerID   uint64 `gorm:"primaryKey;autoIncrement:false"`
	BrandName    string
	SupportEmail string
	SupportPhone string
	UpdatedAt    *time.Time
}

func (brandRow) TableName() string { return "reseller_settings" }

// logoRow is the logo columns of reseller_settings.
type logoRow struct {
	ResellerID uint64 `gorm:"primaryKey;autoIncrement:false"`
	LogoPath   string
	LogoType   string
	UpdatedAt  *time.Time
}

func (logoRow) TableName() string { return "reseller_settings" }

type brandReadRow struct {
	ResellerID   uint64
	BrandName    string
	SupportEmail string
	SupportPhone string
	LogoPath     string
	LogoType     string
	UpdatedAt    *time.Time
}

func (brandReadRow) TableName() string { return "reseller_settings" }

// domainRow is one reseller's claim on a host. VerifiedHost is the host
// once the claim is verified, else NULL: its unique key keeps one verified
// claim per host on both databases (MariaDB has no partial index).
type domainRow struct {
	Host         string `gorm:"primaryKey"`
	ResellerID   uint64 `gorm:"primaryKey;autoIncrement:false"`
	Token        string
	VerifiedHost *string
	VerifiedAt   *time.Time
	CheckedAt    *time.Time
	CheckProblem string
	CreatedAt    *time.Time
}

func (domainRow) TableName() string { return "reseller_domains" }

// BrandStore keeps resellers' brands: the brand columns of
// reseller_settings and reseller_domains. Each write is atomic on its own
// (a transaction, or a savepoint inside the caller's).
type BrandStore struct{ sqlbase.Base }

var _ brand.Store = (*BrandStore)(nil)

func (s *BrandStore) Get(ctx context.Context, resellerID uint64) (brand.Brand, error) {
	b := brand.Brand{ResellerID: resellerID, Domains: []brand.Domain{}}
	var rows []brandReadRow
	if err := s.Conn(ctx).Where("reseller_id = ?", resellerID).Limit(1).Find(&rows).Error; err != nil {
		return b, fmt.Errorf("read brand of %d: %w", resellerID, sqlbase.Translate(err))
	}
	if len(rows) == 1 {
		r := rows[0]
		b.Name, b.SupportEmail, b.SupportPhone = r.BrandName, r.SupportEmail, r.SupportPhone
		b.LogoPath, b.LogoType, b.UpdatedAt = r.LogoPath, r.LogoType, sqlbase.TimeFromDB(r.UpdatedAt)
	}
	var claims []domainRow
	if err := s.Conn(ctx).Where("reseller_id = ?", resellerID).Order("created_at, host").Find(&claims).Error; err != nil {
		return b, fmt.Errorf("read domains of %d: %w", resellerID, sqlbase.Translate(err))
	}
	// A claim is lost while another reseller's claim on its host is verified.
	var lost []string
	if len(claims) > 0 {
		hosts := make([]string, 0, len(claims))
		for _, c := range claims {
			hosts = append(hosts, c.Host)
		}
		if err := s.Conn(ctx).Model(&domainRow{}).Where("verified_host IN ? AND reseller_id <> ?", hosts, resellerID).
			Pluck("host", &lost).Error; err != nil {
			return b, fmt.Errorf("read lost domains of %d: %w", resellerID, sqlbase.Translate(err))
		}
	}
	b.Domains = make([]brand.Domain, 0, len(claims))
	for _, c := range claims {
		d := brand.Domain{Host: c.Host, State: brand.DomainPending, Token: c.Token, VerifiedAt: sqlbase.TimePtrFromDB(c.VerifiedAt),
			CheckedAt: sqlbase.TimePtrFromDB(c.CheckedAt), Problem: c.CheckProblem, CreatedAt: sqlbase.TimeFromDB(c.CreatedAt)}
		switch {
		case c.VerifiedHost != nil:
			d.State = brand.DomainVerified
		case slices.ContainsFunc(lost, func(h string) bool { return strings.EqualFold(h, c.Host) }):
			d.State = brand.DomainLost
		}
		b.Domains = append(b.Domains, d)
	}
	return b, nil
}

func (s *BrandStore) Save(ctx context.Context, resellerID uint64, in brand.Input, now time.Time) error {
	at := sqlbase.Stamp(now)
	return s.Conn(ctx).Transaction(func(tx *gorm.DB) error {
		r := brandRow{ResellerID: resellerID, BrandName: in.Name, SupportEmail: in.SupportEmail, SupportPhone: in.SupportPhone, UpdatedAt: at}
		err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "reseller_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"brand_name", "support_email", "support_phone", "updated_at"}),
		}).Create(&r).Error
		if err != nil {
			return fmt.Errorf("save brand of %d: %w", resellerID, sqlbase.Translate(err))
		}
		var held []string
		if err := tx.Model(&domainRow{}).Where("reseller_id = ?", resellerID).Pluck("host", &held).Error; err != nil {
			return fmt.Errorf("read domains of %d: %w", resellerID, sqlbase.Translate(err))
		}
		// A new claim on a host another reseller verified is refused; a
		// claim kept (even one lost since) is not a new one.
		var added []string
		for _, h := range in.Domains {
			if !slices.Contains(held, h) {
				added = append(added, h)
			}
		}
		if len(added) > 0 {
			var taken []string
			if err := tx.Model(&domainRow{}).Where("verified_host IN ? AND reseller_id <> ?", added, resellerID).
				Pluck("host", &taken).Error; err != nil {
				return fmt.Errorf("read domains taken: %w", sqlbase.Translate(err))
			}
			if len(taken) > 0 {
				return brand.DomainTaken(strings.ToLower(taken[0]))
			}
		}
		var gone []string
		for _, h := range held {
			if !slices.Contains(in.Domains, h) {
				gone = append(gone, h)
			}
		}
		if len(gone) > 0 {
			if err := tx.Where("reseller_id = ? AND host IN ?", resellerID, gone).Delete(&domainRow{}).Error; err != nil {
				return fmt.Errorf("drop domains of %d: %w", resellerID, sqlbase.Translate(err))
			}
		}
		for _, h := range added {
			if err := tx.Create(&domainRow{Host: h, ResellerID: resellerID, Token: brand.NewToken(), CreatedAt: at}).Error; err != nil {
				return fmt.Errorf("add domain of %d: %w", resellerID, sqlbase.Translate(err))
			}
		}
		return nil
	})
}

func (s *BrandStore) SetLogo(ctx context.Context, resellerID uint64, path, contentType string, now time.Time) (string, error) {
	var prev string
	err := s.Conn(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []logoRow
		if err := s.Locking(tx).Where("reseller_id = ?", resellerID).Limit(1).Find(&rows).Error; err != nil {
			return fmt.Errorf("read logo of %d: %w", resellerID, sqlbase.Translate(err))
		}
		if len(rows) == 1 {
			prev = rows[0].LogoPath
		}
		r := logoRow{ResellerID: resellerID, LogoPath: path, LogoType: contentType, UpdatedAt: sqlbase.Stamp(now)}
		err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "reseller_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"logo_path", "logo_type", "updated_at"}),
		}).Create(&r).Error
		if err != nil {
			return fmt.Errorf("save logo of %d: %w", resellerID, sqlbase.Translate(err))
		}
		return nil
	})
	return prev, err
}

func (s *BrandStore) ResellerOfHost(ctx context.Context, host string) (uint64, error) {
	var r domainRow
	err := s.Conn(ctx).Where("verified_host = ?", host).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return 0, errs.ErrNotFound
	} else if err != nil {
		return 0, fmt.Errorf("read domain %s: %w", host, sqlbase.Translate(err))
	}
	return r.ResellerID, nil
}

func (s *BrandStore) Claimants(ctx context.Context, host string) ([]uint64, error) {
	ids := []uint64{}
	if err := s.Conn(ctx).Model(&domainRow{}).Where("host = ?", host).Order("created_at, reseller_id").
		Pluck("reseller_id", &ids).Error; err != nil {
		return nil, fmt.Errorf("read claims on %s: %w", host, sqlbase.Translate(err))
	}
	return ids, nil
}

func (s *BrandStore) HasClaim(ctx context.Context, host, token string) (bool, error) {
	if token == "" {
		return false, nil
	}
	var n int64
	if err := s.Conn(ctx).Model(&domainRow{}).Where("host = ? AND token = ?", host, token).Count(&n).Error; err != nil {
		return false, fmt.Errorf("read claim on %s: %w", host, sqlbase.Translate(err))
	}
	return n > 0, nil
}

func (s *BrandStore) RecordCheck(ctx context.Context, resellerID uint64, host, problem string, now time.Time) error {
	res := s.Conn(ctx).Model(&domainRow{}).Where("host = ? AND reseller_id = ?", host, resellerID).
		Updates(map[string]any{"checked_at": sqlbase.Stamp(now), "check_problem": problem})
	if res.Error != nil {
		return fmt.Errorf("record check of %s: %w", host, sqlbase.Translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return errs.ErrNotFound
	}
	return nil
}

func (s *BrandStore) Verify(ctx context.Context, resellerID uint64, host string, now time.Time) error {
	return s.Conn(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []domainRow
		if err := s.Locking(tx).Where("host = ? AND reseller_id = ?", host, resellerID).Limit(1).Find(&rows).Error; err != nil {
			return fmt.Errorf("read claim on %s: %w", host, sqlbase.Translate(err))
		}
		if len(rows) == 0 {
			return errs.ErrNotFound
		}
		at := sqlbase.Stamp(now)
		set := map[string]any{"verified_host": rows[0].Host, "checked_at": at, "check_problem": ""}
		if rows[0].VerifiedAt == nil {
			set["verified_at"] = at
		}
		err := tx.Model(&domainRow{}).Where("host = ? AND reseller_id = ?", host, resellerID).Updates(set).Error
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return brand.DomainTaken(strings.ToLower(host))
		} else if err != nil {
			return fmt.Errorf("verify %s: %w", host, sqlbase.Translate(err))
		}
		return nil
	})
}
