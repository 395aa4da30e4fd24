// Package panel is what the web panel's use-case packages share: the
// outward ports they call (access and email tokens, mail, files), the admin
// check, the patch field and the writing of a new API key. The use cases are
// its subpackages, which import it and the domains but never each other
// (core/arch_test.go): accounts, keys, topups, catalogadmin, history and
// auditlog.
package panel
