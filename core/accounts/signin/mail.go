package signin

import "time"

// Account mail (password reset and email verification links) is limited on
// the same shared counters, per account and kind: at most one mail every
// MailEvery, whoever asks and from wherever. Nothing here refuses a
// request; one that finds a mail sent within MailEvery sends none and is
// answered like any other, so requests from other addresses neither lock
// the owner out nor flood the inbox, and the answer tells nothing.

// MailEvery is the least time between two mails of one kind to one account.
const MailEvery = 5 * time.Minute

// MailKind names what a mail carries.
type MailKind string

const (
	MailReset        MailKind = "reset"
	MailVerification MailKind = "verify"
)

// MailKey names the counter of kind's mails to account (UserAccount).
func MailKey(kind MailKind, account string) string { return hash("m|" + string(kind) + "|" + account) }

// TakeMail decides one mail on its locked counter: due when no mail of its
// kind went within every; then next is the counter to save, which holds
// the following one back until now + every.
func TakeMail(c Counter, now time.Time, every time.Duration) (next Counter, due bool) {
	if c.BlockedUntil.After(now) {
		return c, false
	}
	return Counter{Key: c.Key, Failures: 1, BlockedUntil: now.Add(every), UpdatedAt: now}, true
}
