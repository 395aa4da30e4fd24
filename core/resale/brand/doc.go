// Package brand is a reseller's brand (decisions "Resellers: brand"): its name, logo,
// support contacts and the host names it answers on. A request whose Host
// is one of those domains shows that brand and registers that reseller's
// customers; mail to a reseller's customers carries its brand name.
//
// Hosts are compared in one form (NormalizeHost: any case, port dropped).
// The platform's own host (PUBLIC_BASE_URL's) can never be taken. A domain
// is a claim (Domain): pending until its reseller proves it, then
// verified. Several resellers may claim one host; the first to prove it
// wins, the others' claims are lost (read, not stored), and adding a host
// another reseller verified is 409 domain_taken naming it. Proof is both a
// TXT record TXTName(host) holding the claim's token (only the host's
// owner can publish it, so an unverified claim never blocks the owner) and
// the platform's own answer of the token at ChallengePath, fetched through
// the host (it points at the platform). Prober is the port for both
// lookups; adapters/hostprobe is the real one.
//
// Logos (CheckLogo) are PNG, JPEG or WebP of at most 512 KB and 4096 px a
// side. golang.org/x/image/webp is a pure decoder, kept in the core like
// the standard library's. No markup may appear anywhere in the file; a
// compressed stream may, very rarely, hold such bytes by chance: that logo
// is refused, and re-exporting it helps. The checked image is re-encoded:
// PNG to PNG, WebP to PNG (Go has no WebP encoder), JPEG to JPEG at
// quality 92.
package brand
