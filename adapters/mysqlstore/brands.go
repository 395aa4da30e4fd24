package mysqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"paygate/core/brand"
	"paygate/core/errs"
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

type domainRow struct {
	Host       string `gorm:"primaryKey"`
	ResellerID uint64
	CreatedAt  *time.Time
}

func (domainRow) TableName() string { return "reseller_domains" }

// brandStore keeps resellers' brands: the brand columns of
// reseller_settings and reseller_domains. Each write is atomic on its own
// (a transaction, or a savepoint inside the caller's).
type brandStore struct{ base }

var _ brand.Store = (*brandStore)(nil)

func (s *brandStore) Get(ctx context.Context, resellerID uint64) (brand.Brand, error) {
	b := brand.Brand{ResellerID: resellerID, Domains: []string{}}
	var rows []brandReadRow
	if err := s.conn(ctx).Where("reseller_id = ?", resellerID).Limit(1).Find(&rows).Error; err != nil {
		return b, fmt.Errorf("read brand of %d: %w", resellerID, translate(err))
	}
	if len(rows) == 1 {
		r := rows[0]
		b.Name, b.SupportEmail, b.SupportPhone = r.BrandName, r.SupportEmail, r.SupportPhone
		b.LogoPath, b.LogoType, b.UpdatedAt = r.LogoPath, r.LogoType, timeFromDB(r.UpdatedAt)
	}
	if err := s.conn(ctx).Model(&domainRow{}).Where("reseller_id = ?", resellerID).
		Order("created_at, host").Pluck("host", &b.Domains).Error; err != nil {
		return b, fmt.Errorf("read domains of %d: %w", resellerID, translate(err))
	}
	return b, nil
}

func (s *brandStore) Save(ctx context.Context, resellerID uint64, in brand.Input, now time.Time) error {
	at := stamp(now)
	return s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		r := brandRow{ResellerID: resellerID, BrandName: in.Name, SupportEmail: in.SupportEmail, SupportPhone: in.SupportPhone, UpdatedAt: at}
		err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "reseller_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"brand_name", "support_email", "support_phone", "updated_at"}),
		}).Create(&r).Error
		if err != nil {
			return fmt.Errorf("save brand of %d: %w", resellerID, translate(err))
		}
		var held []string
		if err := tx.Model(&domainRow{}).Where("reseller_id = ?", resellerID).Pluck("host", &held).Error; err != nil {
			return fmt.Errorf("read domains of %d: %w", resellerID, translate(err))
		}
		var gone []string
		for _, h := range held {
			if !slices.Contains(in.Domains, h) {
				gone = append(gone, h)
			}
		}
		if len(gone) > 0 {
			if err := tx.Where("reseller_id = ? AND host IN ?", resellerID, gone).Delete(&domainRow{}).Error; err != nil {
				return fmt.Errorf("drop domains of %d: %w", resellerID, translate(err))
			}
		}
		for _, h := range in.Domains {
			if slices.Contains(held, h) {
				continue
			}
			if err := tx.Create(&domainRow{Host: h, ResellerID: resellerID, CreatedAt: at}).Error; err != nil {
				if _, dup := duplicateOf(err); dup {
					return brand.DomainTaken(h)
				}
				return fmt.Errorf("add domain of %d: %w", resellerID, translate(err))
			}
		}
		return nil
	})
}

func (s *brandStore) SetLogo(ctx context.Context, resellerID uint64, path, contentType string, now time.Time) (string, error) {
	var prev string
	err := s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []logoRow
		if err := s.locking(tx).Where("reseller_id = ?", resellerID).Limit(1).Find(&rows).Error; err != nil {
			return fmt.Errorf("read logo of %d: %w", resellerID, translate(err))
		}
		if len(rows) == 1 {
			prev = rows[0].LogoPath
		}
		r := logoRow{ResellerID: resellerID, LogoPath: path, LogoType: contentType, UpdatedAt: stamp(now)}
		err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "reseller_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"logo_path", "logo_type", "updated_at"}),
		}).Create(&r).Error
		if err != nil {
			return fmt.Errorf("save logo of %d: %w", resellerID, translate(err))
		}
		return nil
	})
	return prev, err
}

func (s *brandStore) ResellerOfHost(ctx context.Context, host string) (uint64, error) {
	var r domainRow
	err := s.conn(ctx).Where("host = ?", host).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return 0, errs.ErrNotFound
	} else if err != nil {
		return 0, fmt.Errorf("read domain %s: %w", host, translate(err))
	}
	return r.ResellerID, nil
}
