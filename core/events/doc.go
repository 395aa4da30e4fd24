// Package events is the events area: webhook (the outbox's events and
// endpoints) and outbox (their delivery, signed, with retries).
//
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
package events
