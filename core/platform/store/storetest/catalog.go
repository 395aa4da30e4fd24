package storetest

import (
	"context"

	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
)

// servicesRepo: services by id and slug, docs by service id.
type servicesRepo struct{ d *DB }

var _ catalog.Repository = servicesRepo{}

func (r servicesRepo) Create(_ context.Context, s *catalog.Service) error {
	return r.d.do("Services.Create", func(t *tables) error {
		for _, o := range t.services {
			if o.Slug == s.Slug {
				return catalog.ErrSlugTaken
			}
		}
		s.ID = t.id("services", s.ID)
		t.services[s.ID] = *s
		return nil
	})
}

func (r servicesRepo) get(method string, match func(catalog.Service) bool) (*catalog.Service, error) {
	var out *catalog.Service
	err := r.d.do(method, func(t *tables) error {
		for _, s := range sorted(t.services) {
			if match(s) {
				out = &s
				return nil
			}
		}
		return catalog.ErrServiceNotFound
	})
	return out, err
}

func (r servicesRepo) ByID(_ context.Context, id uint64) (*catalog.Service, error) {
	return r.get("Services.ByID", func(s catalog.Service) bool { return s.ID == id })
}

func (r servicesRepo) LockByID(_ context.Context, id uint64) (*catalog.Service, error) {
	return r.get("Services.LockByID", func(s catalog.Service) bool { return s.ID == id })
}

func (r servicesRepo) BySlug(_ context.Context, slug string) (*catalog.Service, error) {
	return r.get("Services.BySlug", func(s catalog.Service) bool { return s.Slug == slug })
}

func (r servicesRepo) List(context.Context, catalog.Filter) ([]catalog.Service, int64, error) {
	notImplemented("Services.List")
	return nil, 0, nil
}

// ExistingIDs keeps the order of ids.
func (r servicesRepo) ExistingIDs(_ context.Context, ids []uint64) ([]uint64, error) {
	var out []uint64
	err := r.d.do("Services.ExistingIDs", func(t *tables) error {
		for _, id := range ids {
			if _, ok := t.services[id]; ok {
				out = append(out, id)
			}
		}
		return nil
	})
	return out, err
}

func (r servicesRepo) Update(_ context.Context, s *catalog.Service) error {
	return r.d.do("Services.Update", func(t *tables) error {
		if _, ok := t.services[s.ID]; !ok {
			return catalog.ErrServiceNotFound
		}
		t.services[s.ID] = *s
		return nil
	})
}

func (r servicesRepo) Delete(_ context.Context, id uint64) error {
	return r.d.do("Services.Delete", func(t *tables) error {
		if _, ok := t.services[id]; !ok {
			return catalog.ErrServiceNotFound
		}
		delete(t.services, id)
		delete(t.docs, id)
		return nil
	})
}

func (r servicesRepo) Doc(_ context.Context, serviceID uint64) (*catalog.Doc, error) {
	var out *catalog.Doc
	err := r.d.do("Services.Doc", func(t *tables) error {
		d, ok := t.docs[serviceID]
		if !ok {
			return catalog.ErrDocNotFound
		}
		out = &d
		return nil
	})
	return out, err
}

func (r servicesRepo) PutDoc(_ context.Context, doc *catalog.Doc) error {
	return r.d.do("Services.PutDoc", func(t *tables) error {
		t.docs[doc.ServiceID] = *doc
		return nil
	})
}

// pricesRepo: Applicable prefers the user's active row to the active
// default row (UserID nil).
type pricesRepo struct{ d *DB }

var _ pricing.Repository = pricesRepo{}

func (r pricesRepo) Create(_ context.Context, p *pricing.Price) error {
	return r.d.do("Pricing.Create", func(t *tables) error {
		for _, o := range t.prices {
			if o.ServiceID == p.ServiceID && ((o.UserID == nil && p.UserID == nil) || (o.UserID != nil && p.UserID != nil && *o.UserID == *p.UserID)) {
				return pricing.ErrDuplicate
			}
		}
		p.ID = t.id("prices", p.ID)
		t.prices[p.ID] = *p
		return nil
	})
}

func (r pricesRepo) byID(method string, id uint64) (*pricing.Price, error) {
	var out *pricing.Price
	err := r.d.do(method, func(t *tables) error {
		p, ok := t.prices[id]
		if !ok {
			return pricing.ErrNotFound
		}
		out = &p
		return nil
	})
	return out, err
}

func (r pricesRepo) ByID(_ context.Context, id uint64) (*pricing.Price, error) {
	return r.byID("Pricing.ByID", id)
}

func (r pricesRepo) LockByID(_ context.Context, id uint64) (*pricing.Price, error) {
	return r.byID("Pricing.LockByID", id)
}

func (r pricesRepo) ListByService(_ context.Context, serviceID uint64) ([]pricing.Price, error) {
	var out []pricing.Price
	err := r.d.do("Pricing.ListByService", func(t *tables) error {
		for _, p := range sorted(t.prices) {
			if p.ServiceID == serviceID {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

func (r pricesRepo) Update(_ context.Context, p *pricing.Price) error {
	return r.d.do("Pricing.Update", func(t *tables) error {
		if _, ok := t.prices[p.ID]; !ok {
			return pricing.ErrNotFound
		}
		t.prices[p.ID] = *p
		return nil
	})
}

func (r pricesRepo) Delete(_ context.Context, id uint64) error {
	return r.d.do("Pricing.Delete", func(t *tables) error {
		delete(t.prices, id)
		return nil
	})
}

func (r pricesRepo) Applicable(_ context.Context, serviceID, userID uint64) (*pricing.Price, error) {
	var out *pricing.Price
	err := r.d.do("Pricing.Applicable", func(t *tables) error {
		for _, p := range sorted(t.prices) {
			if p.ServiceID != serviceID || p.Status != pricing.StatusActive {
				continue
			}
			if p.UserID != nil && *p.UserID == userID {
				out = &p
				return nil
			}
			if p.UserID == nil && out == nil {
				out = &p
			}
		}
		if out == nil {
			return pricing.ErrNotFound
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p := *out
	return &p, nil
}
