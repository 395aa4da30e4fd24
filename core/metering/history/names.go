package history

import (
	"context"
	"fmt"

	"paygate/core/accounts/user"
	"paygate/core/platform/directory"
)

// Names names the users, API keys and services of a list page's rows, in
// one store call after the page's own query. An admin reads any; anyone
// else only themselves and their own keys (their rows name nothing else),
// and services, whose names are public in the catalog.
func (p *History) Names(ctx context.Context, actor *user.User, ids directory.IDs) (directory.Names, error) {
	ids = directory.IDs{Users: directory.Unique(ids.Users), Keys: directory.Unique(ids.Keys), Services: directory.Unique(ids.Services)}
	if len(ids.Users) > directory.MaxIDs || len(ids.Keys) > directory.MaxIDs || len(ids.Services) > directory.MaxIDs {
		return directory.Names{}, fmt.Errorf("name list rows: more than %d ids of a kind", directory.MaxIDs)
	}
	n, err := p.st.Names.Names(ctx, ids)
	if err != nil {
		return directory.Names{}, fmt.Errorf("name list rows: %w", err)
	}
	if actor.Role != user.RoleAdmin {
		for id := range n.Users {
			if id != actor.ID {
				delete(n.Users, id)
			}
		}
		for id, k := range n.Keys {
			if k.UserID != actor.ID {
				delete(n.Keys, id)
			}
		}
	}
	return n, nil
}
