package storetest

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"

	"paygate/core/brand"
	"paygate/core/errs"
)

// brandsRepo: resellers' brand columns and domains. Like the stores, each
// write is atomic and a domain is one reseller's, whatever its case.
type brandsRepo struct{ d *DB }

var _ brand.Store = brandsRepo{}

type domainEntry struct {
	reseller uint64
	at       time.Time
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

// domainsOf lists a reseller's hosts as the stores do: by time added, then host.
func (t *tables) domainsOf(id uint64) []string {
	out := []string{}
	for h, d := range t.domains {
		if d.reseller == id {
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := t.domains[out[i]], t.domains[out[j]]
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		return out[i] < out[j]
	})
	return out
}

func (r brandsRepo) Save(_ context.Context, resellerID uint64, in brand.Input, now time.Time) error {
	return r.d.do("Brands.Save", func(t *tables) error {
		for _, h := range in.Domains {
			if d, ok := t.domains[strings.ToLower(h)]; ok && d.reseller != resellerID {
				return brand.DomainTaken(h)
			}
		}
		for h, d := range t.domains {
			if d.reseller == resellerID && !slices.Contains(in.Domains, h) {
				delete(t.domains, h)
			}
		}
		for _, h := range in.Domains {
			if _, ok := t.domains[strings.ToLower(h)]; !ok {
				t.domains[strings.ToLower(h)] = domainEntry{reseller: resellerID, at: now}
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
		d, ok := t.domains[strings.ToLower(host)]
		if !ok {
			return errs.ErrNotFound
		}
		id = d.reseller
		return nil
	})
	return id, err
}
