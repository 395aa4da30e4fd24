package storetest

import (
	"context"

	"paygate/core/platform/directory"
)

type namesRepo struct{ d *DB }

var _ directory.Repository = namesRepo{}

func (r namesRepo) Names(_ context.Context, ids directory.IDs) (directory.Names, error) {
	n := directory.Names{Users: map[uint64]directory.User{}, Keys: map[uint64]directory.Key{}, Services: map[uint64]directory.Service{}}
	err := r.d.do("Names.Names", func(t *tables) error {
		for _, id := range ids.Users {
			if u, ok := t.users[id]; ok {
				n.Users[id] = directory.User{ID: id, Name: u.Name, Email: u.Email}
			}
		}
		for _, id := range ids.Keys {
			if k, ok := t.keys[id]; ok {
				n.Keys[id] = directory.Key{ID: id, UserID: k.UserID, Name: k.Name}
			}
		}
		for _, id := range ids.Services {
			if s, ok := t.services[id]; ok {
				n.Services[id] = directory.Service{ID: id, Name: s.Name, Slug: s.Slug}
			}
		}
		return nil
	})
	return n, err
}

// Names is the fake's directory (outside store.Stores: no transaction
// reads it).
func (d *DB) Names() directory.Repository { return namesRepo{d} }
