package accounts

import (
	"context"
	"fmt"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/user"
)

// EnsureAdmin creates the initial admin when no admin exists. With an empty
// password a random one is generated and returned, to be shown once.
func (p *Accounts) EnsureAdmin(ctx context.Context, email, password string) (created bool, generated string, err error) {
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
func (p *Accounts) CreateAdmin(ctx context.Context, email, password string) (generated string, err error) {
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
