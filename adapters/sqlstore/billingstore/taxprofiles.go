package billingstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/billing/taxprofile"
)

// supplierID is the one row of billing_settings (migration 00039 writes
// it, with the default prefix and SAC).
const supplierID = 1

type supplierRow struct {
	ID            uint8      `gorm:"column:id;primaryKey;autoIncrement:false"`
	LegalName     string     `gorm:"column:legal_name"`
	Address       string     `gorm:"column:address"`
	State         string     `gorm:"column:state"`
	GSTIN         string     `gorm:"column:gstin"`
	PAN           string     `gorm:"column:pan"`
	InvoicePrefix string     `gorm:"column:invoice_prefix"`
	SAC           string     `gorm:"column:sac_code"`
	BankName      string     `gorm:"column:bank_name"`
	AccountName   string     `gorm:"column:account_name"`
	AccountNumber string     `gorm:"column:account_number"`
	IFSC          string     `gorm:"column:ifsc"`
	UPI           string     `gorm:"column:upi"`
	UpdatedAt     *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (supplierRow) TableName() string { return "billing_settings" }

func toSupplierRow(s *taxprofile.Supplier) supplierRow {
	return supplierRow{ID: supplierID, LegalName: s.LegalName, Address: s.Address, State: s.State, GSTIN: s.GSTIN, PAN: s.PAN,
		InvoicePrefix: s.InvoicePrefix, SAC: s.SAC, BankName: s.BankName, AccountName: s.AccountName,
		AccountNumber: s.AccountNumber, IFSC: s.IFSC, UPI: s.UPI, UpdatedAt: sqlbase.Stamp(s.UpdatedAt)}
}

func toDomainSupplier(r *supplierRow) *taxprofile.Supplier {
	return &taxprofile.Supplier{LegalName: r.LegalName, Address: r.Address, State: r.State, GSTIN: r.GSTIN, PAN: r.PAN,
		InvoicePrefix: r.InvoicePrefix, SAC: r.SAC, BankName: r.BankName, AccountName: r.AccountName,
		AccountNumber: r.AccountNumber, IFSC: r.IFSC, UPI: r.UPI, UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
}

type profileRow struct {
	UserID    uint64     `gorm:"column:user_id;primaryKey;autoIncrement:false"`
	LegalName string     `gorm:"column:legal_name"`
	Address   string     `gorm:"column:address"`
	State     string     `gorm:"column:state"`
	GSTIN     string     `gorm:"column:gstin"`
	CreatedAt *time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (profileRow) TableName() string { return "billing_profiles" }

func toDomainProfile(r *profileRow) *taxprofile.Profile {
	return &taxprofile.Profile{UserID: r.UserID, LegalName: r.LegalName, Address: r.Address, State: r.State, GSTIN: r.GSTIN,
		UpdatedAt: sqlbase.TimeFromDB(r.UpdatedAt)}
}

// TaxProfileStore keeps the supplier (billing_settings) and the billing
// profiles (billing_profiles).
type TaxProfileStore struct{ sqlbase.Base }

var _ taxprofile.Store = (*TaxProfileStore)(nil)

func (s *TaxProfileStore) supplier(ctx context.Context, lock bool) (*taxprofile.Supplier, error) {
	q := s.Conn(ctx)
	if lock {
		q = s.Locking(q)
	}
	var rows []supplierRow
	if err := q.Where("id = ?", supplierID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read billing settings: %w", sqlbase.Translate(err))
	}
	if len(rows) == 0 { // the row the migration wrote was deleted by hand
		return taxprofile.DefaultSupplier(), nil
	}
	return toDomainSupplier(&rows[0]), nil
}

func (s *TaxProfileStore) Supplier(ctx context.Context) (*taxprofile.Supplier, error) {
	return s.supplier(ctx, false)
}

func (s *TaxProfileStore) LockSupplier(ctx context.Context) (*taxprofile.Supplier, error) {
	return s.supplier(ctx, true)
}

// SaveSupplier upserts the one row, so that it works if the row is gone.
func (s *TaxProfileStore) SaveSupplier(ctx context.Context, sup *taxprofile.Supplier) error {
	r := toSupplierRow(sup)
	err := s.Conn(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "id"}},
		DoUpdates: clause.AssignmentColumns([]string{"legal_name", "address", "state", "gstin", "pan", "invoice_prefix",
			"sac_code", "bank_name", "account_name", "account_number", "ifsc", "upi", "updated_at"}),
	}).Create(&r).Error
	if err != nil {
		return fmt.Errorf("save billing settings: %w", sqlbase.Translate(err))
	}
	sup.UpdatedAt = sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}

func (s *TaxProfileStore) Profile(ctx context.Context, userID uint64) (*taxprofile.Profile, error) {
	var r profileRow
	if err := s.Conn(ctx).Where("user_id = ?", userID).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, taxprofile.ErrNoProfile)
	}
	return toDomainProfile(&r), nil
}

// SaveProfile upserts the user's row; created_at stays the first save's.
func (s *TaxProfileStore) SaveProfile(ctx context.Context, p *taxprofile.Profile) error {
	now := sqlbase.Stamp(p.UpdatedAt)
	r := profileRow{UserID: p.UserID, LegalName: p.LegalName, Address: p.Address, State: p.State, GSTIN: p.GSTIN,
		CreatedAt: now, UpdatedAt: now}
	err := s.Conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"legal_name", "address", "state", "gstin", "updated_at"}),
	}).Create(&r).Error
	if err != nil {
		return fmt.Errorf("save billing profile of user %d: %w", p.UserID, sqlbase.Translate(err))
	}
	p.UpdatedAt = sqlbase.TimeFromDB(now)
	return nil
}

func (s *TaxProfileStore) DeleteProfile(ctx context.Context, userID uint64) error {
	if err := s.Conn(ctx).Where("user_id = ?", userID).Delete(&profileRow{}).Error; err != nil {
		return fmt.Errorf("delete billing profile of user %d: %w", userID, sqlbase.Translate(err))
	}
	return nil
}

// resellerSupplierRow is a reseller's own record (reseller_billing_settings,
// migration 00048): billing_settings' columns keyed by the reseller's id.
type resellerSupplierRow struct {
	UserID        uint64     `gorm:"column:user_id;primaryKey;autoIncrement:false"`
	LegalName     string     `gorm:"column:legal_name"`
	Address       string     `gorm:"column:address"`
	State         string     `gorm:"column:state"`
	GSTIN         string     `gorm:"column:gstin"`
	PAN           string     `gorm:"column:pan"`
	InvoicePrefix string     `gorm:"column:invoice_prefix"`
	SAC           string     `gorm:"column:sac_code"`
	BankName      string     `gorm:"column:bank_name"`
	AccountName   string     `gorm:"column:account_name"`
	AccountNumber string     `gorm:"column:account_number"`
	IFSC          string     `gorm:"column:ifsc"`
	UPI           string     `gorm:"column:upi"`
	UpdatedAt     *time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (resellerSupplierRow) TableName() string { return "reseller_billing_settings" }

func (s *TaxProfileStore) resellerSupplier(ctx context.Context, resellerID uint64, lock bool) (*taxprofile.Supplier, error) {
	q := s.Conn(ctx)
	if lock {
		q = s.Locking(q)
	}
	var r resellerSupplierRow
	if err := q.Where("user_id = ?", resellerID).Take(&r).Error; err != nil {
		return nil, sqlbase.ErrNotFoundOr(err, taxprofile.ErrNoResellerSupplier)
	}
	sr := supplierRow{LegalName: r.LegalName, Address: r.Address, State: r.State, GSTIN: r.GSTIN, PAN: r.PAN,
		InvoicePrefix: r.InvoicePrefix, SAC: r.SAC, BankName: r.BankName, AccountName: r.AccountName,
		AccountNumber: r.AccountNumber, IFSC: r.IFSC, UPI: r.UPI, UpdatedAt: r.UpdatedAt}
	return toDomainSupplier(&sr), nil
}

func (s *TaxProfileStore) ResellerSupplier(ctx context.Context, resellerID uint64) (*taxprofile.Supplier, error) {
	return s.resellerSupplier(ctx, resellerID, false)
}

func (s *TaxProfileStore) LockResellerSupplier(ctx context.Context, resellerID uint64) (*taxprofile.Supplier, error) {
	return s.resellerSupplier(ctx, resellerID, true)
}

// SaveResellerSupplier upserts the reseller's row.
func (s *TaxProfileStore) SaveResellerSupplier(ctx context.Context, resellerID uint64, sup *taxprofile.Supplier) error {
	r := resellerSupplierRow{UserID: resellerID, LegalName: sup.LegalName, Address: sup.Address, State: sup.State,
		GSTIN: sup.GSTIN, PAN: sup.PAN, InvoicePrefix: sup.InvoicePrefix, SAC: sup.SAC, BankName: sup.BankName,
		AccountName: sup.AccountName, AccountNumber: sup.AccountNumber, IFSC: sup.IFSC, UPI: sup.UPI,
		UpdatedAt: sqlbase.Stamp(sup.UpdatedAt)}
	err := s.Conn(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "user_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"legal_name", "address", "state", "gstin", "pan", "invoice_prefix",
			"sac_code", "bank_name", "account_name", "account_number", "ifsc", "upi", "updated_at"}),
	}).Create(&r).Error
	if err != nil {
		return fmt.Errorf("save billing settings of reseller %d: %w", resellerID, sqlbase.Translate(err))
	}
	sup.UpdatedAt = sqlbase.TimeFromDB(r.UpdatedAt)
	return nil
}
