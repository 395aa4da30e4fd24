package panel

import (
	"context"
	"fmt"
	"strings"

	"paygate/core/apikey"
	"paygate/core/errs"
	"paygate/core/store"
	"paygate/core/user"
)

// ListKeys lists the caller's keys.
func (p *Panel) ListKeys(ctx context.Context, owner *user.User) ([]apikey.Key, error) {
	return p.st.Keys.ListByUser(ctx, owner.ID)
}

// CreateKey makes a key for the caller and returns its secret, shown once.
func (p *Panel) CreateKey(ctx context.Context, owner *user.User, r apikey.Restrictions) (*apikey.Key, string, error) {
	if r.DailyLimit == 0 {
		r.DailyLimit = apikey.DefaultDailyLimit
	}
	if err := p.validateRestrictions(ctx, &r); err != nil {
		return nil, "", err
	}
	var key *apikey.Key
	var secret string
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s store.Stores) error {
		u, err := s.Users.LockByID(ctx, owner.ID)
		if err != nil {
			return err
		}
		if key, secret, err = p.newKey(ctx, s, u, r); err != nil {
			return err
		}
		if u.APIKey == nil {
			u.APIKey = &key.Key
			u.UpdatedAt = p.now().UTC()
			return s.Users.Update(ctx, u)
		}
		return nil
	})
	return key, secret, err
}

func (p *Panel) newKey(ctx context.Context, s store.Stores, owner *user.User, r apikey.Restrictions) (*apikey.Key, string, error) {
	keyValue, secret := apikey.NewCredentials()
	now := p.now().UTC()
	k := &apikey.Key{
		UserID: owner.ID, Key: keyValue, SecretHash: apikey.HashSecret(secret), Name: r.Name,
		AllowedServices: r.AllowedServices, AllowedIPs: r.AllowedIPs, DailyLimit: r.DailyLimit,
		Status: apikey.StatusActive, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.Keys.Create(ctx, k); err != nil {
		return nil, "", fmt.Errorf("create key: %w", err)
	}
	return k, secret, nil
}

// KeyPatch lists the editable restrictions; nil leaves a field alone.
type KeyPatch struct {
	Name            *string
	AllowedServices *[]uint64
	AllowedIPs      *string
	DailyLimit      *int
}

// PatchKey edits the restrictions of one of the caller's keys.
func (p *Panel) PatchKey(ctx context.Context, owner *user.User, id uint64, patch KeyPatch) (*apikey.Key, error) {
	k, err := p.ownKey(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	if k.Status != apikey.StatusActive {
		return nil, errs.E(errs.Conflict, "api_key_revoked", "A revoked key cannot be changed")
	}
	r := apikey.Restrictions{Name: k.Name, AllowedServices: k.AllowedServices, AllowedIPs: k.AllowedIPs, DailyLimit: k.DailyLimit}
	if patch.Name != nil {
		r.Name = *patch.Name
	}
	if patch.AllowedServices != nil {
		r.AllowedServices = *patch.AllowedServices
	}
	if patch.AllowedIPs != nil {
		r.AllowedIPs = *patch.AllowedIPs
	}
	if patch.DailyLimit != nil {
		r.DailyLimit = *patch.DailyLimit
	}
	if err := p.validateRestrictions(ctx, &r); err != nil {
		return nil, err
	}
	k.Name, k.AllowedServices, k.AllowedIPs, k.DailyLimit = r.Name, r.AllowedServices, r.AllowedIPs, r.DailyLimit
	k.UpdatedAt = p.now().UTC()
	if err := p.st.Keys.Update(ctx, k); err != nil {
		return nil, err
	}
	return k, nil
}

// RotateSecret gives one of the caller's keys a new secret, shown once; the
// old secret stops working at once.
func (p *Panel) RotateSecret(ctx context.Context, owner *user.User, id uint64) (*apikey.Key, string, error) {
	k, err := p.ownKey(ctx, owner, id)
	if err != nil {
		return nil, "", err
	}
	if k.Status != apikey.StatusActive {
		return nil, "", errs.E(errs.Conflict, "api_key_revoked", "A revoked key cannot be rotated")
	}
	secret := apikey.NewSecret()
	k.SecretHash = apikey.HashSecret(secret)
	k.UpdatedAt = p.now().UTC()
	if err := p.st.Keys.Update(ctx, k); err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// RevokeKey revokes one of the caller's keys. Revoking twice is harmless.
func (p *Panel) RevokeKey(ctx context.Context, owner *user.User, id uint64) (*apikey.Key, error) {
	k, err := p.ownKey(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	if k.Status == apikey.StatusRevoked {
		return k, nil
	}
	k.Status = apikey.StatusRevoked
	k.UpdatedAt = p.now().UTC()
	if err := p.st.Keys.Update(ctx, k); err != nil {
		return nil, err
	}
	return k, nil
}

// ownKey finds a key of owner; another user's key is "not found", never "forbidden".
func (p *Panel) ownKey(ctx context.Context, owner *user.User, id uint64) (*apikey.Key, error) {
	k, err := p.st.Keys.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if k.UserID != owner.ID {
		return nil, apikey.ErrNotFound
	}
	return k, nil
}

func (p *Panel) validateRestrictions(ctx context.Context, r *apikey.Restrictions) error {
	r.Name = strings.TrimSpace(r.Name)
	fe := errs.FieldErrors{}
	if err := fe.Merge(r.Validate()); err != nil {
		return err
	}
	seen := map[uint64]bool{}
	var ids []uint64
	for _, id := range r.AllowedServices {
		if seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
		if _, err := p.st.Services.ByID(ctx, id); err != nil {
			if errs.KindOf(err) != errs.NotFound {
				return err
			}
			fe.Add("allowed_services", fmt.Sprintf("service %d does not exist", id))
		}
	}
	if len(ids) > 200 {
		fe.Add("allowed_services", "at most 200 services")
	}
	r.AllowedServices = ids
	return fe.Err()
}

// HitsToday is the key's count of calls for the current local day.
func (p *Panel) HitsToday(k *apikey.Key) int {
	if k.HitsDate != p.day(p.now()) {
		return 0
	}
	return k.HitsToday
}
