package panel_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"

	"paygate/core/apikey"
	apikeymocks "paygate/core/apikey/mocks"
	catalogmocks "paygate/core/catalog/mocks"
	"paygate/core/errs"
	"paygate/core/panel"
	"paygate/core/store"
	"paygate/core/user"
)

// keysPanel is a panel over mocked key and catalog stores: a call the test
// did not expect fails it, so a test asserts which reads a rule makes.
func keysPanel(t *testing.T) (*panel.Panel, *apikeymocks.MockRepository, *catalogmocks.MockRepository) {
	keys := apikeymocks.NewMockRepository(t)
	services := catalogmocks.NewMockRepository(t)
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	p := panel.New(panel.Deps{Stores: store.Stores{Keys: keys, Services: services}, Now: func() time.Time { return at }})
	return p, keys, services
}

func manyIDs(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// More than 200 services is refused by its count alone: no lookup at all.
func TestAllowedServicesCountedBeforeAnyLookup(t *testing.T) {
	owner := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	for _, n := range []int{201, 120_000} {
		p, keys, _ := keysPanel(t) // services: no call expected
		keys.EXPECT().ByID(mock.Anything, uint64(3)).Return(&apikey.Key{ID: 3, UserID: 7, Name: "k", DailyLimit: 10, Status: apikey.StatusActive}, nil)
		ids := manyIDs(n)
		_, err := p.PatchKey(context.Background(), owner, 3, panel.KeyPatch{AllowedServices: &ids})
		var e *errs.Error
		if !errors.As(err, &e) || e.Kind != errs.Invalid || len(e.Fields["allowed_services"]) != 1 {
			t.Fatalf("%d ids: %v, want one allowed_services error", n, err)
		}
	}
}

// Up to 200 are checked in one query; the missing ones are named.
func TestAllowedServicesCheckedInOneQuery(t *testing.T) {
	owner := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	p, keys, services := keysPanel(t)
	keys.EXPECT().ByID(mock.Anything, uint64(3)).Return(&apikey.Key{ID: 3, UserID: 7, Name: "k", DailyLimit: 10, Status: apikey.StatusActive}, nil)
	ids := append(manyIDs(200), 5, 5) // repeats count once
	services.EXPECT().ExistingIDs(mock.Anything, manyIDs(200)).Return(append(manyIDs(198), 200), nil).Once()
	_, err := p.PatchKey(context.Background(), owner, 3, panel.KeyPatch{AllowedServices: &ids})
	var e *errs.Error
	if !errors.As(err, &e) || len(e.Fields["allowed_services"]) != 1 || e.Fields["allowed_services"][0] != "service 199 does not exist" {
		t.Fatalf("err = %v (%+v), want service 199 named", err, e)
	}
}

// A PATCH writes only the fields it names, as one conditional change: a
// name change never rewrites the allow-lists it read.
func TestPatchKeyWritesOnlyWhatItNames(t *testing.T) {
	owner := &user.User{ID: 7, Role: user.RoleUser, Status: user.StatusActive}
	p, keys, _ := keysPanel(t)
	keys.EXPECT().ByID(mock.Anything, uint64(3)).Return(&apikey.Key{ID: 3, UserID: 7, Name: "k", DailyLimit: 10,
		AllowedServices: []uint64{4}, AllowedIPs: "10.0.0.1", Status: apikey.StatusActive}, nil)
	keys.EXPECT().Change(mock.Anything, uint64(3), uint64(7), mock.MatchedBy(func(c apikey.Change) bool {
		return c.Name != nil && *c.Name == "renamed" && c.AllowedServices == nil && c.AllowedIPs == nil &&
			c.DailyLimit == nil && c.SecretHash == nil
	}), mock.Anything).Return(&apikey.Key{ID: 3, UserID: 7, Name: "renamed", Status: apikey.StatusActive}, nil).Once()
	name := "  renamed "
	if _, err := p.PatchKey(context.Background(), owner, 3, panel.KeyPatch{Name: &name}); err != nil {
		t.Fatal(err)
	}
}
