// Package directory names what list rows refer to by id (users, API keys,
// services), so the panel's lists and exports show a name beside the id.
// A page's names are read after its rows, one query per kind for the
// page's distinct ids, never a join in the list query or a query per row;
// an export reads each id once, the first time a row names it, and then
// answers from memory. Hit logs carry user_name, user_email, api_key_name
// and api_service_name; transactions, payments and payouts user_name and
// user_email; the audit log actor_name, actor_email and, for a user or
// service target, target_name (target_email). A name is left out when
// unknown (a deleted service) or not the caller's to read (a non-admin
// reads only themselves and their own keys, and a reseller its customer's
// keys in that customer's hit logs; service names are public).
// Exports add user_email, user_name (and on hit logs api_service_name,
// api_key_name) after each id column. The gateway's own answers carry no
// names.
package directory

import "context"

// MaxIDs bounds one lookup's ids of each kind (a list page has at most 100
// rows).
const MaxIDs = 500

// User is a user's name and email.
type User struct {
	ID          uint64
	Name, Email string
}

// Key is an API key's name and owner.
type Key struct {
	ID, UserID uint64
	Name       string
}

// Service is a service's name and slug.
type Service struct {
	ID         uint64
	Name, Slug string
}

// IDs are the ids to name, by kind; duplicates are allowed.
type IDs struct {
	Users, Keys, Services []uint64
}

// Add returns ids with more ids of each kind.
func (ids IDs) Add(users, keys, services []uint64) IDs {
	return IDs{Users: append(ids.Users, users...), Keys: append(ids.Keys, keys...), Services: append(ids.Services, services...)}
}

// Names are the named rows by id. An id with no row (a deleted service)
// is missing from its map.
type Names struct {
	Users    map[uint64]User
	Keys     map[uint64]Key
	Services map[uint64]Service
}

// Repository reads names.
type Repository interface {
	// Names reads the rows of ids, one query per kind with ids (none for a
	// kind without); deleted users and revoked keys are named too.
	Names(ctx context.Context, ids IDs) (Names, error)
}

// Unique returns ids without duplicates and zeros, in first-seen order.
func Unique(ids []uint64) []uint64 {
	seen := make(map[uint64]bool, len(ids))
	out := make([]uint64, 0, len(ids))
	for _, id := range ids {
		if id != 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
