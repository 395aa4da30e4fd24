// Package check verifies that the books agree with themselves: each
// user's ledger chain and balance, the money rows of every hit, recharge
// and hold, the credit (and fee) of every successful payment, and the usage
// roll-ups against the hits they sum. The operator runs it (server ledger
// check); tests and cmd/bench run it after every scenario. Check lists
// every rule (docs/decisions.md, "The ledger check").
//
// It first waits for this instance's queued charges (the metering fence),
// so the calls this instance answered are in the books it reads. Recharges
// are read before the ledger rows and a recharge that disagrees is read
// again, so one failing between the two reads is not reported; a usage
// roll-up mismatch is reported only if it survives a second read. Refunds
// of payments: one debit per refund, one give-back per failed one, none
// pending past its deadline, and refunded_amount = Σ refunds not failed ≤
// the amount. A payout still pending or processing a day after its creation
// is reported (payout.StuckAfter). A successful hit is compared with the
// charge it was admitted for (admitted_amount) unless it records why not
// (uncharged = hold_released, with a zero charge); hits written before
// migration 00031 have no admitted_amount and are not compared.
//
// Resellers' money, over the whole database: each transfer has exactly one
// debit and one credit of its amount on the right sides, each commission
// settlement equals its hour's settled hits and was credited once, and no
// entry references a missing transfer or settlement. Transfers are read in
// id order through their repository (transfer.Repository.ForEach).
//
// Tax documents (invoices.go): each one's lines add up and its gross equals
// its month's billable ledger entries (a reseller's with its customers'
// at its cost); and per reseller and finished month, its customers'
// invoiced gross less the commission of their charges (a commission counts
// in the local month its charge was debited, the month the customer's
// invoice bills it) equals the customers' lines of the platform's invoice
// to it (Resold).
package check
