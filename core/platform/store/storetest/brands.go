package storetest

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"paygate/core/platform/errs"
	"paygate/core/resale/brand"
)

// brandsRepo: resellers' brand columns and domains. Like the stores, each
// write is atomic, a host is compared whatever its case, and at most one
// claim on a host is verified.
type brandsRepo struct{ d *DB }

var _ brand.Store = brandsRepo{}

// domainKey is one reseller's claim on one (lower-cased) host.
type domainKey struct {
	host     string
	reseller uint64
}

// domainEntry is a claim as the stores keep it; its state is read.
type domainEntry struct {
	token    string
	at       time.Time
	verified *time.Time
	checked  *time.Time
	problem  string
}

func (r brandsRepo) Get(_ context.Context, resellerID uint64) (brand.Brand, error) {
	var out brand.Brand
	err := r.d.do("Brands.Get", func(t *tables) error {
		out = t.brands[resellerID]
		out.ResellerID = resellerID
		out.Domains = t.domainsOf(resellerID)
		return nil
	})
	return out, err
}

// verifiedBy is the reseller that verified host (0 for none).
func (t *tables) verifiedBy(host string) uint64 {
	for k, d := range t.domains {
		if k.host == host && d.verified != nil {
			return k.reseller
		}
	}
	return 0
}

// domainsOf lists a reseller's claims as the stores do: by time added, then host.
func (t *tables) domainsOf(id uint64) []brand.Domain {
	out := []brand.Domain{}
	for k, d := range t.domains {
		if k.reseller != id {
			continue
		}
		st := brand.DomainPending
		switch owner := t.verifiedBy(k.host); {
		case owner == id:
			st = brand.DomainVerified
		case owner != 0:
			st = brand.DomainLost
		}
		out = append(out, brand.Domain{Host: k.host, State: st, Token: d.token, VerifiedAt: d.verified,
			CheckedAt: d.checked, Problem: d.problem, CreatedAt: d.at})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].Host < out[j].Host
	})
	return out
}

func (r brandsRepo) Save(_ context.Context, resellerID uint64, in brand.Input, now time.Time) error {
	return r.d.do("Brands.Save", func(t *tables) error {
		for _, h := range in.Domains {
			_, held := t.domains[domainKey{strings.ToLower(h), resellerID}]
			if owner := t.verifiedBy(strings.ToLower(h)); !held && owner != 0 && owner != resellerID {
				return brand.DomainTaken(h)
			}
		}
		for k := range t.domains {
			if k.reseller == resellerID && !slices.Contains(in.Domains, k.host) {
				delete(t.domains, k)
			}
		}
		for _, h := range in.Domains {
			k := domainKey{strings.ToLower(h), resellerID}
			if _, ok := t.domains[k]; !ok {
				t.domains[k] = domainEntry{token: brand.NewToken(), at: now}
			}
		}
		b := t.brands[resellerID]
		b.Name, b.SupportEmail, b.SupportPhone, b.UpdatedAt = in.Name, in.SupportEmail, in.SupportPhone, now
		t.brands[resellerID] = b
		return nil
	})
}

func (r brandsRepo) SetLogo(_ context.Context, resellerID uint64, path, contentType string, now time.Time) (string, error) {
	var prev string
	err := r.d.do("Brands.SetLogo", func(t *tables) error {
		b := t.brands[resellerID]
		prev = b.LogoPath
		b.LogoPath, b.LogoType, b.UpdatedAt = path, contentType, now
		t.brands[resellerID] = b
		return nil
	})
	return prev, err
}

func (r brandsRepo) ResellerOfHost(_ context.Context, host string) (uint64, error) {
	var id uint64
	err := r.d.do("Brands.ResellerOfHost", func(t *tables) error {
		if id = t.verifiedBy(strings.ToLower(host)); id == 0 {
			return errs.ErrNotFound
		}
		return nil
	})
	return id, err
}

func (r brandsRepo) Claimants(_ context.Context, host string) ([]uint64, error) {
	out := []uint64{}
	err := r.d.do("Brands.Claimants", func(t *tables) error {
		type claim struct {
			id uint64
			at time.Time
		}
		var cs []claim
		for k, d := range t.domains {
			if k.host == strings.ToLower(host) {
				cs = append(cs, claim{k.reseller, d.at})
			}
		}
		sort.Slice(cs, func(i, j int) bool {
			if !cs[i].at.Equal(cs[j].at) {
				return cs[i].at.Before(cs[j].at)
			}
			return cs[i].id < cs[j].id
		})
		for _, c := range cs {
			out = append(out, c.id)
		}
		return nil
	})
	return out, err
}

func (r brandsRepo) HasClaim(_ context.Context, host, token string) (bool, error) {
	var ok bool
	err := r.d.do("Brands.HasClaim", func(t *tables) error {
		for k, d := range t.domains {
			if k.host == strings.ToLower(host) && d.token == token && token != "" {
				ok = true
			}
		}
		return nil
	})
	return ok, err
}

func (r brandsRepo) RecordCheck(_ context.Context, resellerID uint64, host, problem string, now time.Time) error {
	return r.d.do("Brands.RecordCheck", func(t *tables) error {
		k := domainKey{strings.ToLower(host), resellerID}
		d, ok := t.domains[k]
		if !ok {
			return errs.ErrNotFound
		}
		d.checked, d.problem = &now, problem
		t.domains[k] = d
		return nil
	})
}

func (r brandsRepo) Verify(_ context.Context, resellerID uint64, host string, now time.Time) error {
	return r.d.do("Brands.Verify", func(t *tables) error {
		k := domainKey{strings.ToLower(host), resellerID}
		d, ok := t.domains[k]
		if !ok {
			return errs.ErrNotFound
		}
		if owner := t.verifiedBy(k.host); owner != 0 && owner != resellerID {
			return brand.DomainTaken(k.host)
		}
		if d.verified == nil {
			d.verified = &now
		}
		d.checked, d.problem = &now, ""
		t.domains[k] = d
		return nil
	})
}
