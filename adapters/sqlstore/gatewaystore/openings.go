package gatewaystore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/gateway/accountopen"
	"paygate/core/platform/errs"
)

// Digital account openings. Identifiers arrive masked from the core; state
// changes are conditional updates on the state the caller read.

type openingRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	PublicID      string     `gorm:"column:public_id"`
	UserID        uint64     `gorm:"column:user_id"`
	APIKeyID      uint64     `gorm:"column:api_key_id"`
	ReferenceID   string     `gorm:"column:reference_id"`
	Product       string     `gorm:"column:product"`
	Name          string     `gorm:"column:name"`
	DOB           string     `gorm:"column:dob"`
	PANMasked     string     `gorm:"column:pan_masked"`
	AadhaarMasked string     `gorm:"column:aadhaar_masked"`
	Mobile        string     `gorm:"column:mobile"`
	Email         string     `gorm:"column:email"`
	Address       string     `gorm:"column:address"`
	Status        string     `gorm:"column:status"`
	KYCURL        *string    `gorm:"column:kyc_url"`
	AccountNumber *string    `gorm:"column:account_number"`
	IFSC          *string    `gorm:"column:ifsc"`
	RejectReason  *string    `gorm:"column:reject_reason"`
	Livemode      bool       `gorm:"column:livemode"`
	Attempts      int        `gorm:"column:attempts"`
	NextCheckAt   time.Time  `gorm:"column:next_check_at"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt     *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (openingRow) TableName() string { return "account_openings" }

func toOpeningRow(o *accountopen.Opening) openingRow {
	a := o.Applicant
	return openingRow{
		ID: o.ID, PublicID: o.PublicID, UserID: o.UserID, APIKeyID: o.APIKeyID, ReferenceID: o.ReferenceID, Product: o.Product,
		Name: a.Name, DOB: a.DOB, PANMasked: a.PAN, AadhaarMasked: a.Aadhaar, Mobile: a.Mobile, Email: a.Email, Address: a.Address,
		Status: string(o.Status), KYCURL: o.KYCURL, AccountNumber: o.AccountNumber, IFSC: o.IFSC, RejectReason: o.RejectReason,
		Livemode: o.Livemode, Attempts: o.Attempts, NextCheckAt: sqlbase.DBTime(o.NextCheckAt),
		CreatedAt: sqlbase.Stamp(o.CreatedAt), UpdatedAt: sqlbase.Stamp(o.UpdatedAt),
	}
}

func toDomainOpening(r *openingRow) (accountopen.Opening, error) {
	o := accountopen.Opening{
		ID: r.ID, PublicID: r.PublicID, UserID: r.UserID, APIKeyID: r.APIKeyID, ReferenceID: r.ReferenceID, Product: r.Product,
		Applicant: accountopen.Applicant{Name: r.Name, DOB: r.DOB, PAN: r.PANMasked, Aadhaar: r.AadhaarMasked,
			Mobile: r.Mobile, Email: r.Email, Address: r.Address},
		Status: accountopen.Status(r.Status), KYCURL: r.KYCURL, AccountNumber: r.AccountNumber, IFSC: r.IFSC,
		RejectReason: r.RejectReason, Livemode: r.Livemode, Attempts: r.Attempts, NextCheckAt: r.NextCheckAt.UTC(),
		CreatedAt: sqlbase.TimeFromDB(r.CreatedAt), UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt),
	}
	if !o.Status.Valid() {
		return o, fmt.Errorf("account opening %d: unknown status %q", r.ID, r.Status)
	}
	return o, nil
}

// OpeningStore is the database's accountopen.Repository.
type OpeningStore struct{ sqlbase.Base }

var _ accountopen.Repository = (*OpeningStore)(nil)

func (s *OpeningStore) Create(ctx context.Context, o *accountopen.Opening) error {
	row := toOpeningRow(o)
	row.ID = 0
	if err := s.Conn(ctx).Create(&row).Error; err != nil {
		// The only unique key a new row can meet is (user_id, reference_id):
		// public ids are random ULIDs.
		if _, dup := sqlbase.DuplicateOf(err); dup {
			return accountopen.ErrReferenceReused.Wrap(errs.ErrConflict.Wrap(err))
		}
		return fmt.Errorf("insert account opening %s: %w", o.ReferenceID, sqlbase.Translate(err))
	}
	o.ID = row.ID
	return nil
}

func (s *OpeningStore) find(q *gorm.DB) (*accountopen.Opening, error) {
	var row openingRow
	if err := q.Take(&row).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil, accountopen.ErrNotFound
		}
		return nil, fmt.Errorf("find account opening: %w", sqlbase.Translate(err))
	}
	o, err := toDomainOpening(&row)
	return &o, err
}

func (s *OpeningStore) ByReference(ctx context.Context, userID uint64, referenceID string) (*accountopen.Opening, error) {
	return s.find(s.Conn(ctx).Where("user_id = ? AND reference_id = ?", userID, referenceID))
}

func (s *OpeningStore) ByID(ctx context.Context, id uint64) (*accountopen.Opening, error) {
	return s.find(s.Conn(ctx).Where("id = ?", id))
}

func (s *OpeningStore) Advance(ctx context.Context, old, next *accountopen.Opening) (bool, error) {
	res := s.ByPrimaryKey(ctx, &openingRow{}).Where("id = ? AND status = ?", old.ID, string(old.Status)).Updates(map[string]any{
		"status": string(next.Status), "kyc_url": next.KYCURL, "account_number": next.AccountNumber, "ifsc": next.IFSC,
		"reject_reason": next.RejectReason, "next_check_at": sqlbase.DBTime(next.NextCheckAt), "updated_at": sqlbase.DBTime(next.UpdatedAt),
	})
	if res.Error != nil {
		return false, fmt.Errorf("advance account opening %d: %w", old.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *OpeningStore) Due(ctx context.Context, now time.Time, limit int) ([]accountopen.Opening, error) {
	var rows []openingRow
	err := s.Conn(ctx).Where("status IN ? AND next_check_at <= ?",
		[]string{string(accountopen.StatusInitiated), string(accountopen.StatusKYCPending)}, sqlbase.DBTime(now)).
		Order("next_check_at").Order("id").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list due account openings: %w", sqlbase.Translate(err))
	}
	return sqlbase.ConvertRows(rows, toDomainOpening)
}

func (s *OpeningStore) Claim(ctx context.Context, old, next *accountopen.Opening, now time.Time) (bool, error) {
	res := s.ByPrimaryKey(ctx, &openingRow{}).Where("id = ? AND status = ? AND attempts = ? AND next_check_at <= ?",
		old.ID, string(old.Status), old.Attempts, sqlbase.DBTime(now)).
		Updates(map[string]any{"attempts": next.Attempts, "next_check_at": sqlbase.DBTime(next.NextCheckAt), "updated_at": sqlbase.DBTime(next.UpdatedAt)})
	if res.Error != nil {
		return false, fmt.Errorf("claim account opening %d: %w", old.ID, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *OpeningStore) List(ctx context.Context, f accountopen.Filter) ([]accountopen.Opening, int64, error) {
	filter := func(q *gorm.DB) *gorm.DB {
		if f.UserID != nil {
			q = q.Where("user_id = ?", *f.UserID)
		}
		if f.Status != "" {
			q = q.Where("status = ?", string(f.Status))
		}
		return sqlbase.CreatedBetween(q, f.From, f.To)
	}
	return sqlbase.PageNewest(s.Conn(ctx), filter, f.Page, f.PerPage, "account openings", toDomainOpening)
}
