// Package platform is the lowest area: what every other area builds on.
// errs (the error vocabulary), ident (identifier formats), inr (rounding
// and formatting rupees), sensitive (masking), schedule (the workers' retry
// schedule), utr (bank references claimed once), directory (names beside
// ids), export (CSV export slots) and store (the unit of work, whose
// storetest is the in-memory fake and storecontract the suite that holds
// the fake to the SQL store).
//
// Areas import in one direction, lowest first: platform, accounts, events,
// metering, gateway, money, billing, catalog, resale, app (core/arch_test.go):
// domain packages import only earlier areas; use cases import earlier
// areas' use cases and any area's records through core/platform/store.
//
// The store is the direction's one exception: it names every area's
// repositories.
package platform
