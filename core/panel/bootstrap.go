package panel

import (
	"context"
	"fmt"

	"paygate/core/apikey"
	"paygate/core/catalog"
	"paygate/core/store"
	"paygate/core/user"
)

// EnsureAdmin creates the initial admin when no admin exists. With an empty
// password a random one is generated and returned, to be shown once.
func (p *Panel) EnsureAdmin(ctx context.Context, email, password string) (created bool, generated string, err error) {
	n, err := p.st.Users.CountByRole(ctx, user.RoleAdmin)
	if err != nil {
		return false, "", fmt.Errorf("count admins: %w", err)
	}
	if n > 0 {
		return false, "", nil
	}
	generated, err = p.CreateAdmin(ctx, email, password)
	return err == nil, generated, err
}

// CreateAdmin creates an active admin account (the operators' create-admin
// command). With an empty password a random one is generated and returned.
func (p *Panel) CreateAdmin(ctx context.Context, email, password string) (generated string, err error) {
	if password == "" {
		password = apikey.RandomBase62(20)
		generated = password
	}
	in := NewUser{
		Profile: user.Profile{Name: "Administrator", Email: email, Phone: placeholderPhone(), Password: password},
		Role:    user.RoleAdmin, Status: user.StatusActive, Plan: user.PlanEnterprise,
	}
	if err := in.Profile.Validate(true); err != nil {
		return "", fmt.Errorf("admin account: %w", err)
	}
	if _, err := p.createUser(ctx, in, nil); err != nil {
		return "", fmt.Errorf("create admin %s: %w", email, err)
	}
	return generated, nil
}

// SeedServices registers each seed whose slug is not taken yet, with its
// docs and default pricing row, so running it again changes nothing.
func (p *Panel) SeedServices(ctx context.Context, seeds []catalog.Seed) (int, error) {
	added := 0
	for _, sd := range seeds {
		if _, err := p.st.Services.BySlug(ctx, sd.Service.Slug); err == nil {
			continue
		}
		err := p.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
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

// placeholderPhone is a unique stand-in for an operator-created admin's phone
// (unique and required); "+00" is no country's code, so it is recognisably
// not a real number. The admin sets their own in the panel.
func placeholderPhone() string {
	const digits = "0123456789"
	b := []byte("+00")
	for _, c := range apikey.RandomBase62(24) {
		b = append(b, digits[int(c)%10])
		if len(b) == 15 {
			break
		}
	}
	return string(b)
}
