package gatewaystore

import (
	"context"
	"fmt"
	"time"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/gateway/beneficiary"
	"paygate/core/gateway/payout"
)

type beneficiaryRow struct {
	ID            uint64     `gorm:"column:id;primaryKey;autoIncrement"`
	UserID        uint64     `gorm:"column:user_id"`
	Type          string     `gorm:"column:type"`
	Name          string     `gorm:"column:name"`
	AccountNumber string     `gorm:"column:account_number"`
	IFSC          string     `gorm:"column:ifsc"`
	VPA           string     `gorm:"column:vpa"`
	NameAtSource  string     `gorm:"column:name_at_source"`
	VerifiedAt    *time.Time `gorm:"column:verified_at"`
	CreatedAt     *time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (beneficiaryRow) TableName() string { return "beneficiaries" }

func toDomainBeneficiary(r *beneficiaryRow) beneficiary.Beneficiary {
	return beneficiary.Beneficiary{ID: r.ID, UserID: r.UserID,
		Payee:        payout.Beneficiary{Type: r.Type, Name: r.Name, AccountNumber: r.AccountNumber, IFSC: r.IFSC, VPA: r.VPA},
		NameAtSource: r.NameAtSource, VerifiedAt: sqlbase.TimeFromDB(r.VerifiedAt), CreatedAt: sqlbase.TimeFromDB(r.CreatedAt)}
}

// BeneficiaryStore keeps the saved payout beneficiaries, scoped to their owner.
type BeneficiaryStore struct{ sqlbase.Base }

var _ beneficiary.Repository = (*BeneficiaryStore)(nil)

func (s *BeneficiaryStore) Create(ctx context.Context, b *beneficiary.Beneficiary) error {
	r := beneficiaryRow{UserID: b.UserID, Type: b.Payee.Type, Name: b.Payee.Name, AccountNumber: b.Payee.AccountNumber,
		IFSC: b.Payee.IFSC, VPA: b.Payee.VPA, NameAtSource: b.NameAtSource, VerifiedAt: sqlbase.Stamp(b.VerifiedAt), CreatedAt: sqlbase.Stamp(b.CreatedAt)}
	if err := s.Conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("create beneficiary: %w", sqlbase.Translate(err))
	}
	b.ID = r.ID
	return nil
}

func (s *BeneficiaryStore) ListByUser(ctx context.Context, userID uint64) ([]beneficiary.Beneficiary, error) {
	var rows []beneficiaryRow
	if err := s.Conn(ctx).Where("user_id = ?", userID).Order("name, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list beneficiaries of user %d: %w", userID, sqlbase.Translate(err))
	}
	out := make([]beneficiary.Beneficiary, len(rows))
	for i := range rows {
		out[i] = toDomainBeneficiary(&rows[i])
	}
	return out, nil
}

func (s *BeneficiaryStore) ByID(ctx context.Context, userID, id uint64) (*beneficiary.Beneficiary, error) {
	var r beneficiaryRow
	if err := s.Conn(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, beneficiary.ErrNotFound)
	}
	b := toDomainBeneficiary(&r)
	return &b, nil
}

func (s *BeneficiaryStore) Delete(ctx context.Context, userID, id uint64) (bool, error) {
	res := s.Conn(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&beneficiaryRow{})
	if res.Error != nil {
		return false, fmt.Errorf("delete beneficiary %d: %w", id, sqlbase.Translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *BeneficiaryStore) CountByUser(ctx context.Context, userID uint64) (int, error) {
	var n int64
	if err := s.Conn(ctx).Model(&beneficiaryRow{}).Where("user_id = ?", userID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count beneficiaries of user %d: %w", userID, sqlbase.Translate(err))
	}
	return int(n), nil
}
