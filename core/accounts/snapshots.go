package accounts

import (
	"paygate/core/accounts/user"
	"paygate/core/money/ledger"
	"paygate/core/platform/inr"
)

// Audit snapshots: what an entry shows of a record. They name their fields
// one by one, so a secret (password hash, webhook secret, provider key, key
// secret) can never slip in when an entity grows a field.

type userAudit struct {
	Name            string  `json:"name"`
	Email           string  `json:"email"`
	Phone           string  `json:"phone"`
	Role            string  `json:"role"`
	ParentID        *uint64 `json:"parent_id"` // a customer's reseller
	Status          string  `json:"status"`
	Plan            string  `json:"plan"`
	Balance         string  `json:"balance"`
	WebhookURL      *string `json:"webhook_url"`
	LowBalanceAlert *string `json:"low_balance_alert"`
	// CollectionFeePercent is the account's collection fee, in percent.
	CollectionFeePercent string `json:"collection_fee_percent"`
	DailyPayoutLimit     string `json:"daily_payout_limit"`
	Deleted              bool   `json:"deleted"`
}

func userSnapshot(u *user.User) userAudit {
	s := userAudit{
		Name: u.Name, Email: u.Email, Phone: u.Phone, Role: string(u.Role), Status: string(u.Status),
		Plan: string(u.Plan), Balance: inr.Format2(u.Balance), WebhookURL: u.WebhookURL, Deleted: u.IsDeleted(), ParentID: u.ParentID,
		CollectionFeePercent: inr.Format2(u.CollectionFeePercent), DailyPayoutLimit: inr.Format2(u.DailyPayoutLimit),
	}
	if u.LowBalanceAlert != nil {
		v := inr.Format2(*u.LowBalanceAlert)
		s.LowBalanceAlert = &v
	}
	return s
}

type entryAudit struct {
	TxnID         string `json:"txn_id"`
	Type          string `json:"type"`
	Amount        string `json:"amount"`
	BalanceBefore string `json:"balance_before"`
	BalanceAfter  string `json:"balance_after"`
	Description   string `json:"description"`
}

func entrySnapshot(e *ledger.Entry) entryAudit {
	return entryAudit{TxnID: e.TxnID, Type: string(e.Type), Amount: inr.Format2(e.Amount),
		BalanceBefore: inr.Format2(e.BalanceBefore), BalanceAfter: inr.Format2(e.BalanceAfter), Description: e.Description}
}
