package catalogadmin

import (
	"context"
	"fmt"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/errs"
	"paygate/core/platform/inr"
	"paygate/core/platform/store"
)

// CreateService registers an upstream service (admin only).
func (p *Catalog) CreateService(ctx context.Context, actor *user.User, svc catalog.Service) (*catalog.Service, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	svc.Builtin = false
	if err := svc.Validate(); err != nil {
		return nil, err
	}
	now := p.now().UTC()
	svc.CreatedAt, svc.UpdatedAt = now, now
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Services.Create(ctx, &svc); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.ServiceCreate, audit.TargetService, svc.ID, nil, serviceSnapshot(&svc))
	})
	if err != nil {
		return nil, err
	}
	return &svc, nil
}

// ListServices lists services: admins see all, others the active ones.
func (p *Catalog) ListServices(ctx context.Context, actor *user.User, f catalog.Filter) ([]catalog.Service, int64, error) {
	if actor.Role != user.RoleAdmin {
		f.Status = catalog.StatusActive
	}
	return p.st.Services.List(ctx, f)
}

// GetService shows a service: admins any, others an active one.
func (p *Catalog) GetService(ctx context.Context, actor *user.User, id uint64) (*catalog.Service, error) {
	s, err := p.st.Services.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if actor.Role != user.RoleAdmin && s.Status != catalog.StatusActive {
		return nil, catalog.ErrServiceNotFound
	}
	return s, nil
}

// ServicePatch lists the editable fields; nil leaves a field alone.
type ServicePatch struct {
	Name        *string
	Slug        *string
	Description *string
	Category    *string
	ProviderURL *string
	ProviderKey *string // "" clears the key
	Method      *string
	Headers     *map[string]string
	Parameters  *map[string]string
	Status      *catalog.Status
	SAC         panel.Nullable[string] // null: the supplier's default SAC
}

// PatchService edits a service (admin only). Built-in gateway services keep
// their slug and method.
func (p *Catalog) PatchService(ctx context.Context, actor *user.User, id uint64, patch ServicePatch) (*catalog.Service, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	var out *catalog.Service
	// Read under a row lock in the writing transaction: two admins editing
	// one service apply one after the other, and the audit's "before" is
	// what was stored.
	err := p.tx.WithinTx(ctx, func(ctx context.Context, st TxStores) error {
		s, err := st.Services.LockByID(ctx, id)
		if err != nil {
			return err
		}
		before := serviceSnapshot(s)
		oldKey := s.ProviderKey
		if s.Builtin && ((patch.Slug != nil && *patch.Slug != s.Slug) || (patch.Method != nil && *patch.Method != s.Method)) {
			return errs.E(errs.Conflict, "service_builtin", "The slug and method of built-in gateway services are fixed")
		}
		set(&s.Name, patch.Name)
		set(&s.Slug, patch.Slug)
		set(&s.Category, patch.Category)
		set(&s.ProviderURL, patch.ProviderURL)
		set(&s.Method, patch.Method)
		set(&s.Headers, patch.Headers)
		set(&s.Parameters, patch.Parameters)
		set(&s.Status, patch.Status)
		if patch.Description != nil {
			s.Description = patch.Description
		}
		if patch.SAC.Set {
			s.SAC = patch.SAC.Value
		}
		if patch.ProviderKey != nil {
			if *patch.ProviderKey == "" {
				s.ProviderKey = nil
			} else {
				s.ProviderKey = patch.ProviderKey
			}
		}
		if err := s.Validate(); err != nil {
			return err
		}
		s.UpdatedAt = p.now().UTC()
		if err := st.Services.Update(ctx, s); err != nil {
			return err
		}
		after := serviceSnapshot(s)
		after.ProviderKeyChanged = !samePtr(oldKey, s.ProviderKey)
		out = s
		return store.Record(ctx, st.Audit, p.now(), actor, audit.ServiceUpdate, audit.TargetService, s.ID, before, after)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// DeleteService removes a service with its pricing and docs (admin only).
// Its hit logs stay as history.
func (p *Catalog) DeleteService(ctx context.Context, actor *user.User, id uint64) error {
	if err := panel.RequireAdmin(actor); err != nil {
		return err
	}
	s, err := p.st.Services.ByID(ctx, id)
	if err != nil {
		return err
	}
	if s.Builtin {
		return catalog.ErrBuiltin
	}
	return p.tx.WithinTx(ctx, func(ctx context.Context, st TxStores) error {
		if err := st.Services.Delete(ctx, id); err != nil {
			return err
		}
		return store.Record(ctx, st.Audit, p.now(), actor, audit.ServiceDelete, audit.TargetService, id, serviceSnapshot(s), nil)
	})
}

// GetDoc returns a service's documentation. Admins get it as stored;
// anyone else gets its example response with their own charge
// (examplePriced), since it is a price shown to them.
func (p *Catalog) GetDoc(ctx context.Context, actor *user.User, serviceID uint64) (*catalog.Doc, error) {
	svc, err := p.GetService(ctx, actor, serviceID)
	if err != nil {
		return nil, err
	}
	doc, err := p.st.Services.Doc(ctx, serviceID)
	if err != nil || actor.Role == user.RoleAdmin {
		return doc, err
	}
	prices, err := p.PricesFor(ctx, actor, []catalog.Service{*svc})
	if err != nil {
		return nil, err
	}
	if price, ok := prices[serviceID]; ok {
		out := *doc
		out.ResponseExample = examplePriced(doc.ResponseExample, price.Charge)
		return &out, nil
	}
	return doc, nil
}

// examplePriced is a copy of a documented example response whose
// "charged" (when it has one) is charge, as a call answers it, with
// "balance_left" moved by the difference and a gateway operation's
// data.fee (when it was the charge) the charge too, so the example shows
// what the viewer pays. Values that are not decimal strings are left alone.
func examplePriced(example map[string]any, charge decimal.Decimal) map[string]any {
	was, ok := decimalField(example, "charged")
	if !ok {
		return example
	}
	out := make(map[string]any, len(example))
	for k, v := range example {
		out[k] = v
	}
	out["charged"] = inr.Format4(charge)
	if data, ok := example["data"].(map[string]any); ok { // a gateway operation's fee is its charge
		if fee, ok := decimalField(data, "fee"); ok && fee.Equal(was) {
			d := make(map[string]any, len(data))
			for k, v := range data {
				d[k] = v
			}
			d["fee"] = inr.Format4(charge)
			out["data"] = d
		}
	}
	if left, ok := decimalField(example, "balance_left"); ok {
		if after := left.Add(was).Sub(charge); !after.IsNegative() {
			out["balance_left"] = inr.Format2(after)
		}
	}
	return out
}

func decimalField(m map[string]any, key string) (decimal.Decimal, bool) {
	s, ok := m[key].(string)
	if !ok {
		return decimal.Zero, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// PutDoc replaces a service's documentation (admin only).
func (p *Catalog) PutDoc(ctx context.Context, actor *user.User, serviceID uint64, d catalog.Doc) (*catalog.Doc, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	if _, err := p.st.Services.ByID(ctx, serviceID); err != nil {
		return nil, err
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	d.ServiceID = serviceID
	now := p.now().UTC()
	d.CreatedAt, d.UpdatedAt = now, now
	var out *catalog.Doc
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		old, err := s.Services.Doc(ctx, serviceID)
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return err
		}
		if err := s.Services.PutDoc(ctx, &d); err != nil {
			return err
		}
		if out, err = s.Services.Doc(ctx, serviceID); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.DocPut, audit.TargetService, serviceID, docSnapshot(old), docSnapshot(out))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListPricing lists a service's pricing rows (admin only).
func (p *Catalog) ListPricing(ctx context.Context, actor *user.User, serviceID uint64) ([]pricing.Price, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	if _, err := p.st.Services.ByID(ctx, serviceID); err != nil {
		return nil, err
	}
	return p.st.Pricing.ListByService(ctx, serviceID)
}

// CreatePricing adds the default row (UserID nil) or a user's row (admin only).
func (p *Catalog) CreatePricing(ctx context.Context, actor *user.User, serviceID uint64, price pricing.Price) (*pricing.Price, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	if _, err := p.st.Services.ByID(ctx, serviceID); err != nil {
		return nil, err
	}
	if err := price.Validate(); err != nil {
		return nil, err
	}
	if price.UserID != nil {
		u, err := p.st.Users.ByID(ctx, *price.UserID)
		if err != nil || u.IsDeleted() {
			if err != nil && errs.KindOf(err) != errs.NotFound {
				return nil, err
			}
			return nil, errs.Validation(map[string][]string{"user_id": {"user does not exist"}})
		}
	}
	price.ServiceID = serviceID
	now := p.now().UTC()
	price.CreatedAt, price.UpdatedAt = now, now
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Pricing.Create(ctx, &price); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.PricingCreate, audit.TargetPricing, price.ID, nil, priceSnapshot(&price))
	})
	if err != nil {
		return nil, err
	}
	return &price, nil
}

// PricePatch lists the editable amounts; nil leaves a field alone.
type PricePatch struct {
	AdminCost, UserPrice, ResellerPrice, MinimumHitCharge *decimal.Decimal
	Status                                                *pricing.Status
}

// PatchPricing edits a pricing row (admin only).
func (p *Catalog) PatchPricing(ctx context.Context, actor *user.User, id uint64, patch PricePatch) (*pricing.Price, error) {
	if err := panel.RequireAdmin(actor); err != nil {
		return nil, err
	}
	var out *pricing.Price
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		row, err := s.Pricing.LockByID(ctx, id) // as in PatchService: no lost update
		if err != nil {
			return err
		}
		before := priceSnapshot(row)
		set(&row.AdminCost, patch.AdminCost)
		set(&row.UserPrice, patch.UserPrice)
		set(&row.ResellerPrice, patch.ResellerPrice)
		set(&row.MinimumHitCharge, patch.MinimumHitCharge)
		set(&row.Status, patch.Status)
		if err := row.Validate(); err != nil {
			return err
		}
		row.UpdatedAt = p.now().UTC()
		if err := s.Pricing.Update(ctx, row); err != nil {
			return fmt.Errorf("update pricing %d: %w", id, err)
		}
		out = row
		return store.Record(ctx, s.Audit, p.now(), actor, audit.PricingUpdate, audit.TargetPricing, id, before, priceSnapshot(row))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeletePricing removes a pricing row (admin only).
func (p *Catalog) DeletePricing(ctx context.Context, actor *user.User, id uint64) error {
	if err := panel.RequireAdmin(actor); err != nil {
		return err
	}
	row, err := p.st.Pricing.ByID(ctx, id)
	if err != nil {
		return err
	}
	return p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		if err := s.Pricing.Delete(ctx, id); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.PricingDelete, audit.TargetPricing, id, priceSnapshot(row), nil)
	})
}

func samePtr(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// ServicePrice is what one call of a service costs a viewer, as the
// metering charges it (pricing.PriceFor), and the minimum charge of the row
// it is billed under.
type ServicePrice struct {
	Charge           decimal.Decimal
	MinimumHitCharge decimal.Decimal
}

// PricesFor gives, for each of services, what one call costs actor:
// pricing.PriceFor, the function the metering charges with (a reseller's
// customer: its reseller's selling price, markup or the list price; admins:
// their own role's charge). A service not sold to actor has no entry.
func (p *Catalog) PricesFor(ctx context.Context, actor *user.User, services []catalog.Service) (map[uint64]ServicePrice, error) {
	out := make(map[uint64]ServicePrice, len(services))
	reads := pricing.Reads{Prices: p.st.Pricing, Users: p.st.Users, Selling: p.st.Selling}
	for _, s := range services {
		q, err := pricing.PriceFor(ctx, reads, s.ID, actor)
		if errs.KindOf(err) == errs.NotFound {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("price of service %d: %w", s.ID, err)
		}
		out[s.ID] = ServicePrice{Charge: q.Charge, MinimumHitCharge: q.Row.MinimumHitCharge}
	}
	return out, nil
}
