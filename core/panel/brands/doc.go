// Package brands holds the panel's use cases of resellers' brands
// (decisions "Resellers: brand"): a reseller's brand page (name, support contacts,
// domains, logo; audited), the brand a request's Host shows, the reseller
// whose customers register on that host, and the branding of every mail.
// The rules are core/brand's.
package brands
