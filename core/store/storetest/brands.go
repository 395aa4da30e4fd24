package storetest

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"paygate/core/brand"
	"paygate/core/errs"
)

// Brands is an in-memory brand.Store: resellers' brand columns and domains.
// Like the stores, each write is atomic and a domain is one reseller's,
// whatever its case.
type Brands struct {
	mu      sync.Mutex
	brands  map[uint64]brand.Brand
	domains map[string]domainEntry // by lower-cased host
}

type domainEntry struct {
	reseller uint64
	at       time.Time
}

var _ brand.Store = (*Brands)(nil)

// NewBrands makes an empty Brands.
func NewBrands() *Brands {
	return &Brands{brands: map[uint64]brand.Brand{}, domains: map[string]domainEntry{}}
}

func (f *Brands) Get(_ context.Context, resellerID uint64) (brand.Brand, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.brands[resellerID]
	b.ResellerID = resellerID
	b.Domains = f.domainsOf(resellerID)
	return b, nil
}

// domainsOf lists a reseller's hosts as the stores do: by time added, then host.
func (f *Brands) domainsOf(id uint64) []string {
	out := []string{}
	for h, d := range f.domains {
		if d.reseller == id {
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := f.domains[out[i]], f.domains[out[j]]
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		return out[i] < out[j]
	})
	return out
}

func (f *Brands) Save(_ context.Context, resellerID uint64, in brand.Input, now time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range in.Domains {
		if d, ok := f.domains[strings.ToLower(h)]; ok && d.reseller != resellerID {
			return brand.DomainTaken(h)
		}
	}
	for h, d := range f.domains {
		if d.reseller == resellerID && !slices.Contains(in.Domains, h) {
			delete(f.domains, h)
		}
	}
	for _, h := range in.Domains {
		if _, ok := f.domains[strings.ToLower(h)]; !ok {
			f.domains[strings.ToLower(h)] = domainEntry{reseller: resellerID, at: now}
		}
	}
	b := f.brands[resellerID]
	b.Name, b.SupportEmail, b.SupportPhone, b.UpdatedAt = in.Name, in.SupportEmail, in.SupportPhone, now
	f.brands[resellerID] = b
	return nil
}

func (f *Brands) SetLogo(_ context.Context, resellerID uint64, path, contentType string, now time.Time) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b := f.brands[resellerID]
	prev := b.LogoPath
	b.LogoPath, b.LogoType, b.UpdatedAt = path, contentType, now
	f.brands[resellerID] = b
	return prev, nil
}

func (f *Brands) ResellerOfHost(_ context.Context, host string) (uint64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.domains[strings.ToLower(host)]
	if !ok {
		return 0, errs.ErrNotFound
	}
	return d.reseller, nil
}
