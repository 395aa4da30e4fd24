package sqlstore

import (
	"context"
	"fmt"
	"time"

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
		NameAtSource: r.NameAtSource, VerifiedAt: timeFromDB(r.VerifiedAt), CreatedAt: timeFromDB(r.CreatedAt)}
}

// beneficiaryStore keeps the saved payout beneficiaries, scoped to their owner.
type beneficiaryStore struct{ base }

var _ beneficiary.Repository = (*beneficiaryStore)(nil)

func (s *beneficiaryStore) Create(ctx context.Context, b *beneficiary.Beneficiary) error {
	r := beneficiaryRow{UserID: b.UserID, Type: b.Payee.Type, Name: b.Payee.Name, AccountNumber: b.Payee.AccountNumber,
		IFSC: b.Payee.IFSC, VPA: b.Payee.VPA, NameAtSource: b.NameAtSource, VerifiedAt: stamp(b.VerifiedAt), CreatedAt: stamp(b.CreatedAt)}
	if err := s.conn(ctx).Create(&r).Error; err != nil {
		return fmt.Errorf("create beneficiary: %w", translate(err))
	}
	b.ID = r.ID
	return nil
}

func (s *beneficiaryStore) ListByUser(ctx context.Context, userID uint64) ([]beneficiary.Beneficiary, error) {
	var rows []beneficiaryRow
	if err := s.conn(ctx).Where("user_id = ?", userID).Order("name, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list beneficiaries of user %d: %w", userID, translate(err))
	}
	out := make([]beneficiary.Beneficiary, len(rows))
	for i := range rows {
		out[i] = toDomainBeneficiary(&rows[i])
	}
	return out, nil
}

func (s *beneficiaryStore) ByID(ctx context.Context, userID, id uint64) (*beneficiary.Beneficiary, error) {
	var r beneficiaryRow
	if err := s.conn(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&r).Error; err != nil {
		return nil, errNotFoundOr(err, beneficiary.ErrNotFound)
	}
	b := toDomainBeneficiary(&r)
	return &b, nil
}

func (s *beneficiaryStore) Delete(ctx context.Context, userID, id uint64) (bool, error) {
	res := s.conn(ctx).Where("id = ? AND user_id = ?", id, userID).Delete(&beneficiaryRow{})
	if res.Error != nil {
		return false, fmt.Errorf("delete beneficiary %d: %w", id, translate(res.Error))
	}
	return res.RowsAffected == 1, nil
}

func (s *beneficiaryStore) CountByUser(ctx context.Context, userID uint64) (int, error) {
	var n int64
	if err := s.conn(ctx).Model(&beneficiaryRow{}).Where("user_id = ?", userID).Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count beneficiaries of user %d: %w", userID, translate(err))
	}
	return int(n), nil
}
