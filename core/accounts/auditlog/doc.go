// Package auditlog lists the audit log for admins.
//
// Every admin change (users, balance adjustments, services, docs, pricing,
// balance request decisions, plans, billing settings) writes one audit
// entry in its transaction (core/accounts/audit); refused actions record nothing;
// owners' own actions are not audited.
package auditlog
