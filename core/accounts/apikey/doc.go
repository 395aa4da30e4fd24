// Package apikey holds the credentials integrators call the API with: a key,
// a secret kept only as a hash, and the key's restrictions.
//
// Keys are rk_live_ + 32 base62 characters, secrets rs_ + 48; a secret is
// shown once (at creation or rotation) and stored as its SHA-256, compared
// in constant time. allowed_ips takes IPv4/IPv6 addresses and CIDR ranges
// (empty: any); allowed_services null or empty means every active service.
//
// Revocation is final. The port has no whole-row Update: Change is one
// conditional UPDATE of only the columns a PATCH or rotation names, WHERE …
// AND status = 'active' (no match: 409 api_key_revoked), and Revoke sets
// revoked only on an active key; DELETE /api-keys/{id} revokes (the row is
// kept for the hit logs), answers the revoked key and is harmless twice.
// At most 50 active keys per user: the panel's CreateKey counts them under
// the user's row lock in the creating transaction; the 51st is 409
// api_key_limit_reached (the account's state refuses it, so not 422;
// waiting does not help, so not 429). allowed_services: more than 200
// distinct ids is 422 before any read; up to 200 are checked by one IN
// query naming each unknown id. api_pricing.user_id has no cascading
// foreign key (MySQL refuses one on the base of the stored generated column
// user_scope that makes rows unique); users are only soft-deleted.
package apikey
