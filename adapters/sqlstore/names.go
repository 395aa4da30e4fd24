package sqlstore

import (
	"context"
	"fmt"

	"paygate/adapters/sqlstore/sqlbase"
	"paygate/core/platform/directory"
)

// nameStore reads the names list rows refer to: by primary key, only the
// columns shown.
type nameStore struct{ sqlbase.Base }

var _ directory.Repository = (*nameStore)(nil)

// nameRow is one named row of users, api_keys or api_services; the columns
// a table lacks stay zero.
type nameRow struct {
	ID     uint64 `gorm:"column:id"`
	UserID uint64 `gorm:"column:user_id"`
	Name   string `gorm:"column:name"`
	Email  string `gorm:"column:email"`
	Slug   string `gorm:"column:slug"`
}

func (s *nameStore) Names(ctx context.Context, ids directory.IDs) (directory.Names, error) {
	n := directory.Names{Users: map[uint64]directory.User{}, Keys: map[uint64]directory.Key{}, Services: map[uint64]directory.Service{}}
	if u := directory.Unique(ids.Users); len(u) > 0 {
		var rows []nameRow
		if err := s.Conn(ctx).Table("users").Select("id, name, email").Where("id IN ?", u).Scan(&rows).Error; err != nil {
			return n, fmt.Errorf("name users: %w", sqlbase.Translate(err))
		}
		for _, r := range rows {
			n.Users[r.ID] = directory.User{ID: r.ID, Name: r.Name, Email: r.Email}
		}
	}
	if k := directory.Unique(ids.Keys); len(k) > 0 {
		var rows []nameRow
		if err := s.Conn(ctx).Table("api_keys").Select("id, user_id, name").Where("id IN ?", k).Scan(&rows).Error; err != nil {
			return n, fmt.Errorf("name API keys: %w", sqlbase.Translate(err))
		}
		for _, r := range rows {
			n.Keys[r.ID] = directory.Key{ID: r.ID, UserID: r.UserID, Name: r.Name}
		}
	}
	if v := directory.Unique(ids.Services); len(v) > 0 {
		var rows []nameRow
		if err := s.Conn(ctx).Table("api_services").Select("id, name, slug").Where("id IN ?", v).Scan(&rows).Error; err != nil {
			return n, fmt.Errorf("name services: %w", sqlbase.Translate(err))
		}
		for _, r := range rows {
			n.Services[r.ID] = directory.Service{ID: r.ID, Name: r.Name, Slug: r.Slug}
		}
	}
	return n, nil
}
