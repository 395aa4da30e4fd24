package web

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

// StrPtr is s, or nil when empty.
func StrPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// UserName and UserEmail name users[id], or nil when unknown.
func UserName(n directory.Names, id uint64) *string  { return StrPtr(n.Users[id].Name) }
func UserEmail(n directory.Names, id uint64) *string { return StrPtr(n.Users[id].Email) }

// ExportNames names the rows of a CSV export as they stream: each id is
// read once, when it first appears (an export's rows name few distinct
// users, keys and services), never once per row.
type ExportNames struct {
	ctx   context.Context
	dir   Directory
	actor *user.User
	n     directory.Names
}

// Directory names the ids a caller may read (core/metering's History).
type Directory interface {
	Names(ctx context.Context, actor *user.User, ids directory.IDs) (directory.Names, error)
}

// NewExportNames names the rows of one export for actor.
func NewExportNames(ctx context.Context, dir Directory, actor *user.User) *ExportNames {
	return &ExportNames{ctx: ctx, dir: dir, actor: actor, n: directory.Names{
		Users: map[uint64]directory.User{}, Keys: map[uint64]directory.Key{}, Services: map[uint64]directory.Service{}}}
}

// User, Key and Service name one id of a row: from what was read, else
// read now (a map lookup per row; a query only for an id not seen before).
func (e *ExportNames) User(id uint64) (directory.User, error) {
	if u, ok := e.n.Users[id]; ok {
		return u, nil
	}
	err := e.read(directory.IDs{Users: []uint64{id}})
	return e.n.Users[id], err
}

func (e *ExportNames) Key(id uint64) (directory.Key, error) {
	if k, ok := e.n.Keys[id]; ok {
		return k, nil
	}
	err := e.read(directory.IDs{Keys: []uint64{id}})
	return e.n.Keys[id], err
}

func (e *ExportNames) Service(id uint64) (directory.Service, error) {
	if v, ok := e.n.Services[id]; ok {
		return v, nil
	}
	err := e.read(directory.IDs{Services: []uint64{id}})
	return e.n.Services[id], err
}

// read names ids; one not found is remembered as unnamed, so it is not
// read again.
func (e *ExportNames) read(ids directory.IDs) error {
	got, err := e.dir.Names(e.ctx, e.actor, ids)
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
