package httpapi

import (
	"context"

	"paygate/core/accounts/user"
	"paygate/core/platform/directory"
)

// Lists name the users, keys and services their rows refer to (who made a
// call, with which key, to which service) beside the ids: one lookup of the
// page's distinct ids after the page's query (History.Names), so the list
// queries stay as they are. A name the caller may not read, or of a row
// since deleted, is left out (the id still says which).

// strPtr is s, or nil when empty.
func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// userName and userEmail name users[id], or nil when unknown.
func userName(n directory.Names, id uint64) *string  { return strPtr(n.Users[id].Name) }
func userEmail(n directory.Names, id uint64) *string { return strPtr(n.Users[id].Email) }

// exportNames names the rows of a CSV export as they stream: each id is
// read once, when it first appears (an export's rows name few distinct
// users, keys and services), never once per row.
type exportNames struct {
	ctx   context.Context
	s     *server
	actor *user.User
	n     directory.Names
}

func (s *server) exportNames(ctx context.Context, actor *user.User) *exportNames {
	return &exportNames{ctx: ctx, s: s, actor: actor, n: directory.Names{
		Users: map[uint64]directory.User{}, Keys: map[uint64]directory.Key{}, Services: map[uint64]directory.Service{}}}
}

// user, key and service name one id of a row: from what was read, else
// read now (a map lookup per row; a query only for an id not seen before).
func (e *exportNames) user(id uint64) (directory.User, error) {
	if u, ok := e.n.Users[id]; ok {
		return u, nil
	}
	err := e.read(directory.IDs{Users: []uint64{id}})
	return e.n.Users[id], err
}

func (e *exportNames) key(id uint64) (directory.Key, error) {
	if k, ok := e.n.Keys[id]; ok {
		return k, nil
	}
	err := e.read(directory.IDs{Keys: []uint64{id}})
	return e.n.Keys[id], err
}

func (e *exportNames) service(id uint64) (directory.Service, error) {
	if v, ok := e.n.Services[id]; ok {
		return v, nil
	}
	err := e.read(directory.IDs{Services: []uint64{id}})
	return e.n.Services[id], err
}

// read names ids; one not found is remembered as unnamed, so it is not
// read again.
func (e *exportNames) read(ids directory.IDs) error {
	got, err := e.s.app.History.Names(e.ctx, e.actor, ids)
	if err != nil {
		return err
	}
	for _, id := range ids.Users {
		e.n.Users[id] = got.Users[id]
	}
	for _, id := range ids.Keys {
		e.n.Keys[id] = got.Keys[id]
	}
	for _, id := range ids.Services {
		e.n.Services[id] = got.Services[id]
	}
	return nil
}
