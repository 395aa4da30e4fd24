package catalogadmin

import (
	"context"
	"fmt"

	"paygate/core/catalog"
)

// SeedServices registers each seed whose slug is not taken yet, with its
// docs and default pricing row, so running it again changes nothing.
func (p *Catalog) SeedServices(ctx context.Context, seeds []catalog.Seed) (int, error) {
	added := 0
	for _, sd := range seeds {
		if _, err := p.st.Services.BySlug(ctx, sd.Service.Slug); err == nil {
			continue
		}
		err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
			svc := sd.Service
			if err := svc.Validate(); err != nil {
				return err
			}
			now := p.now().UTC()
			svc.CreatedAt, svc.UpdatedAt = now, now
			if err := s.Services.Create(ctx, &svc); err != nil {
				return err
			}
			if sd.Doc != nil {
				d := *sd.Doc
				if err := d.Validate(); err != nil {
					return err
				}
				d.ServiceID = svc.ID
				d.CreatedAt, d.UpdatedAt = now, now
				if err := s.Services.PutDoc(ctx, &d); err != nil {
					return err
				}
			}
			price := sd.Price
			price.ServiceID, price.UserID = svc.ID, nil
			if err := price.Validate(); err != nil {
				return err
			}
			price.CreatedAt, price.UpdatedAt = now, now
			return s.Pricing.Create(ctx, &price)
		})
		if err != nil {
			return added, fmt.Errorf("seed service %s: %w", sd.Service.Slug, err)
		}
		added++
	}
	return added, nil
}
