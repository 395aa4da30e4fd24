// Package keys holds the panel's use cases of an owner's API keys:
// creation under the owner's row lock (at most apikey.MaxActiveKeys
// active), restrictions, secret rotation and revocation. The rules are
// core/accounts/apikey's.
package keys
