// Package storefront holds the panel's use cases of resellers' brands
// (decisions "Resellers: brand"): a reseller's brand page (name, support contacts,
// domains, logo; audited), the brand a request's Host shows, the reseller
// whose customers register on that host, and the branding of every mail.
// The rules are core/resale/brand's.
//
// Only resellers reach the brand page (403 reseller_only); the public brand
// and logo are read by the request's Host, as sent (a proxy in front must
// pass it on). A host is a reseller's only once its claim is verified
// (VerifyDomain: audited brand.domain_verify; or on an operator's word,
// VerifyDomainForOperator, `server brand verify-domain`, the same write and
// entry with actor audit.Operator) and while that account is an
// active reseller; a pending claim shows nothing. Registration on a
// reseller's verified domain creates that reseller's customer, pending,
// which its reseller activates.
//
// The store (brand.Store) writes only the brand columns of
// reseller_settings (an upsert that leaves default_markup alone); its Save
// replaces name, contacts and domains atomically, in a savepoint inside the
// use case's transaction, which also writes the audit entry (brand.update,
// brand.logo_set, brand.logo_delete, target the reseller).
//
// Every mail goes through Mailer, wrapped once in core/app: a message to a
// reseller's customer gets the brand name as FromName (SMTP keeps
// MAIL_FROM's address) and its links rebased onto the reseller's first
// verified domain. Links are built on PUBLIC_BASE_URL only, never on a
// request's Host, so without a verified domain they stay there.
package storefront
