package keys

import (
	"context"
	"fmt"
	"strings"

	"paygate/core/accounts/apikey"
	"paygate/core/accounts/panel"
	"paygate/core/accounts/user"
	"paygate/core/platform/errs"
)

// ListKeys lists the caller's keys.
func (p *Keys) ListKeys(ctx context.Context, owner *user.User) ([]apikey.Key, error) {
	return p.st.Keys.ListByUser(ctx, owner.ID)
}

// CreateKey makes a key for the caller and returns its secret, shown once.
// The count of active keys is checked under the user's row lock, so
// concurrent creations never pass apikey.MaxActiveKeys.
func (p *Keys) CreateKey(ctx context.Context, owner *user.User, r apikey.Restrictions) (*apikey.Key, string, error) {
	if r.DailyLimit == 0 {
		r.DailyLimit = apikey.DefaultDailyLimit
	}
	if err := p.validateRestrictions(ctx, &r); err != nil {
		return nil, "", err
	}
	var key *apikey.Key
	var secret string
	err := p.tx.WithinTx(ctx, func(ctx context.Context, s TxStores) error {
		u, err := s.Users.LockByID(ctx, owner.ID)
		if err != nil {
			return err
		}
		n, err := s.Keys.CountActive(ctx, u.ID)
		if err != nil {
			return err
		}
		if n >= apikey.MaxActiveKeys {
			return apikey.ErrTooManyKeys
		}
		if key, secret, err = panel.NewKey(ctx, s.Keys, u, r, p.now()); err != nil {
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

// KeyPatch lists the editable restrictions; nil leaves a field alone.
type KeyPatch struct {
	Name            *string
	AllowedServices *[]uint64
	AllowedIPs      *string
	DailyLimit      *int
}

// PatchKey edits the restrictions of one of the caller's active keys. Only
// the fields the patch names are written, by one conditional update that
// leaves a key revoked meanwhile alone.
func (p *Keys) PatchKey(ctx context.Context, owner *user.User, id uint64, patch KeyPatch) (*apikey.Key, error) {
	k, err := p.ownKey(ctx, owner, id)
	if err != nil {
		return nil, err
	}
	if k.Status != apikey.StatusActive {
		return nil, apikey.ErrRevoked
	}
	// The key's current values only fill the rules' required fields; they
	// are not written back.
	r := apikey.Restrictions{Name: k.Name, AllowedIPs: k.AllowedIPs, DailyLimit: k.DailyLimit}
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
	var c apikey.Change
	if patch.Name != nil {
		c.Name = &r.Name
	}
	if patch.AllowedServices != nil {
		c.AllowedServices = &r.AllowedServices
	}
	if patch.AllowedIPs != nil {
		c.AllowedIPs = &r.AllowedIPs
	}
	if patch.DailyLimit != nil {
		c.DailyLimit = &r.DailyLimit
	}
	return p.st.Keys.Change(ctx, id, owner.ID, c, p.now().UTC())
}

// RotateSecret gives one of the caller's active keys a new secret, shown
// once; the old secret stops working at once.
func (p *Keys) RotateSecret(ctx context.Context, owner *user.User, id uint64) (*apikey.Key, string, error) {
	secret := apikey.NewSecret()
	hash := apikey.HashSecret(secret)
	k, err := p.st.Keys.Change(ctx, id, owner.ID, apikey.Change{SecretHash: &hash}, p.now().UTC())
	if err != nil {
		return nil, "", err
	}
	return k, secret, nil
}

// RevokeKey revokes one of the caller's keys for good. Revoking twice is
// harmless.
func (p *Keys) RevokeKey(ctx context.Context, owner *user.User, id uint64) (*apikey.Key, error) {
	return p.st.Keys.Revoke(ctx, id, owner.ID, p.now().UTC())
}

// ownKey finds a key of owner; another user's key is "not found", never "forbidden".
func (p *Keys) ownKey(ctx context.Context, owner *user.User, id uint64) (*apikey.Key, error) {
	k, err := p.st.Keys.ByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if k.UserID != owner.ID {
		return nil, apikey.ErrNotFound
	}
	return k, nil
}

// validateRestrictions normalises and checks r. The allow-list's length is
// checked first, then every id it names in one query.
func (p *Keys) validateRestrictions(ctx context.Context, r *apikey.Restrictions) error {
	r.Name = strings.TrimSpace(r.Name)
	fe := errs.FieldErrors{}
	if err := fe.Merge(r.Validate()); err != nil {
		return err
	}
	ids := uniqueIDs(r.AllowedServices)
	r.AllowedServices = ids
	if len(ids) > apikey.MaxAllowedServices {
		fe.Add("allowed_services", fmt.Sprintf("must name at most %d services", apikey.MaxAllowedServices))
		return fe.Err()
	}
	if len(ids) > 0 {
		found, err := p.st.Services.ExistingIDs(ctx, ids)
		if err != nil {
			return err
		}
		exists := make(map[uint64]bool, len(found))
		for _, id := range found {
			exists[id] = true
		}
		for _, id := range ids {
			if !exists[id] {
				fe.Add("allowed_services", fmt.Sprintf("service %d does not exist", id))
			}
		}
	}
	return fe.Err()
}

// uniqueIDs is ids without repeats, in their first order; it stops one
// past apikey.MaxAllowedServices, a list already too long.
func uniqueIDs(ids []uint64) []uint64 {
	if len(ids) == 0 {
		return nil
	}
	seen := make(map[uint64]bool, min(len(ids), apikey.MaxAllowedServices+1))
	out := make([]uint64, 0, min(len(ids), apikey.MaxAllowedServices+1))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			if out = append(out, id); len(out) > apikey.MaxAllowedServices {
				break
			}
		}
	}
	return out
}

// HitsToday is the key's count of calls for the current local day.
func (p *Keys) HitsToday(k *apikey.Key) int {
	if k.HitsDate != p.day(p.now()) {
		return 0
	}
	return k.HitsToday
}
