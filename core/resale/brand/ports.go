package brand

import (
	"context"
	"time"
)

// Store keeps the brand columns of reseller_settings (and no other: the
// default markup is another use case's) and reseller_domains: each
// reseller's claims on hosts. Several resellers may claim one host; at most
// one claim on a host is verified, and the others are then lost (a state
// read, never stored: dropping the verified claim makes them pending again).
type Store interface {
	// Get is the reseller's brand with its claims (by time added, then
	// host); a reseller without a row has the zero Brand (with ResellerID set).
	Get(ctx context.Context, resellerID uint64) (Brand, error)
	// Save writes the name and support contacts and replaces the domains,
	// atomically: a kept domain keeps its state and token, a new one is
	// pending with a fresh NewToken. A domain another reseller verified
	// answers DomainTaken(host) and changes nothing.
	Save(ctx context.Context, resellerID uint64, in Input, now time.Time) error
	// SetLogo stores the logo's file name and type ("" and "" remove it)
	// and returns the name it replaced ("" for none).
	SetLogo(ctx context.Context, resellerID uint64, path, contentType string, now time.Time) (previous string, err error)
	// ResellerOfHost is the reseller that verified a host (NormalizeHost's
	// form); errs NotFound for a host no one verified.
	ResellerOfHost(ctx context.Context, host string) (uint64, error)
	// Claimants are the resellers claiming host, whatever the state of
	// their claims, by time claimed, then id (none: an empty list).
	Claimants(ctx context.Context, host string) ([]uint64, error)
	// HasClaim reports whether someone claims host with token (the
	// challenge the platform answers on that host).
	HasClaim(ctx context.Context, host, token string) (bool, error)
	// RecordCheck keeps when the reseller's claim on host was last checked
	// and what failed ("" for nothing); errs NotFound without the claim.
	RecordCheck(ctx context.Context, resellerID uint64, host, problem string, now time.Time) error
	// Verify marks the reseller's claim on host verified (checked now, no
	// problem). DomainTaken(host) when another reseller's claim is
	// verified (the database keeps one per host, whoever comes second);
	// errs NotFound without the claim.
	Verify(ctx context.Context, resellerID uint64, host string, now time.Time) error
}
