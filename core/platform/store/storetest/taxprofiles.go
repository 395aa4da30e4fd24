package storetest

import (
	"context"

	"paygate/core/billing/taxprofile"
)

// supplierKey is the supplier's key in its table: there is one record.
const supplierKey = 1

// taxProfilesRepo: the supplier (DefaultSupplier until saved) and the
// billing profiles by user id. LockSupplier needs no lock: the fake runs
// one transaction at a time.
type taxProfilesRepo struct{ d *DB }

var _ taxprofile.Store = taxProfilesRepo{}

func (r taxProfilesRepo) supplier(method string) (*taxprofile.Supplier, error) {
	var out *taxprofile.Supplier
	err := r.d.do(method, func(t *tables) error {
		if s, ok := t.supplier[supplierKey]; ok {
			out = &s
		} else {
			out = taxprofile.DefaultSupplier()
		}
		return nil
	})
	return out, err
}

func (r taxProfilesRepo) Supplier(context.Context) (*taxprofile.Supplier, error) {
	return r.supplier("TaxProfiles.Supplier")
}

func (r taxProfilesRepo) LockSupplier(context.Context) (*taxprofile.Supplier, error) {
	return r.supplier("TaxProfiles.LockSupplier")
}

func (r taxProfilesRepo) SaveSupplier(_ context.Context, s *taxprofile.Supplier) error {
	return r.d.do("TaxProfiles.SaveSupplier", func(t *tables) error {
		t.supplier[supplierKey] = *s
		return nil
	})
}

func (r taxProfilesRepo) Profile(_ context.Context, userID uint64) (*taxprofile.Profile, error) {
	var out *taxprofile.Profile
	err := r.d.do("TaxProfiles.Profile", func(t *tables) error {
		p, ok := t.profiles[userID]
		if !ok {
			return taxprofile.ErrNoProfile
		}
		out = &p
		return nil
	})
	return out, err
}

func (r taxProfilesRepo) SaveProfile(_ context.Context, p *taxprofile.Profile) error {
	return r.d.do("TaxProfiles.SaveProfile", func(t *tables) error {
		t.profiles[p.UserID] = *p
		return nil
	})
}

func (r taxProfilesRepo) DeleteProfile(_ context.Context, userID uint64) error {
	return r.d.do("TaxProfiles.DeleteProfile", func(t *tables) error {
		delete(t.profiles, userID)
		return nil
	})
}

func (r taxProfilesRepo) resellerSupplier(method string, resellerID uint64) (*taxprofile.Supplier, error) {
	var out *taxprofile.Supplier
	err := r.d.do(method, func(t *tables) error {
		s, ok := t.resellerSuppliers[resellerID]
		if !ok {
			return taxprofile.ErrNoResellerSupplier
		}
		out = &s
		return nil
	})
	return out, err
}

func (r taxProfilesRepo) ResellerSupplier(_ context.Context, resellerID uint64) (*taxprofile.Supplier, error) {
	return r.resellerSupplier("TaxProfiles.ResellerSupplier", resellerID)
}

func (r taxProfilesRepo) LockResellerSupplier(_ context.Context, resellerID uint64) (*taxprofile.Supplier, error) {
	return r.resellerSupplier("TaxProfiles.LockResellerSupplier", resellerID)
}

func (r taxProfilesRepo) SaveResellerSupplier(_ context.Context, resellerID uint64, s *taxprofile.Supplier) error {
	return r.d.do("TaxProfiles.SaveResellerSupplier", func(t *tables) error {
		t.resellerSuppliers[resellerID] = *s
		return nil
	})
}
