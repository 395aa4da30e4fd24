// Package catalogadmin holds the panel's use cases of the service catalog:
// services, their docs and pricing rows (admins), the catalog as users see
// it, and the seeding of built-in and demo services. The rules are
// core/catalog's and core/catalog/pricing's.
//
// Users and resellers see only active services, without provider_url and
// headers (they may embed credentials); admins see everything but
// provider_key (has_provider_key instead); pricing rows are admin-only.
// Every list takes page (from 1) and per_page (1-100, default 20) and
// answers {data, meta: {page, per_page, total}}; the admin user list leaves
// out soft-deleted users, GET /users/{id} still shows one. A service's
// price is pricing.PriceFor, the function the metering charges with: a
// reseller's customer sees its reseller's selling price (or markup, or the
// list price), everyone else their role's charge under the row that
// applies to them; admins see their own role's charge.
package catalogadmin
