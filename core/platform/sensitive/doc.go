// Package sensitive masks values that must never be stored or shown in
// full (decisions: "Sensitive parameters"): Aadhaar and PAN numbers and any
// parameter a service marks sensitive. The value goes to its provider as
// sent; every copy the service keeps or shows is masked.
//
// A documented parameter carries "sensitive": true (the admin docs API and
// the panel's service form; the demo Aadhaar and PAN services mark
// aadhaar_number and pan_number, and migration 00018 marked those two names
// in stored docs and masked older hit logs). The hit log's request_payload
// keeps Mask of the value, and with it the panel's lists, CSV exports,
// webhooks and logs. An echo of the value (MinScrubbed characters or more)
// in the stored answer or error is replaced by its mask (Scrub); a body
// that is not a JSON object is stored fully masked for such a service; the
// caller's own answer is unchanged. A service with any sensitive parameter
// stores only the parameters it documents, since a misspelt name would
// otherwise keep its value in full; a name that matches a sensitive one
// under FoldName (Aadhaar_Number, aadhaar-number, AADHAAR NUMBER) is kept
// masked like it, so the operator sees the typo, and the stored answer
// masks the names it dropped (a name may be the number itself; the
// caller's 422 names them as sent). Account verification and account
// opening mask their identifiers the same way. Limit: an echo JSON-escaped
// differently is not found (Aadhaar and PAN numbers never need escaping).
package sensitive
