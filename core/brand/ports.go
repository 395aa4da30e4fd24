package brand

import (
	"context"
	"time"
)

// Store keeps the brand columns of reseller_settings (and no other: the
// default markup is another use case's) and reseller_domains.
type Store interface {
	// Get is the reseller's brand; a reseller without a row has the zero
	// Brand (with ResellerID set).
	Get(ctx context.Context, resellerID uint64) (Brand, error)
	// Save writes the name and support contacts and replaces the domains,
	// atomically. A domain another reseller holds answers DomainTaken(host)
	// and changes nothing.
	Save(ctx context.Context, resellerID uint64, in Input, now time.Time) error
	// SetLogo stores the logo's file name and type ("" and "" remove it)
	// and returns the name it replaced ("" for none).
	SetLogo(ctx context.Context, resellerID uint64, path, contentType string, now time.Time) (previous string, err error)
	// ResellerOfHost is the reseller a host (NormalizeHost's form) belongs
	// to; errs NotFound for a host no one holds.
	ResellerOfHost(ctx context.Context, host string) (uint64, error)
}
