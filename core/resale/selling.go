// Package resale holds a reseller's panel use cases of what its customers
// pay (decisions "Resellers: one price, shown and charged"): its selling prices per service and default
// markup, as pricing.Resell applies them, and its commission settlements.
// Only resellers reach them (403 for anyone else). A change of a selling
// price or the markup is audited in its transaction (customer_price.set,
// customer_price.delete, customer_markup.set).
//
// It is the resale area: this package (a reseller's selling prices,
// markup and commission settlements), settlement (commission records),
// commission (the hourly credit), brand (a reseller's brand), storefront
// (the brand as customers see it) and customers (a reseller's customers).
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package resale

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"paygate/core/accounts/audit"
	"paygate/core/accounts/user"
	"paygate/core/catalog"
	"paygate/core/catalog/pricing"
	"paygate/core/platform/errs"
	"paygate/core/platform/store"
	"paygate/core/resale/settlement"
)

// Selling is the resellers' selling-price and commission use cases.
type Selling struct {
	tx  store.TransactorOf[TxStores]
	st  Stores
	now func() time.Time
}

// New wires them; now may be nil (time.Now). The transactor and stores
// should be metering's invalidating ones, so a change reaches this
// instance's next call at once. A change and its audit entry commit
// together.
func New(tx store.TransactorOf[TxStores], st Stores, now func() time.Time) *Selling {
	if now == nil {
		now = time.Now
	}
	return &Selling{tx: tx, st: st, now: now}
}

// RequireReseller refuses anyone but a reseller (errs.ErrForbidden).
func RequireReseller(actor *user.User) error {
	if actor == nil || actor.Role != user.RoleReseller {
		return errs.ErrForbidden
	}
	return nil
}

// Row is one service as a reseller's customers buy it.
type Row struct {
	ServiceID   uint64
	ServiceName string
	Slug        string
	Cost        decimal.Decimal  // the reseller's own charge
	Price       *decimal.Decimal // its selling price, when set
	Effective   decimal.Decimal  // what its customers pay
	Margin      decimal.Decimal  // Effective − Cost
	Source      pricing.Source
	List        decimal.Decimal // what an ordinary user pays
	BelowList   bool            // Effective is below List
}

// Prices lists every active service sold to the reseller, with what its
// customers pay, and its default markup.
func (p *Selling) Prices(ctx context.Context, actor *user.User) ([]Row, *decimal.Decimal, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, nil, err
	}
	markup, err := p.st.Selling.Markup(ctx, actor.ID)
	if err != nil {
		return nil, nil, err
	}
	var out []Row
	err = p.eachSold(ctx, actor.ID, func(svc *catalog.Service, row *pricing.Price, sel *decimal.Decimal) error {
		out = append(out, toRow(svc, row, sel, markup))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, markup, nil
}

// eachSold calls fn with every active service sold to the reseller, in id
// order, its price row applicable to the reseller and its selling price
// (nil when none), until fn fails.
func (p *Selling) eachSold(ctx context.Context, resellerID uint64, fn func(*catalog.Service, *pricing.Price, *decimal.Decimal) error) error {
	set, err := p.st.Selling.ListByReseller(ctx, resellerID)
	if err != nil {
		return err
	}
	byService := make(map[uint64]decimal.Decimal, len(set))
	for _, s := range set {
		byService[s.ServiceID] = s.Price
	}
	for page := 1; ; page++ {
		svcs, total, err := p.st.Services.List(ctx, catalog.Filter{Status: catalog.StatusActive, Page: page, PerPage: 100})
		if err != nil {
			return fmt.Errorf("list services: %w", err)
		}
		for i := range svcs {
			row, err := p.st.Pricing.Applicable(ctx, svcs[i].ID, resellerID)
			if errs.KindOf(err) == errs.NotFound {
				continue // not sold
			}
			if err != nil {
				return err
			}
			var sel *decimal.Decimal
			if v, ok := byService[svcs[i].ID]; ok {
				sel = &v
			}
			if err := fn(&svcs[i], row, sel); err != nil {
				return err
			}
		}
		if len(svcs) == 0 || int64(page*100) >= total {
			return nil
		}
	}
}

func toRow(svc *catalog.Service, price *pricing.Price, sel, markup *decimal.Decimal) Row {
	r, pv := pricing.Resell(price, sel, markup), pricing.PreviewResale(price, sel, markup)
	return Row{ServiceID: svc.ID, ServiceName: svc.Name, Slug: svc.Slug, Cost: r.Cost, Price: sel, Effective: r.Charge,
		Margin: r.Commission, Source: pricing.SourceOf(sel, markup), List: pv.List, BelowList: pv.BelowList}
}

// Change is a change of what a reseller's customers pay that the reseller
// considers before saving it: a default markup (nil: the current one)
// and, when ServiceID is set, a selling price of that service.
type Change struct {
	Markup    *decimal.Decimal
	ServiceID *uint64
	Price     *decimal.Decimal
}

// PreviewRow is one service under a change: what its customers pay now
// (Current) and, by the function their calls are charged with
// (pricing.Resell), the reseller's cost, the list price and what they
// would pay, and whether that is below the list price.
type PreviewRow struct {
	ServiceID   uint64
	ServiceName string
	Slug        string
	Current     decimal.Decimal
	pricing.Preview
}

// ErrPriceWithoutService: a previewed selling price names no service, or a
// service no price.
var ErrPriceWithoutService = errs.Validation(map[string][]string{"service_id": {"is required with price, and price with it"}})

// Preview is every active service sold to the reseller as its customers
// would pay under ch, changing nothing, and the markup it applied. A
// selling price below the reseller's own charge is refused as SetPrice
// refuses it (pricing.ErrBelowCost); a service not sold to it is 404.
func (p *Selling) Preview(ctx context.Context, actor *user.User, ch Change) ([]PreviewRow, *decimal.Decimal, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, nil, err
	}
	fe := errs.FieldErrors{}
	if ch.Markup != nil {
		if err := pricing.ValidateMarkup(*ch.Markup); err != nil {
			fe.Add("markup", "must not be negative and fit 4 digits and 2 decimals")
		}
	}
	if ch.Price != nil {
		if err := pricing.ValidateSellingPrice(*ch.Price); err != nil {
			fe.Add("price", "must not be negative and fit 6 digits and 4 decimals")
		}
	}
	if err := fe.Err(); err != nil {
		return nil, nil, err
	}
	if (ch.ServiceID == nil) != (ch.Price == nil) {
		return nil, nil, ErrPriceWithoutService
	}
	current, err := p.st.Selling.Markup(ctx, actor.ID)
	if err != nil {
		return nil, nil, err
	}
	markup := current
	if ch.Markup != nil {
		markup = ch.Markup
	}
	if ch.ServiceID != nil {
		_, row, err := p.sold(ctx, actor.ID, *ch.ServiceID)
		if err != nil {
			return nil, nil, err
		}
		if ch.Price.LessThan(row.Charge(user.RoleReseller)) {
			return nil, nil, pricing.ErrBelowCost
		}
	}
	var out []PreviewRow
	err = p.eachSold(ctx, actor.ID, func(svc *catalog.Service, row *pricing.Price, sel *decimal.Decimal) error {
		next := sel
		if ch.ServiceID != nil && *ch.ServiceID == svc.ID {
			next = ch.Price
			if err := pricing.CheckSellingPrice(row, *ch.Price); err != nil {
				return err // refused as saving it would be
			}
		}
		if ch.Markup != nil {
			if err := pricing.CheckMarkup(row, *ch.Markup, svc.Name); err != nil {
				return err
			}
		}
		out = append(out, PreviewRow{ServiceID: svc.ID, ServiceName: svc.Name, Slug: svc.Slug,
			Current: pricing.Resell(row, sel, current).Charge, Preview: pricing.PreviewResale(row, next, markup)})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, markup, nil
}

// sold is an active service sold to the reseller and its price row;
// catalog.ErrServiceNotFound otherwise.
func (p *Selling) sold(ctx context.Context, resellerID, serviceID uint64) (*catalog.Service, *pricing.Price, error) {
	svc, err := p.st.Services.ByID(ctx, serviceID)
	if err != nil || svc.Status != catalog.StatusActive {
		if err != nil && errs.KindOf(err) != errs.NotFound {
			return nil, nil, err
		}
		return nil, nil, catalog.ErrServiceNotFound
	}
	price, err := p.st.Pricing.Applicable(ctx, serviceID, resellerID)
	if err != nil {
		if errs.KindOf(err) == errs.NotFound {
			return nil, nil, catalog.ErrServiceNotFound
		}
		return nil, nil, err
	}
	return svc, price, nil
}

// SetPrice sets the reseller's selling price of a service: never below its
// own charge for it (pricing.ErrBelowCost, 422 on price).
func (p *Selling) SetPrice(ctx context.Context, actor *user.User, serviceID uint64, price decimal.Decimal) (Row, error) {
	if err := RequireReseller(actor); err != nil {
		return Row{}, err
	}
	if err := pricing.ValidateSellingPrice(price); err != nil {
		return Row{}, err
	}
	svc, row, err := p.sold(ctx, actor.ID, serviceID)
	if err != nil {
		return Row{}, err
	}
	if price.LessThan(row.Charge(user.RoleReseller)) {
		return Row{}, pricing.ErrBelowCost
	}
	if err := pricing.CheckSellingPrice(row, price); err != nil {
		return Row{}, err
	}
	now := p.now()
	cp := &pricing.CustomerPrice{ResellerID: actor.ID, ServiceID: serviceID, Price: price, UpdatedAt: now.UTC()}
	var markup *decimal.Decimal
	err = p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.CustomerPrices.Selling(ctx, actor.ID, serviceID)
		if err != nil {
			return err
		}
		if err := s.CustomerPrices.Set(ctx, cp); err != nil {
			return err
		}
		markup = before.Markup
		return store.Record(ctx, s.Audit, now, actor, audit.CustomerPriceSet, audit.TargetService, serviceID,
			priceSnapshot(actor.ID, serviceID, before.Price), priceSnapshot(actor.ID, serviceID, &cp.Price))
	})
	if err != nil {
		return Row{}, err
	}
	return toRow(svc, row, &cp.Price, markup), nil
}

// DeletePrice removes the reseller's selling price of a service (its
// customers pay the markup or list price again).
func (p *Selling) DeletePrice(ctx context.Context, actor *user.User, serviceID uint64) error {
	if err := RequireReseller(actor); err != nil {
		return err
	}
	return p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.CustomerPrices.Selling(ctx, actor.ID, serviceID)
		if err != nil {
			return err
		}
		if err := s.CustomerPrices.Delete(ctx, actor.ID, serviceID); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, p.now(), actor, audit.CustomerPriceDelete, audit.TargetService, serviceID,
			priceSnapshot(actor.ID, serviceID, before.Price), nil)
	})
}

// SetMarkup sets (nil: clears) the reseller's default markup, a
// percentage of its own charge for services without a selling price.
func (p *Selling) SetMarkup(ctx context.Context, actor *user.User, markup *decimal.Decimal) (*decimal.Decimal, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, err
	}
	if markup != nil {
		if err := pricing.ValidateMarkup(*markup); err != nil {
			return nil, err
		}
		// Every service sold to the reseller, its selling price or not (a
		// price set today may be removed tomorrow), must charge what fits.
		err := p.eachSold(ctx, actor.ID, func(svc *catalog.Service, row *pricing.Price, _ *decimal.Decimal) error {
			return pricing.CheckMarkup(row, *markup, svc.Name)
		})
		if err != nil {
			return nil, err
		}
	}
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		before, err := s.CustomerPrices.Markup(ctx, actor.ID)
		if err != nil {
			return err
		}
		now := p.now()
		if err := s.CustomerPrices.SetMarkup(ctx, actor.ID, markup, now); err != nil {
			return err
		}
		return store.Record(ctx, s.Audit, now, actor, audit.CustomerMarkupSet, audit.TargetUser, actor.ID,
			markupAudit{DefaultMarkup: before}, markupAudit{DefaultMarkup: markup})
	})
	if err != nil {
		return nil, err
	}
	return markup, nil
}

// priceAudit is what an audit entry shows of a selling price.
type priceAudit struct {
	ResellerID uint64          `json:"reseller_id"`
	ServiceID  uint64          `json:"service_id"`
	Price      decimal.Decimal `json:"price"`
}

// priceSnapshot is price's audit snapshot; nil (no snapshot) when the
// service has no selling price.
func priceSnapshot(resellerID, serviceID uint64, price *decimal.Decimal) any {
	if price == nil {
		return nil
	}
	return priceAudit{ResellerID: resellerID, ServiceID: serviceID, Price: *price}
}

// markupAudit is what an audit entry shows of a default markup (null: none).
type markupAudit struct {
	DefaultMarkup *decimal.Decimal `json:"default_markup"`
}

// ErrBadRange: from after to.
var ErrBadRange = errs.Validation(map[string][]string{"from": {"must not be after to"}})

// Commissions lists page page (from 1, perPage rows) of the reseller's
// settlements whose hour began in [from, to] (either may be nil), oldest
// first, and how many there are.
func (p *Selling) Commissions(ctx context.Context, actor *user.User, from, to *time.Time, page, perPage int) ([]settlement.Settlement, int64, error) {
	if err := RequireReseller(actor); err != nil {
		return nil, 0, err
	}
	if from != nil && to != nil && from.After(*to) {
		return nil, 0, ErrBadRange
	}
	f := settlement.Filter{ResellerID: &actor.ID, From: from}
	if to != nil {
		end := to.Add(time.Nanosecond) // inclusive
		f.To = &end
	}
	total, err := p.st.Commissions.Count(ctx, f)
	if err != nil {
		return nil, 0, err
	}
	f.Offset, f.Limit = (max(page, 1)-1)*perPage, perPage
	list, err := p.st.Commissions.List(ctx, f)
	if err != nil && !errors.Is(err, errs.ErrNotFound) {
		return nil, 0, err
	}
	return list, total, nil
}
